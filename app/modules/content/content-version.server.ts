import type { DatabaseHandle } from "~db/client.server";
import type { Logger } from "~/lib/logger.server";

/** The channel the database triggers announce changes to public content on (see migration 0015). */
export const CONTENT_CHANNEL = "content_changes";

/**
 * What public pages show, as one number per process: it changes whenever a committed write changes a table a public
 * page reads (catalogue, prices, stock, key pools, content, SEO records, banners, company details, settings), in this
 * process or any other. Whatever is kept in memory for public pages (rendered pages, the catalogue snapshot) is
 * valid only for the version it was made at.
 */
export type ContentVersion = {
  /** The version now. */
  current(): number;
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
   * Resolves once every change committed before the last wrote() is counted: at once on PGlite, whose
   * notifications arrive before the writing query resolves; on PostgreSQL after one round trip on the LISTEN
   * connection, which delivers pending notifications before its answer. Rejects while that connection is lost.
   */
  catchUp(): Promise<void>;
  /** Called after every change (and after a reconnection, when changes may have been missed). */
  onChange(listener: () => void): () => void;
  /** Stops listening. */
  close(): Promise<void>;
};

export async function startContentVersion(
  database: Pick<DatabaseHandle, "listen">,
  logger: Logger,
): Promise<ContentVersion> {
  let version = 0;
  let live = true;
  let closed = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    version += 1;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.error({ err: error }, "a content-change listener failed");
      }
    }
  };
  const listening = await database.listen(CONTENT_CHANNEL, {
    onMessage: changed,
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
  let writes = 0;
  let countedThrough = 0;
  let pending: { through: number; done: Promise<void> } | undefined;
  return {
    current: () => version,
    live: () => live && !closed,
    wrote() {
      writes += 1;
    },
    behind: () => countedThrough < writes,
    async catchUp() {
      const through = writes;
      if (countedThrough >= through) return;
      // Requests that wait together share one round trip, if it was sent after their write was answered.
      if (!pending || pending.through < through) {
        const done = listening.sync().then(() => {
          countedThrough = Math.max(countedThrough, through);
        });
        const current = { through, done };
        pending = current;
        void done
          .finally(() => {
            if (pending === current) pending = undefined;
          })
          .catch(() => undefined);
      }
      await pending.done;
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
