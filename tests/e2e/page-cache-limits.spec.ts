import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { childrenOf, rawRequest, ready, startStore, stopStore } from "./store-process";

// The full-page cache's bounds and switch, on servers of their own (embedded database).

const productRoutes = () =>
  [...readFileSync("db/seed/data/catalogue.json", "utf8").matchAll(/"route": "([^"]+)"/g)].map(
    (match) => match[1]!,
  );

test("the cache keeps within its bytes, and made-up addresses cannot push the store's pages out", async ({
  baseURL,
}) => {
  test.setTimeout(240_000);
  const port = Number(new URL(baseURL!).port) + 66;
  // The embedded database is one process's, whatever is asked.
  const store = startStore(port, { PAGE_CACHE_MAX_MB: "1", WEB_CONCURRENCY: "4", LOG_LEVEL: "info" });
  try {
    await ready(store);
    expect(childrenOf(store.child.pid!)).toEqual([]);
    expect(store.output()).toContain(
      "WEB_CONCURRENCY=4 asks for several processes, but the embedded database",
    );

    const routes = productRoutes().slice(0, 40);
    for (const route of routes) expect((await rawRequest(`${store.url}${route}`)).status).toBe(200);
    const health = (await (await fetch(`${store.url}/healthz`)).json()) as {
      pageCache: { entries: number; bytes: number; maxBytes: number };
    };
    expect(health.pageCache.maxBytes).toBe(1024 * 1024);
    expect(health.pageCache.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(health.pageCache.entries).toBeGreaterThan(3);
    expect(health.pageCache.entries).toBeLessThan(routes.length);
    // The least recently used went first.
    expect((await rawRequest(`${store.url}${routes.at(-1)}`)).headers["x-cache"]).toBe("hit");
    expect((await rawRequest(`${store.url}${routes[0]}`)).headers["x-cache"]).toBe("miss");

    // A crawler of random query strings, spellings and host names churns a small part of its own.
    const home = `${store.url}/`;
    await rawRequest(home);
    expect((await rawRequest(home)).headers["x-cache"]).toBe("hit");
    // Well within the minute a page is kept, however busy the machine: far more than the small part holds.
    const until = Date.now() + 20_000;
    for (let n = 0; n < 30 && Date.now() < until; n++) {
      const made = await rawRequest(`${store.url}/about?crawl=${n}`);
      expect(made.headers["x-cache"]).toBe("miss");
      await rawRequest(`${store.url}/ABOUT/${n % 2 ? "" : "?x"}`);
    }
    expect((await rawRequest(home)).headers["x-cache"]).toBe("hit");

    // An address too long to keep is answered, never kept.
    const long = `${store.url}/about?q=${"x".repeat(4000)}`;
    for (let n = 0; n < 2; n++) {
      const answer = await rawRequest(long);
      expect(answer.status).toBe(200);
      expect(answer.headers["x-cache"]).toBeUndefined();
    }
  } finally {
    expect(await stopStore(store)).toBe(0);
  }
});

test("PAGE_CACHE=off renders every page, still the same for every visitor", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const port = Number(new URL(baseURL!).port) + 67;
  const store = startStore(port, { PAGE_CACHE: "off" });
  try {
    await ready(store);
    const answers = [await rawRequest(`${store.url}/`), await rawRequest(`${store.url}/`)];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers["x-cache"]).toBeUndefined();
      expect(answer.headers["cache-control"]).toBe(
        "public, max-age=0, s-maxage=60, stale-while-revalidate=30",
      );
      expect(answer.body.toString()).not.toMatch(/nonce=/);
    }
    expect(answers[0]!.body.equals(answers[1]!.body)).toBe(true);
    const health = (await (await fetch(`${store.url}/healthz`)).json()) as { pageCache: { entries: number } };
    expect(health.pageCache.entries).toBe(0);
  } finally {
    expect(await stopStore(store)).toBe(0);
  }
});
