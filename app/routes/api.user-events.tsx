import { getViewer } from "~/modules/accounts/session.server";
import { getUserRecord } from "~/modules/accounts/user-record.server";
import type { UserChange } from "~/modules/accounts/user-events.server";
import type { Route } from "./+types/api.user-events";

/** A comment line now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;

const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform: the compression middleware leaves the stream alone (it would hold events back).
  "Cache-Control": "no-cache, no-transform, private",
  "X-Accel-Buffering": "no",
};

const frame = (event: string, payload: unknown) => `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;

/**
 * The signed-in user's record, live (server-sent events): `user` with the current record at once and after every
 * change, `gone` when the record no longer exists, `signed-out` when the session has ended.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const encoder = new TextEncoder();
  if (!viewer) {
    return new Response(`retry: 60000\n${frame("signed-out", {})}`, { headers: HEADERS });
  }
  const uid = viewer.id;
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      let queue = Promise.resolve();
      const close = () => {
        if (!open) return;
        open = false;
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      const send = (text: string) => {
        if (open) controller.enqueue(encoder.encode(text));
      };
      // Reads the record and the session again; one read at a time, in order.
      const refresh = () => {
        queue = queue.then(async () => {
          if (!open) return;
          try {
            const record = await getUserRecord(context.db, uid);
            if (!record) {
              send(frame("gone", { uid }));
              return close();
            }
            const still = await getViewer(request, context);
            if (still?.id !== uid) {
              send(frame("signed-out", {}));
              return close();
            }
            send(frame("user", record));
          } catch (error) {
            context.logger.error({ err: error, uid }, "could not push the user record");
          }
        });
      };
      const unsubscribe = context.userEvents.subscribe(uid, (change: UserChange) => {
        if (change.type === "closing") {
          send("retry: 5000\n\n");
          close();
        } else if (change.type === "change" && change.table === "user" && change.op === "DELETE") {
          send(frame("gone", { uid }));
          close();
        } else refresh();
      });
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        unsubscribe();
        clearInterval(heartbeat);
        request.signal.removeEventListener("abort", close);
      };
      request.signal.addEventListener("abort", close);
      send("retry: 3000\n\n");
      refresh();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: HEADERS });
}
