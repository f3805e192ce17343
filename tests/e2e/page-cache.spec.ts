import { randomInt } from "node:crypto";
import zlib from "node:zlib";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { ADMIN_EMAIL, adminPassword, freshAdminAddress } from "./admin";
import { hydrated } from "./hydrated";
import { rawRequest, type RawAnswer, savePhone } from "./store-process";

// The full-page cache of the end-to-end server (embedded database, PUBLIC_URL set): see
// docs/decisions/0020-full-page-cache.md.

/** An address nobody asked for yet in this run (a query string the page ignores), so its first answer is a miss. */
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

async function adminCookie(baseURL: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL, "x-forwarded-for": freshAdminAddress() },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: adminPassword(baseURL) }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

/** The phone every page's header shows, as the visitor's page has it. */
async function shownPhone(baseURL: string) {
  const html = (await rawRequest(`${baseURL}/contact`)).body.toString();
  const match = /href="tel:([^"]+)"[^>]*data-testid="company-phone"[^>]*>(?:<[^>]+>)*([^<]+)</.exec(html);
  if (!match) throw new Error("no company phone in the page");
  return { international: match[1]!, local: match[2]!.trim() };
}

test("a kept page is the page rendered for it, byte for byte, in every encoding, with its ETag and HEAD", async ({
  baseURL,
}) => {
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
  expect(zlib.brotliDecompressSync(br.body).equals(miss.body)).toBe(true);
  const gzip = await rawRequest(url, { headers: { "accept-encoding": "gzip" } });
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(zlib.gunzipSync(gzip.body).equals(miss.body)).toBe(true);
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

test("a visitor with a session never gets a kept page and never fills the cache", async ({ baseURL }) => {
  const cookie = await adminCookie(baseURL!);
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

test("personal pages are never kept, and say so to shared caches", async ({ baseURL }) => {
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

test("an admin's edit shows on the very next visitor's request", async ({ baseURL }) => {
  const cookie = await adminCookie(baseURL!);
  const original = await shownPhone(baseURL!);
  const home = `${baseURL}/`;
  await rawRequest(home);
  expect((await rawRequest(home)).headers["x-cache"]).toBe("hit");
  try {
    await savePhone(baseURL!, cookie, "(212) 555-0142", "+12125550142");
    const next = await rawRequest(home);
    expect(next.headers["x-cache"]).toBe("miss");
    expect(next.body.toString()).toContain("(212) 555-0142");
    expect((await rawRequest(home)).headers["x-cache"]).toBe("hit");
  } finally {
    await savePhone(baseURL!, cookie, original.local, original.international);
  }
  expect((await rawRequest(home)).body.toString()).toContain(original.local);
});

/** Every message the browser logs as an error, and every page error (a refused inline script is both). */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function adminPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await context.addCookies(
    (await adminCookie(baseURL)).split("; ").map((pair) => {
      const [name, value] = pair.split("=") as [string, string];
      return { name, value, url: baseURL };
    }),
  );
  return context;
}

test("a visitor's kept page runs its scripts under its policy and shows an admin's edit at once", async ({
  page,
  browser,
  baseURL,
}) => {
  const errors = watchErrors(page);
  const original = await shownPhone(baseURL!);
  await page.goto("/antivirus/kaspersky");
  const second = await page.goto("/antivirus/kaspersky");
  expect(second?.headers()["x-cache"]).toBe("hit");
  await hydrated(page);
  // React has taken over: a link navigates in the page, without loading another document.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const link = page.getByRole("navigation", { name: "Sections" }).getByRole("link").last();
  const href = (await link.getAttribute("href"))!;
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );

  const admin = await adminPage(browser, baseURL!);
  try {
    await savePhone(
      baseURL!,
      (await admin.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
      "(212) 555-0163",
      "+12125550163",
    );
    const reloaded = await page.goto("/antivirus/kaspersky");
    expect(reloaded?.headers()["x-cache"]).toBe("miss");
    await expect(page.getByTestId("site-header").getByTestId("company-phone").first()).toContainText(
      "(212) 555-0163",
    );
    await hydrated(page);
    const kept = await page.goto("/antivirus/kaspersky");
    expect(kept?.headers()["x-cache"]).toBe("hit");
    await hydrated(page);
  } finally {
    await savePhone(
      baseURL!,
      (await admin.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
      original.local,
      original.international,
    );
    await admin.close();
  }
  expect(errors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  expect(errors).toEqual([]);
});
