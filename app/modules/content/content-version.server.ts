import { AsyncLocalStorage } from "node:async_hooks";
import type { DatabaseHandle } from "~db/client.server";
import type { Logger } from "~/lib/logger.server";

/** The channel the database triggers announce changes to public content on (see migration 0015). */
export const CONTENT_CHANNEL = "content_changes";

/**
 * Where changes stood when something was read or rendered: the store-wide version, and how many changes of any
 * kind had been heard.
 */
export type ContentMark = { version: number; stamp: number };

/**
 * What public pages show, as one number per process: it changes whenever a committed write changes a table a public
 * page reads (catalogue, prices, content, SEO records, banners, company details, settings), in this process or any
 * other. Whatever is kept in memory for public pages (rendered pages, the catalogue snapshot) is valid only for the
 * version it was made at. A product's availability (its stock count, its key pool) is not store-wide: a change to it
 * announces tags (`stock:<id>`, `card:<id>`, migration 0024), and only what read those tags (`dependsOn`) goes stale.
 */
export type ContentVersion = {
  /** The store-wide version now. */
  current(): number;
  /** Where changes stand now: take it before reading what is to be kept. */
  mark(): ContentMark;
  /**
   * Whether something read from `tags`, starting at `mark`, is still what pages would show: no store-wide change
   * and no change to any of its tags since, and changes are heard.
   */
  fresh(mark: ContentMark, tags: Iterable<string>): boolean;
  /**
   * Whether changes are heard now. False between a lost LISTEN connection and its return: nothing may then be
   * served from memory, since a change may be missed.
   */
  live(): boolean;
  /**
   * Told when a request that may have written (any but GET, HEAD and OPTIONS) has been answered in this process:
   * what that write changed must count before anything is served from memory again (see catchUp).
   */
  wrote(): void;
  /** Whether a write answered in this process may not be counted yet: catchUp() before serving from memory. */
  behind(): boolean;
  /**
   * Whether this process has not confirmed within HEARD_WITHIN_MS that it has heard every change the others
   * committed (PostgreSQL; never on PGlite): catchUp() before a request is answered from memory.
   */
  unconfirmed(): boolean;
  /**
   * Resolves once every change committed before the last wrote(), and before HEARD_WITHIN_MS ago, is counted: at
   * once on PGlite, whose notifications arrive before the writing query resolves; on PostgreSQL after one round trip
   * on the LISTEN connection, which delivers pending notifications before its answer. Rejects while that connection
   * is lost, and within seconds when it does not answer (a silent connection, which is then replaced): the caller
   * reads the database instead, never waits on.
   */
  catchUp(): Promise<void>;
  /** Called after every store-wide change (and after a reconnection, when changes may have been missed). */
  onChange(listener: () => void): () => void;
  /** Stops listening. */
  close(): Promise<void>;
};

/**
 * The tags what runs now depends on, when something means to keep it (see `collectDependencies`). One per process,
 * not per module: in development the server entry (which collects for the page cache) and the app (whose reads say
 * what they depend on) are loaded apart, by tsx and by Vite, each with its own copy of this module.
 */
const dependencies: AsyncLocalStorage<Set<string>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("storefront.content-dependencies")
] ??= new AsyncLocalStorage<Set<string>>()) as AsyncLocalStorage<Set<string>>;

/**
 * Says that what is being read depends on these tags: a cached page or snapshot entry that read them goes stale when
 * one of them changes. Outside `collectDependencies` (a write, a script) nothing needs to know.
 */
export function dependsOn(tags: Iterable<string>): void {
  const collected = dependencies.getStore();
  if (collected) for (const tag of tags) collected.add(tag);
}

/** Runs `run`, adding to `tags` whatever it (and everything it waits on) says it depends on. */
export function collectDependencies<T>(tags: Set<string>, run: () => T): T {
  return dependencies.run(tags, run);
}

/**
 * How stale another process's change may be when something kept is served, on PostgreSQL: a change committed this
 * long before a request is counted before that request is answered from memory, in every process. The process that
 * answered the write counts it at once (`wrote`). Notifications usually arrive within a millisecond; under heavy CPU
 * they can wait behind other work, and this bounds that wait. While pages are served, a process confirms it has
 * heard everything (one round trip on the LISTEN connection) about every HEARD_WITHIN_MS / 2, in the background.
 */
export const HEARD_WITHIN_MS = 250;

export async function startContentVersion(
  database: Pick<DatabaseHandle, "listen" | "kind">,
  logger: Logger,
): Promise<ContentVersion> {
  let version = 0;
  /** Changes heard, store-wide or tagged. */
  let stamp = 0;
  /** The stamp of each tag's last change since the last store-wide one (which makes older ones moot). */
  const tagChanges = new Map<string, number>();
  let live = true;
  let closed = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    version += 1;
    stamp += 1;
    tagChanges.clear();
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.error({ err: error }, "a content-change listener failed");
      }
    }
  };
  const listening = await database.listen(CONTENT_CHANNEL, {
    onMessage(payload) {
      if (payload === "") return changed();
      stamp += 1;
      for (const tag of payload.split(" ")) if (tag) tagChanges.set(tag, stamp);
    },
    onError(error) {
      live = false;
      // Whatever was made before the loss may be stale by the time it is back.
      changed();
      logger.warn({ err: error.message }, "lost the content-change LISTEN connection; reconnecting");
    },
    onReconnect() {
      live = true;
      changed();
      logger.info("listening for content changes again");
    },
  });
  // Notifications from other processes arrive on their own time on PostgreSQL; PGlite has no other process.
  const bounded = database.kind === "postgres";
  let writes = 0;
  let countedThrough = 0;
  /** When the last completed round trip on the LISTEN connection was sent: every change committed before is heard. */
  let heardAt = performance.now();
  /** The round trip in flight: which writes it counts, and when it was sent. */
  let pending: { through: number; sentAt: number; done: Promise<void> } | undefined;
  const roundTrip = () => {
    const through = writes;
    const sentAt = performance.now();
    const done = listening.sync().then(() => {
      countedThrough = Math.max(countedThrough, through);
      heardAt = Math.max(heardAt, sentAt);
    });
    const current = { through, sentAt, done };
    pending = current;
    void done
      .finally(() => {
        if (pending === current) pending = undefined;
      })
      .catch(() => undefined);
    return current;
  };
  return {
    current: () => version,
    mark: () => ({ version, stamp }),
    fresh(mark, tags) {
      if (mark.version !== version || !live || closed) return false;
      if (mark.stamp === stamp) return true;
      for (const tag of tags) if ((tagChanges.get(tag) ?? 0) > mark.stamp) return false;
      return true;
    },
    live: () => live && !closed,
    wrote() {
      writes += 1;
    },
    behind: () => countedThrough < writes,
    unconfirmed() {
      if (!bounded) return false;
      const age = performance.now() - heardAt;
      // Confirmed again ahead of time, so that a steady stream of requests never waits for it.
      if (age > HEARD_WITHIN_MS / 2 && !pending && live && !closed) roundTrip();
      return age > HEARD_WITHIN_MS;
    },
    async catchUp() {
      const through = writes;
      const now = performance.now();
      const heardEnough = !bounded || now - heardAt <= HEARD_WITHIN_MS;
      if (countedThrough >= through && heardEnough) return;
      // Requests that wait together share one round trip, if it was sent after their write was answered and
      // recently enough.
      const usable =
        pending && pending.through >= through && (heardEnough || pending.sentAt >= now - HEARD_WITHIN_MS);
      await (usable ? pending! : roundTrip()).done;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await listening.stop();
    },
  };
}
