/**
 * Attacks on the full-page cache: getting a page made for one request (a forged address, a session, an odd query,
 * another spelling of a personal address) kept and served to every visitor, or filling the cache's memory.
 */
import { randomInt } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { isPersonalPath } from "~/lib/page-caching";
import { HOSTILE_SPELLINGS, routeSamples, spellingsOf } from "../../tests/support/route-spellings";
import type { Attack, AttackKit } from "./kit";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * A request as sent, Host included (fetch will not forge it), recorded like every other request of an attack.
 * `verbatim` sends the path exactly as written, which a URL would have normalized (`/user/../admin`).
 */
function raw(
  kit: AttackKit,
  path: string,
  headers: Record<string, string> = {},
  { verbatim = false } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { headers, agent: false, ...(verbatim ? { path } : {}) };
    const request = http.request(`${kit.baseURL}${verbatim ? "" : path}`, options, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => {
        kit.sent.push({ method: "GET", url: path, status: response.statusCode ?? 0 });
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    request.on("error", reject);
    request.end();
  });
}

/** A demo product sold in variants (devices x years). */
const VARIANT_PRODUCT = "/antivirus/bitdefender/total-security";

const fresh = (path: string) => `${path}?attack=${randomInt(1e12)}`;

export const pageCacheAttacks: Attack[] = [
  {
    name: "poison the page cache with a forged Host, X-Forwarded-Host or X-Forwarded-Proto, so visitors get the attacker's links",
    async run(kit) {
      const forgeries: Array<Record<string, string>> = [
        { host: "evil.example" },
        { "x-forwarded-host": "evil.example" },
        { "x-forwarded-host": "evil.example, 127.0.0.1" },
        { "x-forwarded-proto": "https" },
        { "x-forwarded-proto": "javascript" },
        { forwarded: "host=evil.example;proto=https" },
        { host: new URL(kit.baseURL).host.toUpperCase() },
      ];
      for (const path of ["/", "/about", "/antivirus/mcafee", fresh("/antivirus/norton")]) {
        for (const headers of forgeries) {
          // Twice: a page kept by the first would be served by the second.
          for (let n = 0; n < 2; n++) {
            const forged = await raw(kit, path, headers);
            kit.refused(
              forged.status < 500,
              `${path} with ${JSON.stringify(headers)} answered ${forged.status}`,
            );
          }
          const visitor = await raw(kit, path);
          kit.refused(visitor.status === 200, `${path} answered ${visitor.status} after a forged request`);
          kit.refused(
            !visitor.body.includes("evil.example") && !visitor.body.includes("https://127.0.0.1"),
            `${path} kept what was made for ${JSON.stringify(headers)}`,
          );
        }
      }
    },
  },
  {
    name: "fill the page cache from a signed-in request, or read what it keeps with a forged session cookie",
    async run(kit) {
      const customer = await kit.signUp();
      for (const cookie of [
        customer.cookie,
        "storefront.session_token=forged.value",
        "__Secure-storefront.session_token=forged.value",
        `other=1; storefront.session_token=${"a".repeat(64)}`,
      ]) {
        const path = fresh("/antivirus/kaspersky");
        const withSession = await raw(kit, path, { cookie });
        kit.refused(
          withSession.headers["cache-control"] === "private, no-store",
          "a page with a session is public",
        );
        kit.refused(
          withSession.headers["x-cache"] === undefined,
          "a request with a session used the page cache",
        );
        const visitor = await raw(kit, path);
        kit.refused(visitor.headers["x-cache"] === "miss", "a request with a session filled the page cache");
        kit.refused(
          !visitor.body.includes('data-testid="user-menu-name"'),
          "a visitor got a customer's page",
        );
        const again = await raw(kit, path, { cookie });
        kit.refused(
          again.headers["x-cache"] === undefined,
          "a request with a session was answered from the cache",
        );
      }
    },
  },
  {
    name: "push the store's pages out of the page cache, or grow it, with odd and huge query strings and made-up variants",
    async run(kit) {
      await raw(kit, "/");
      const before = await raw(kit, "/");
      kit.refused(before.headers["x-cache"] === "hit", "the home page was not kept");
      const odd = [
        "/?%00",
        "/?a=%3Cscript%3Ealert(1)%3C/script%3E",
        "/?a[]=1&a[]=2",
        "/?%E0%A4%A",
        `/?${"&".repeat(500)}`,
        "/?utm_source=x#fragment",
        `/about?q=${"x".repeat(900)}`,
        `/about?q=${"x".repeat(6000)}`,
        `/about?q=${"x".repeat(20000)}`,
        // A product page's variant is chosen by its SKU: a made-up one is a 404 that shows the product.
        `${VARIANT_PRODUCT}?variant=%3Cscript%3Ealert(1)%3C/script%3E`,
        `${VARIANT_PRODUCT}?variant=${"Z".repeat(5000)}`,
        `${VARIANT_PRODUCT}?variant=BD-TS-1D-1Y&variant=%3Cscript%3Ealert(1)%3C/script%3E`,
      ];
      for (const path of odd) {
        for (let n = 0; n < 2; n++) {
          const answer = await raw(kit, path);
          kit.refused(answer.status < 500, `${path.slice(0, 60)} answered ${answer.status}`);
          kit.refused(
            !answer.body.includes("<script>alert(1)"),
            `${path.slice(0, 60)} echoed its query as markup`,
          );
          if (path.length > 2000) kit.refused(answer.headers["x-cache"] !== "hit", "a huge address was kept");
        }
      }
      // Within the minute a page is kept (whatever this machine's speed): the home page stays while the crawl goes on.
      await raw(kit, "/");
      const until = Date.now() + 15_000;
      for (let n = 0; n < 300 && Date.now() < until; n++) {
        await raw(
          kit,
          n % 2 ? `/about?crawl=${randomInt(1e12)}` : `${VARIANT_PRODUCT}?variant=X-${randomInt(1e12)}`,
        );
      }
      const after = await raw(kit, "/");
      kit.refused(
        after.headers["x-cache"] === "hit",
        "made-up addresses pushed the home page out of the cache",
      );
      kit.refused(after.body === before.body, "the home page changed under odd queries");
      const health = (await (await kit.send("/healthz")).json()) as {
        pageCache?: { bytes: number; maxBytes: number };
      };
      kit.refused(
        health.pageCache !== undefined && health.pageCache.bytes <= health.pageCache.maxBytes,
        `the page cache holds ${health.pageCache?.bytes} bytes, over its ${health.pageCache?.maxBytes}`,
      );
    },
  },
  {
    name: "get a personal page (a reset link's token, the admin, checkout) answered public or kept, by spelling its address otherwise",
    async run(kit) {
      const personal = routeSamples()
        .map((sample) => sample.path)
        .filter((path) => isPersonalPath(path));
      const spellings = [
        ...personal.flatMap(spellingsOf),
        ...spellingsOf("/user/reset-password?token=attack-token"),
        ...HOSTILE_SPELLINGS.map(({ spelling }) => spelling),
      ];
      for (const path of spellings) {
        // Twice: a page the first request left in the store's cache would be the second's hit.
        for (let n = 0; n < 2; n++) {
          const answer = await raw(kit, path, {}, { verbatim: true });
          kit.refused(answer.status < 500, `${path} answered ${answer.status}`);
          kit.refused(
            !/(?:^|,)\s*public\s*(?:,|$)/i.test(String(answer.headers["cache-control"] ?? "")),
            `${path} was answered ${answer.headers["cache-control"]}`,
          );
          kit.refused(answer.headers["x-cache"] !== "hit", `${path} was served from the page cache`);
        }
      }
      // What the router cannot read is refused, never a server error, however it is written.
      for (const path of ["/%E0%A4%A", "/%00", "/%75ser/%", "/api/cart/%C0%AF", "/%2575ser/login%00"]) {
        const answer = await raw(kit, path, {}, { verbatim: true });
        kit.refused(answer.status === 400, `${path} answered ${answer.status}, not 400`);
      }
    },
  },
  {
    name: "hang a script or page for every visitor, by asking for it on many connections and leaving while they wait",
    async run(kit) {
      const home = await raw(kit, "/");
      const scripts = JSON.parse(/const preloads=(\[[^\]]*\])/.exec(home.body)?.[1] ?? "[]") as string[];
      kit.refused(scripts.length > 0, "the home page names no scripts to load after its first paint");
      const { hostname, port } = new URL(kit.baseURL);
      const targets = [...scripts.slice(0, 4), "/", "/antivirus/mcafee"];
      for (let round = 0; round < 20; round++) {
        for (const path of targets) {
          // Requests for an address being answered wait behind the first: half leave at once, the rest 30 ms later.
          const sockets = Array.from({ length: 24 }, (_, n) => {
            const socket = net.connect(Number(port), hostname);
            socket.on("error", () => undefined);
            socket.write(
              `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept-Encoding: br, gzip\r\n\r\n`,
            );
            if (n % 2 === 1) setTimeout(() => socket.destroy(), randomInt(3));
            return socket;
          });
          await sleep(30);
          for (const socket of sockets) socket.destroy();
        }
        for (const path of targets) {
          const answered = await Promise.race([
            raw(kit, path).then((answer) => answer.status),
            sleep(5000, 0),
          ]);
          kit.refused(
            answered === 200,
            `${path} was ${answered ? `answered ${answered}` : "not answered in 5 s"} after clients left while waiting for it`,
          );
        }
      }
    },
  },
];
