import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { afterAll, beforeAll } from "vitest";
import { type ContentVersion, startContentVersion } from "~/modules/content/content-version.server";
import { createPageCache } from "../../server/page-cache";
import { createTestDatabase, type Driver, type TestDatabase } from "./database";
import { recordingLogger } from "./logger";

/**
 * The page cache (server/page-cache.ts) in front of `app`, on a free port for the tests of one block, with the content
 * version of a fresh database; `port()`, `server()` and `contentVersion()` are known once they start.
 */
export function pageCacheServerFor(driver: Driver, app: Express) {
  let database: TestDatabase;
  let contentVersion: ContentVersion;
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    const { logger } = recordingLogger();
    contentVersion = await startContentVersion(database, logger);
    const pageCache = createPageCache({
      enabled: true,
      maxBytes: 1024 * 1024,
      contentVersion,
      env: { PUBLIC_URL: "http://localhost:3000", PUBLIC_URL_SET: false },
      logger,
    });
    server = http.createServer(pageCache.serve(app));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await contentVersion?.close();
    await database?.close();
  });
  return { port: () => port, server: () => server, contentVersion: () => contentVersion };
}
