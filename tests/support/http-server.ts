import { once } from "node:events";
import type { RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS } from "~/lib/env.server";
import { createHttpServer } from "../../server/http-server";

type Limits = Parameters<typeof createHttpServer>[1];

/**
 * The store's HTTP server (server/http-server.ts) around `app` on a free port for the tests of one block; `port()` is
 * known once they start. Idle connections are kept as the store keeps them unless `limits` says otherwise.
 */
export function serverFor(
  app: RequestListener,
  limits: Omit<Limits, "KEEP_ALIVE_TIMEOUT_SECONDS"> & Partial<Limits>,
) {
  let server: ReturnType<typeof createHttpServer>;
  let port = 0;
  beforeAll(async () => {
    server = createHttpServer(app, {
      KEEP_ALIVE_TIMEOUT_SECONDS: DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS,
      ...limits,
    });
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
