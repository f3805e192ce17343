import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import {
  adminSession,
  childrenOf,
  freshDatabase,
  rawRequest,
  ready,
  savePhone,
  startStore,
  stopStore,
  type StoreProcess,
} from "./store-process";

// The full-page cache and the processes of a store on PostgreSQL, on servers of their own (a database each).

const phoneIn = (html: string) =>
  /data-testid="company-phone"[^>]*>(?:<[^>]+>)*([^<]+)</.exec(html)?.[1]?.trim();

test("an admin's edit shows on the very next visitor's request, in the same process and in another one", async ({
  baseURL,
}) => {
  test.setTimeout(240_000);
  const port = Number(new URL(baseURL!).port) + 60;
  const databaseUrl = await freshDatabase(`storefront_cache_${port}`);
  const stores: StoreProcess[] = [];
  try {
    // Two servers of one process each on one database, as behind a load balancer.
    const first = startStore(port, { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1" });
    stores.push(first);
    await ready(first);
    const second = startStore(port + 1, { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1" });
    stores.push(second);
    await ready(second);
    const cookie = await adminSession(first, databaseUrl);

    for (let round = 0; round < 5; round++) {
      const phone = `(212) 555-01${String(50 + round).padStart(2, "0")}`;
      for (const store of stores) {
        await rawRequest(`${store.url}/`);
        expect((await rawRequest(`${store.url}/`)).headers["x-cache"]).toBe("hit");
      }
      // Written through the first: the next request to either shows it.
      await savePhone(first.url, cookie, phone, `+1212555${phone.slice(-4)}`);
      for (const store of stores)
        expect(phoneIn((await rawRequest(`${store.url}/`)).body.toString())).toBe(phone);
    }
  } finally {
    for (const store of stores) expect(await stopStore(store)).toBe(0);
  }
});

test("WEB_CONCURRENCY=2 serves from two processes, replaces one that dies, and SIGTERM stops them all", async ({
  baseURL,
}) => {
  test.setTimeout(240_000);
  const port = Number(new URL(baseURL!).port) + 62;
  const databaseUrl = await freshDatabase(`storefront_cluster_${port}`);
  const store = startStore(port, { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "2", LOG_LEVEL: "info" });
  try {
    await ready(store);
    const primary = store.child.pid!;
    // Ready once both listen.
    await expect
      .poll(() => store.output(), { timeout: 60_000 })
      .toContain(`(database: PostgreSQL, 2 processes, Node ${process.versions.node})`);
    expect(childrenOf(primary)).toHaveLength(2);

    // A page that is answered but not kept (a page-not-found) is compressed in the process that rendered it, the
    // way the client asked, and its length said.
    const missing = `${store.url}/no-such-page-${Date.now()}`;
    const plain = await rawRequest(missing);
    expect(plain.status).toBe(404);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("</html>");
    for (const [encoding, decode] of [
      ["gzip", gunzipSync],
      ["br", brotliDecompressSync],
    ] as const) {
      const answer = await rawRequest(missing, { headers: { "accept-encoding": `${encoding}, identity` } });
      expect(answer.status, encoding).toBe(404);
      expect(answer.headers["content-encoding"], encoding).toBe(encoding);
      expect(answer.headers["content-length"], encoding).toBe(String(answer.body.length));
      expect(decode(answer.body).toString(), encoding).toBe(plain.body.toString());
    }

    // Each process keeps its own pages: a new address is rendered once by each before both answer it from memory.
    const url = `${store.url}/about?cluster=${Date.now()}`;
    const outcomes: string[] = [];
    for (let n = 0; n < 6; n++) outcomes.push(String((await rawRequest(url)).headers["x-cache"]));
    expect(outcomes.filter((outcome) => outcome === "miss")).toHaveLength(2);
    expect(outcomes.slice(2)).toEqual(["hit", "hit", "hit", "hit"]);

    // A process that dies is replaced, and the store serves on meanwhile.
    const [killed, survivor] = childrenOf(primary) as [number, number];
    process.kill(killed, "SIGKILL");
    await expect
      .poll(() => childrenOf(primary).filter((pid) => pid !== killed && pid !== survivor).length, {
        timeout: 60_000,
      })
      .toBe(1);
    await expect.poll(async () => (await rawRequest(`${store.url}/`)).status, { timeout: 60_000 }).toBe(200);
    expect(store.output()).toContain("a server process ended: starting another");

    const workers = childrenOf(primary);
    store.child.kill("SIGTERM");
    expect(await store.exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    await expect(rawRequest(`${store.url}/`)).rejects.toThrow();
  } finally {
    await stopStore(store);
  }
});
