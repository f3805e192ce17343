import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { brotliDecompressSync, constants, deflateRawSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession } from "../support/store-admin";
import {
  childrenOf,
  type E2EStore,
  e2eAdminPassword,
  freePort,
  freshClientAddress,
  rawRequest,
  type RawAnswer,
  ready,
  savePhone,
  shownPhone,
  signIn,
  startE2EStore,
  startStore,
  stopStore,
  type StoreProcess,
  waitFor,
} from "../support/store-process";
import { createTestDatabase } from "../support/database";
import { startTcpRelay } from "../support/tcp-relay";
import { checkoutForm } from "../../scripts/attacks/kit";
import { HEARD_WITHIN_MS } from "~/modules/content/content-version.server";

// The full-page cache (docs/decisions/0020-full-page-cache.md) of the production build: on the end-to-end store
// (embedded database, PUBLIC_URL set), on servers of its own for its bounds and its switch, and on PostgreSQL with
// several processes.

/** An address nobody asked for yet (a query string the page ignores), so its first answer is a miss. */
const fresh = (path: string) => `${path}?fresh=${Date.now().toString(36)}${randomInt(1e9)}`;

/** The headers of an answer but those of its moment (date) and of the cache's own report (x-cache). */
const lasting = (answer: RawAnswer) => {
  const {
    date: _date,
    "x-cache": _cache,
    connection: _connection,
    "keep-alive": _keepAlive,
    ...rest
  } = answer.headers;
  return rest;
};

