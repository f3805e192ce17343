import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentVersion, startContentVersion } from "~/modules/content/content-version.server";
import { createTestDatabase, drivers, type TestDatabase } from "../tests/support/database";
import { recordingLogger } from "../tests/support/logger";
import { createPageCache } from "./page-cache";

// Which answered requests the page cache counts as writes, that the next kept page waits for (see catchUp).
describe.each(drivers)("the page cache's count of writes (%s)", (driver) => {
  let database: TestDatabase;
  let contentVersion: ContentVersion;
  let server: http.Server;
  let url: string;
  /** Resolvers of the requests the app is answering, by path, told once each response has closed. */
  const closed = new Map<string, () => void>();

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
    // The app behind the cache answers every request alike: what is tested is what the cache counts.
    const app = express();
    app.use((req, res) => {
      // Registered after the cache's own listener, so it runs after it.
      res.once("close", () => closed.get(req.originalUrl)?.());
      res.json({ ok: true });
    });
    server = http.createServer(pageCache.serve(app));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await contentVersion?.close();
    await database?.close();
  });

  /** Sends a request and resolves once the server is done with it. */
  async function send(method: string, path: string) {
    const done = new Promise<void>((resolve) => closed.set(path, resolve));
    const response = await fetch(`${url}${path}`, { method, body: method === "GET" ? undefined : "{}" });
    expect(response.status).toBe(200);
    await done;
  }

  it("does not count the cart's quote, however its path is spelled, and counts other POSTs", async () => {
    expect(contentVersion.behind()).toBe(false);
    for (const path of [
      "/api/cart/quote",
      "/API/Cart/Quote/",
      "/api/cart/%71uote?x=1",
      "/api/cart/quote.data",
    ]) {
      await send("POST", path);
      expect(contentVersion.behind()).toBe(false);
    }
    await send("POST", "/api/cart/quotes");
    expect(contentVersion.behind()).toBe(true);
    await contentVersion.catchUp();
    expect(contentVersion.behind()).toBe(false);
    await send("DELETE", "/api/storage/v0/b/uploads/o/x");
    expect(contentVersion.behind()).toBe(true);
  });
});
