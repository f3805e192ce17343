import { z } from "zod";
import type { DatabaseHandle } from "~db/client.server";
import type { Logger } from "~/lib/logger.server";

/** The channel the database triggers announce user changes on (see migration 0005). */
export const USER_CHANNEL = "user_changes";

const changeSchema = z.object({
  table: z.enum(["user", "orders"]),
  op: z.enum(["INSERT", "UPDATE", "DELETE"]),
  id: z.string().min(1),
});

export type UserChange =
  | ({ type: "change" } & z.infer<typeof changeSchema>)
  /** Notifications may have been missed (the LISTEN connection was lost): read the record again. */
  | { type: "resync" }
  /** The server is stopping: end the stream. */
  | { type: "closing" };

export type UserListener = (change: UserChange) => void;

export type UserEvents = {
  subscribe(uid: string, listener: UserListener): () => void;
  /** Whether notifications arrive now (false between a lost LISTEN connection and its reconnection). */
  listening(): boolean;
  /** Ends every subscription (so open event streams let the server stop) and stops listening. */
  close(): Promise<void>;
};

/**
 * Fans the database's user notifications out to this process's subscribers, by user id. Every process
 * LISTENs for itself, so a change written by any process (or by hand in psql) reaches every open page.
 */
export async function startUserEvents(
  database: Pick<DatabaseHandle, "listen">,
  logger: Logger,
): Promise<UserEvents> {
  const listeners = new Map<string, Set<UserListener>>();
  const emit = (uid: string, change: UserChange) => {
    for (const listener of listeners.get(uid) ?? []) {
      try {
        listener(change);
      } catch (error) {
        logger.error({ err: error }, "a user-change listener failed");
      }
    }
  };
  let listening = true;
  const subscription = await database.listen(USER_CHANNEL, {
    onMessage(payload) {
      let parsed;
      try {
        parsed = changeSchema.safeParse(JSON.parse(payload));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        logger.warn({ payload: payload.slice(0, 200) }, "ignored a malformed user notification");
        return;
      }
      emit(parsed.data.id, { type: "change", ...parsed.data });
    },
    onError(error) {
      listening = false;
      logger.warn({ err: error.message }, "lost the user-change LISTEN connection; reconnecting");
    },
    onReconnect() {
      listening = true;
      logger.info("listening for user changes again");
      for (const uid of listeners.keys()) emit(uid, { type: "resync" });
    },
  });
  let closed = false;
  return {
    listening: () => listening && !closed,
    subscribe(uid, listener) {
      if (closed) {
        queueMicrotask(() => listener({ type: "closing" }));
        return () => {};
      }
      let set = listeners.get(uid);
      if (!set) listeners.set(uid, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(uid) === set) listeners.delete(uid);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const uid of [...listeners.keys()]) emit(uid, { type: "closing" });
      listeners.clear();
      await subscription.stop();
    },
  };
}
