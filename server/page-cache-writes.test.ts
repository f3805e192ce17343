import express from "express";
import { describe, expect, it } from "vitest";
import { drivers } from "../tests/support/database";
import { pageCacheServerFor } from "../tests/support/page-cache-server";

// Which answered requests the page cache counts as writes, that the next kept page waits for (see catchUp).
describe.each(drivers)("the page cache's count of writes (%s)", (driver) => {
  /** Resolvers of the requests the app is answering, by path, told once each response has closed. */
  const closed = new Map<string, () => void>();
  // The app behind the cache answers every request alike: what is tested is what the cache counts.
  const app = express();
  app.use((req, res) => {
    // Registered after the cache's own listener, so it runs after it.
    res.once("close", () => closed.get(req.originalUrl)?.());
    res.json({ ok: true });
  });
  const store = pageCacheServerFor(driver, app);

  /** Sends a request and resolves once the server is done with it. */
  async function send(method: string, path: string) {
    const done = new Promise<void>((resolve) => closed.set(path, resolve));
    const response = await fetch(`http://127.0.0.1:${store.port()}${path}`, {
      method,
      body: method === "GET" ? undefined : "{}",
    });
    expect(response.status).toBe(200);
    await done;
  }

  it("does not count the cart's quote, however its path is spelled, and counts other POSTs", async () => {
    const contentVersion = store.contentVersion();
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