describe("the page cache of the end-to-end store", () => {
  let store: E2EStore;
  let baseURL: string;
  const adminCookie = () => signIn(baseURL, "admin@example.com", e2eAdminPassword(baseURL));
  beforeAll(async () => {
    store = await startE2EStore(await freePort(), "pglite");
    baseURL = store.url;
  }, 180_000);
  afterAll(async () => {
    expect(await store.stop()).toBe(0);
  });

  it("keeps the page rendered for an address, byte for byte, in every encoding, with its ETag and HEAD", async () => {
    const url = `${baseURL}${fresh("/antivirus/mcafee")}`;
    const miss = await rawRequest(url);
    expect(miss.status).toBe(200);
    expect(miss.headers["x-cache"]).toBe("miss");
    expect(miss.headers["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=30");
    expect(miss.headers["vary"]).toBe("Accept-Encoding, Cookie");
    // The same for every visitor: no nonce in the page, each inline script allowed by its hash.
    const html = miss.body.toString();
    expect(html).toContain("McAfee");
    expect(html).not.toMatch(/nonce=/);
    const policy = String(miss.headers["content-security-policy"]);
    expect(policy).not.toContain("'nonce-");
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/);

    const hit = await rawRequest(url);
    expect(hit.headers["x-cache"]).toBe("hit");
    expect(hit.body.equals(miss.body)).toBe(true);
    expect(lasting(hit)).toEqual(lasting(miss));
    // The security headers of a page rendered afresh (helmet's), on the kept one too.
    for (const name of [
      "x-frame-options",
      "x-content-type-options",
      "referrer-policy",
      "cross-origin-opener-policy",
    ])
      expect(hit.headers[name]).toBeTruthy();

    // Compressed once when kept: each encoding decodes to the same page.
    const br = await rawRequest(url, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(miss.body)).toBe(true);
    const gzip = await rawRequest(url, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(miss.body)).toBe(true);
    expect(gzip.headers.etag).toBe(miss.headers.etag);

    // A browser that has the page asks with its ETag and gets 304 without a body; another ETag gets the page.
    const again = await rawRequest(url, { headers: { "if-none-match": String(miss.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(miss.headers.etag);
    const other = await rawRequest(url, { headers: { "if-none-match": 'W/"something-else"' } });
    expect(other.status).toBe(200);
    expect(other.body.equals(miss.body)).toBe(true);

    // HEAD: the headers of the GET without a body, on a miss (which keeps the page) and on a hit.
    const headUrl = `${baseURL}${fresh("/about")}`;
    const headMiss = await rawRequest(headUrl, { method: "HEAD" });
    expect(headMiss.status).toBe(200);
    expect(headMiss.headers["x-cache"]).toBe("miss");
    expect(headMiss.body.length).toBe(0);
    const get = await rawRequest(headUrl);
    expect(get.headers["x-cache"]).toBe("hit");
    expect(Number(headMiss.headers["content-length"])).toBe(get.body.length);
    const headHit = await rawRequest(headUrl, { method: "HEAD" });
    expect(headHit.headers["x-cache"]).toBe("hit");
    expect(headHit.body.length).toBe(0);
    expect(lasting(headHit)).toEqual(lasting(headMiss));
  });

  it("sends a page made for one request in gzip, its stylesheet compressed once, and brotli only to who takes nothing else", async () => {
    // A page-not-found is answered, never kept: each one is rendered for its request.
    const missing = `${baseURL}/no-such-page-${Date.now()}`;
    const plain = await rawRequest(missing);
    expect(plain.status).toBe(404);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const html = plain.body.toString();
    const stylesheet = Buffer.from(
      html.slice(html.indexOf("<style>") + "<style>".length, html.indexOf("</style>")),
    );
    expect(stylesheet.length).toBeGreaterThan(10_000);
    // The stylesheet itself, where React wrote a stand-in for it (app/entry.server.tsx).
    expect(stylesheet.toString()).not.toContain("the store's stylesheet");
    const compressedOnce = deflateRawSync(stylesheet, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });

    // A browser takes both: gzip, with the stylesheet as it was compressed at the start.
    const browser = await rawRequest(missing, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
    expect(browser.status).toBe(404);
    expect(browser.headers["content-encoding"]).toBe("gzip");
    expect(Number(browser.headers["content-length"])).toBe(browser.body.length);
    expect(browser.body.includes(compressedOnce)).toBe(true);
    expect(gunzipSync(browser.body).toString()).toBe(html);

    const brotliOnly = await rawRequest(missing, { headers: { "accept-encoding": "br" } });
    expect(brotliOnly.headers["content-encoding"]).toBe("br");
    expect(Number(brotliOnly.headers["content-length"])).toBe(brotliOnly.body.length);
    expect(brotliDecompressSync(brotliOnly.body).toString()).toBe(html);

    // HEAD: the GET's headers, without its body.
    const head = await rawRequest(missing, { method: "HEAD", headers: { "accept-encoding": "gzip, br" } });
    expect(head.status).toBe(404);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.headers["content-length"]).toBe(browser.headers["content-length"]);
    expect(head.body.length).toBe(0);
  });

  it("never gives a visitor with a session a kept page, nor keeps what they were shown", async () => {
    const cookie = await adminCookie();
    const url = `${baseURL}${fresh("/antivirus/norton")}`;
    const kept = await rawRequest(url);
    expect((await rawRequest(url)).headers["x-cache"]).toBe("hit");

    // Signed in: rendered for them (their menu), private, and not from the cache.
    const signedIn = await rawRequest(url, { headers: { cookie } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers["x-cache"]).toBeUndefined();
    expect(signedIn.headers["cache-control"]).toBe("private, no-store");
    expect(signedIn.body.equals(kept.body)).toBe(false);
    expect(signedIn.body.toString()).toContain('data-testid="user-menu-name"');

    // What they were shown was not kept for the next visitor.
    const second = `${baseURL}${fresh("/antivirus/norton")}`;
    await rawRequest(second, { headers: { cookie } });
    const visitor = await rawRequest(second);
    expect(visitor.headers["x-cache"]).toBe("miss");
    expect(visitor.body.toString()).not.toContain('data-testid="user-menu-name"');

    // A session cookie that is no longer valid is no different: the cache is not read or filled.
    const stale = await rawRequest(url, { headers: { cookie: "storefront.session_token=ended.session" } });
    expect(stale.headers["x-cache"]).toBeUndefined();
    expect(stale.headers["cache-control"]).toBe("private, no-store");
  });

  it("never keeps personal pages, and says so to shared caches", async () => {
    for (const path of [
      "/user/login",
      "/payment",
      "/order/lookup",
      "/admin",
      "/ADMIN",
      "/user/login?redirectTo=%2F",
    ]) {
      for (let n = 0; n < 2; n++) {
        const answer = await rawRequest(`${baseURL}${path}`);
        expect(answer.status, path).toBe(200);
        expect(answer.headers["x-cache"], path).toBeUndefined();
        expect(answer.headers["cache-control"], path).toBe("private, no-store");
      }
    }
    // A page that is not there is not kept either (each one is rendered), though a shared cache may keep it a minute.
    const missing = `${baseURL}/antivirus/no-such-brand-${randomInt(1e9)}`;
    for (let n = 0; n < 2; n++) {
      const answer = await rawRequest(missing);
      expect(answer.status).toBe(404);
      expect(answer.headers["x-cache"]).toBe("miss");
      expect(answer.body.toString()).not.toMatch(/nonce=/);
    }
  });

  it("shows an admin's edit on the very next visitor's request", async () => {
    const cookie = await adminCookie();
    const original = await shownPhone(baseURL);
    const home = `${baseURL}/`;
    await rawRequest(home);
    expect((await rawRequest(home)).headers["x-cache"]).toBe("hit");
    try {
      await savePhone(baseURL, cookie, "(212) 555-0142", "+12125550142");
      const next = await rawRequest(home);
      expect(next.headers["x-cache"]).toBe("miss");
      expect(next.body.toString()).toContain("(212) 555-0142");
      expect((await rawRequest(home)).headers["x-cache"]).toBe("hit");
    } finally {
      await savePhone(baseURL, cookie, original.local, original.international);
    }
    expect((await rawRequest(home)).body.toString()).toContain(original.local);
  });
  it("an order taking stock changes the ordered product's pages only, and the others stay kept", async () => {
    // A counted printer (20 in stock, low at 5 or fewer) on the home page's best-sellers and its brand's page.
    const ordered = `${baseURL}/printer/hp-laserjet-pro-m404n`;
    const brand = `${baseURL}/printer/hp`;
    const unrelated = [
      `${baseURL}/`,
      `${baseURL}/antivirus/mcafee`,
      `${baseURL}${productRoutes().find((route) => route.startsWith("/printer/canon"))}`,
    ];
    const kept = async (url: string) => {
      await rawRequest(url);
      expect((await rawRequest(url)).headers["x-cache"], url).toBe("hit");
    };
    const order = async (quantity: number) => {
      const response = await fetch(`${baseURL}/payment`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: baseURL,
          "x-forwarded-for": freshClientAddress(),
        },
        body: checkoutForm([{ groupKey: "hp", id: "1", quantity }]).toString(),
      });
      expect(response.status, await response.text()).toBe(302);
    };
    const availability = (html: string) => /data-testid="product-availability"[^>]*>([^<]*)</.exec(html)?.[1];
    for (const url of [ordered, brand, ...unrelated]) await kept(url);
    expect(availability((await rawRequest(ordered)).body.toString())).toBe(
      "In stock: shipped with tracking once paid",
    );

    // 19 left: the product's page counts it; no card says anything of it, so every other page stays.
    await order(1);
    const afterOne = await rawRequest(ordered);
    expect(afterOne.headers["x-cache"]).toBe("miss");
    expect(afterOne.body.toString()).toMatch(/"inStock\W+19\b/);
    for (const url of [brand, ...unrelated])
      expect((await rawRequest(url)).headers["x-cache"], url).toBe("hit");
    expect((await rawRequest(ordered)).headers["x-cache"]).toBe("hit");

    // 3 left: low stock shows on the product's page and on its cards; pages without it stay.
    await order(16);
    const afterLow = await rawRequest(ordered);
    expect(afterLow.headers["x-cache"]).toBe("miss");
    expect(availability(afterLow.body.toString())).toBe("Only 3 left: shipped with tracking once paid");
    const brandPage = await rawRequest(brand);
    expect(brandPage.headers["x-cache"]).toBe("miss");
    expect(brandPage.body.toString()).toContain("Only 3 left");
    for (const url of unrelated.slice(1)) expect((await rawRequest(url)).headers["x-cache"], url).toBe("hit");
  });
});

const productRoutes = () =>
  [...readFileSync("app/modules/seed/data/catalogue.json", "utf8").matchAll(/"route": "([^"]+)"/g)].map(
    (match) => match[1]!,
  );

it("keeps within its bytes, and made-up addresses cannot push the store's pages out", async () => {
  // The embedded database is one process's, whatever is asked.
  const store = startStore(await freePort(), {
    PAGE_CACHE_MAX_MB: "1",
    WEB_CONCURRENCY: "4",
    LOG_LEVEL: "info",
  });
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
}, 240_000);

it("PAGE_CACHE=off renders every page, still the same for every visitor", async () => {
  const store = startStore(await freePort(), { PAGE_CACHE: "off" });
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
    expect(answers[0]!.headers.etag).toBe(answers[1]!.headers.etag);
    // Each page's inline manifest names the routes it was rendered with, however the pages come in turn (React
    // Router writes it once per set of routes: patches/react-router+7.18.4.patch).
    const manifestRoutes = async (path: string) => {
      const html = (await rawRequest(`${store.url}${path}`)).body.toString();
      const manifest = /window\.__reactRouterManifest = (\{[\s\S]*?\});\n/.exec(html)?.[1];
      return Object.keys((JSON.parse(manifest ?? "null") as { routes: object }).routes);
    };
    const [home, brand] = [await manifestRoutes("/"), await manifestRoutes("/antivirus/mcafee")];
    expect(home).toEqual(["root", "home-index"]);
    expect(brand).toEqual(expect.arrayContaining(["root", "routes/catalogue-page"]));
    expect(await manifestRoutes("/search?q=norton")).toEqual(
      expect.arrayContaining(["root", "routes/search"]),
    );
    expect(await manifestRoutes("/")).toEqual(home);
    expect(await manifestRoutes("/antivirus/mcafee")).toEqual(brand);
    // A HEAD: the GET's headers, its length among them, and no body (it was Content-Length: 0).
    for (const headers of [{}, { "accept-encoding": "gzip" }] as Record<string, string>[]) {
      const [head, get] = [
        await rawRequest(`${store.url}/`, { method: "HEAD", headers }),
        await rawRequest(`${store.url}/`, { headers }),
      ];
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
      expect(head.headers["content-encoding"]).toBe(get.headers["content-encoding"]);
      expect(Number(head.headers["content-length"])).toBe(get.body.length);
    }
    const health = (await (await fetch(`${store.url}/healthz`)).json()) as { pageCache: { entries: number } };
    expect(health.pageCache.entries).toBe(0);
  } finally {
    expect(await stopStore(store)).toBe(0);
  }
}, 180_000);

const phoneIn = (html: string) =>
  /data-testid="company-phone"[^>]*>(?:<[^>]+>)*([^<]+)</.exec(html)?.[1]?.trim();

describe.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  it("an admin's edit shows on the very next visitor's request, in the same process and in another one", async () => {
    const port = await freePort();
    // The demo store on a database of its own, copied from the run's template: the store need not set it up.
    const database = await createTestDatabase("postgres", "demo");
    const databaseUrl = database.url!;
    const stores: StoreProcess[] = [];
    try {
      // Two servers of one process each on one database, as behind a load balancer.
      const first = startStore(port, { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1" });
      stores.push(first);
      await ready(first);
      const second = startStore(await freePort(), { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1" });
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
      await database.close();
    }
  }, 240_000);

  it(`another process shows an edit within ${HEARD_WITHIN_MS} ms even when the database's notifications reach it late`, async () => {
    const port = await freePort();
    // The demo store on a database of its own, copied from the run's template: the store need not set it up.
    const database = await createTestDatabase("postgres", "demo");
    const databaseUrl = database.url!;
    const target = new URL(databaseUrl);
    // The second server reaches the database through a relay that can hold back what the database sends on its
    // LISTEN connection: the notification of a change arrives late, as under a CPU that has other work first.
    const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
    const stores: StoreProcess[] = [];
    try {
      const first = startStore(port, { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1" });
      stores.push(first);
      await ready(first);
      const second = startStore(await freePort(), {
        DATABASE_URL: relay.through(databaseUrl),
        WEB_CONCURRENCY: "1",
      });
      stores.push(second);
      await ready(second);
      const cookie = await adminSession(first, databaseUrl);

      for (let round = 0; round < 2; round++) {
        const phone = `(212) 555-01${String(70 + round).padStart(2, "0")}`;
        // The page is kept once the second server hears changes (under load, the last round's lag may have had its
        // LISTEN connection taken for silent and replaced, and nothing is kept until the new one is up).
        await waitFor(async () => (await rawRequest(`${second.url}/`)).headers["x-cache"] === "hit", {
          what: "the second server to serve the home page from its cache",
          timeout: 10_000,
        });
        relay.lagListeners(400);
        await savePhone(first.url, cookie, phone, `+1212555${phone.slice(-4)}`);
        // The bound is the promise: a change this old is shown, however late its notification.
        await new Promise((resolve) => setTimeout(resolve, HEARD_WITHIN_MS));
        expect(phoneIn((await rawRequest(`${second.url}/`)).body.toString())).toBe(phone);
        relay.lagListeners(0);
      }
    } finally {
      for (const store of stores) expect(await stopStore(store)).toBe(0);
      await relay.close();
      await database.close();
    }
  }, 240_000);

  it("WEB_CONCURRENCY=2 serves from two processes, replaces one that dies, and SIGTERM stops them all", async () => {
    const port = await freePort();
    // The demo store on a database of its own, copied from the run's template: the store need not set it up.
    const database = await createTestDatabase("postgres", "demo");
    const databaseUrl = database.url!;
    const store = startStore(port, { DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "2", LOG_LEVEL: "info" });
    try {
      await ready(store);
      const primary = store.child.pid!;
      // Ready once both listen.
      await waitFor(
        () => store.output().includes(`(database: PostgreSQL, 2 processes, Node ${process.versions.node})`),
        { what: "both processes to listen" },
      );
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
      await waitFor(
        () => childrenOf(primary).filter((pid) => pid !== killed && pid !== survivor).length === 1,
        {
          what: "a new process in place of the one killed",
        },
      );
      await waitFor(async () => (await rawRequest(`${store.url}/`)).status === 200, {
        what: "the home page",
      });
      expect(store.output()).toContain("a server process ended: starting another");

      const workers = childrenOf(primary);
      store.child.kill("SIGTERM");
      expect(await store.exited).toBe(0);
      for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
      await expect(rawRequest(`${store.url}/`)).rejects.toThrow();
    } finally {
      await stopStore(store);
      await database.close();
    }
  }, 240_000);
});
