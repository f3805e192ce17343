import { once } from "node:events";
import type { RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { createHttpServer } from "../../server/http-server";

/**
 * The store's HTTP server (server/http-server.ts) around `app` on a free port for the tests of one block; `port()` is
 * known once they start.
 */
export function serverFor(app: RequestListener, env: Parameters<typeof createHttpServer>[1]) {
  let server: ReturnType<typeof createHttpServer>;
  let port = 0;
  beforeAll(async () => {
    server = createHttpServer(app, env);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: () => port };
}
