import { randomInt } from "node:crypto";
import { expect, type Page, type Route, test } from "@playwright/test";
import { adminPages, signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { addToCart } from "./cart";

const ROUTER = "/router/tplink/archer-c80";

/**
 * What Chromium's issues panel reports (Audits.issueAdded), what the page logs as an error, and every Content
 * Security Policy violation, while pages load. A page's own expected status (a 404 page) is not a problem.
 */
async function watchProblems(page: Page) {
  const problems: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Audits.issueAdded", ({ issue }) =>
    problems.push(`${page.url()}: issue ${issue.code} ${JSON.stringify(issue.details)}`),
  );
  await cdp.send("Audits.enable");
  page.on("console", (message) => {
    const notFoundPage = message.text().includes("status of 404") && message.location().url === page.url();
    if (message.type() === "error" && !notFoundPage)
      problems.push(`${page.url()}: console ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return problems;
}

/** Loads a page, waits for React, and gives late reports a moment to arrive. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
  await page.waitForLoadState("load");
  await page.waitForTimeout(250);
}

test("the store's icon is served", async ({ request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  // An ICO file: reserved 0, type 1.
  expect([...(await icon.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  expect((await request.get("/favicon.svg")).status()).toBe(200);
});

test("no page of the store or the admin raises an issue in Chromium, a CSP violation or a console error", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const problems = await watchProblems(page);
  await addToCart(page, ROUTER);
  for (const path of [
    "/",
    "/antivirus",
    "/antivirus/mcafee",
    "/antivirus/mcafee/total-protection",
    "/windows/windows7/professional",
    "/printer",
    "/best-sellers",
    "/categories",
    "/search?q=norton",
    "/support/mcafee",
    "/digital",
    "/digital/web-development",
    "/contact",
    "/about",
    "/cart",
    "/payment",
    "/order/lookup",
    "/user/login",
    "/antivirus/future-brand",
    "/no/such/page",
  ]) {
    await visit(page, path);
  }
  // A customer's own pages.
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { email: `icons-${randomInt(1e9)}@example.com`, password: "a-long-password", name: "Ada" },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(signUp.status()).toBe(200);
  for (const path of ["/user/dashboard", "/user/orders", "/user/address"]) await visit(page, path);
  await page.context().clearCookies();
  // Every admin page, read from the route table, and the record pages of things that exist.
  await signInAsAdmin(page, baseURL!);
  for (const path of adminPages({ withParams: false })) await visit(page, path);
  for (const [list, row] of [
    ["/admin/orders", /^\/admin\/orders\/\d+$/],
    ["/admin/users", /^\/admin\/users\/[^/]+$/],
    ["/admin/products", /^\/admin\/products\/\d+$/],
    ["/admin/brand-content", /^\/admin\/brand-content\/[^/]+$/],
    ["/admin/pages", /^\/admin\/pages\/[^/]+$/],
  ] as const) {
    await visit(page, list);
    const hrefs = await page
      .locator("a[href^='/admin/']")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
    const record = hrefs.find((href) => row.test(href));
    if (record) await visit(page, record);
  }
  expect(problems).toEqual([]);
});

test("the store opened at another address than PUBLIC_URL sends the visitor there, for good", async ({
  page,
  baseURL,
}) => {
  const publicUrl = new URL(baseURL!);
  const elsewhere = `http://localhost:${publicUrl.port}`;
  const first = await page.request.get(`${elsewhere}/cart?from=bookmark`, { maxRedirects: 0 });
  expect(first.status()).toBe(301);
  expect(first.headers()["location"]).toBe(`${publicUrl.origin}/cart?from=bookmark`);
  await page.goto(`${elsewhere}/cart?from=bookmark`);
  expect(page.url()).toBe(`${publicUrl.origin}/cart?from=bookmark`);
  await expect(page.getByRole("heading", { name: "Your cart" })).toBeVisible();
});

/** Sends the page's request on as if it came from another address (the browser itself would not lie). */
async function fromElsewhere(route: Route) {
  const response = await route.fetch({
    headers: { ...route.request().headers(), origin: "http://localhost:9" },
  });
  await route.fulfill({ response });
}

test.describe("when the store refuses the cart or the checkout, the page says why", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the cart and the checkout summary repeat the store's own reason", async ({
    page,
    baseURL,
  }, testInfo) => {
    await addToCart(page, ROUTER);
    // The price check arrives as if from another address than the store's.
    await page.route("**/api/cart/quote", (route) => fromElsewhere(route));
    await page.goto("/cart");
    const alert = page.getByRole("alert").filter({ hasText: "today's prices" });
    await expect(alert).toContainText(
      `We could not check today's prices: This request came from another site or address than the store's own (${new URL(baseURL!).origin}), so it was refused.`,
    );
    await expect(alert).not.toContainText("connection");
    await page.screenshot({ path: testInfo.outputPath("cart-refused-360.png"), fullPage: true });
    await page.goto("/payment");
    await expect(page.getByTestId("quote-problem")).toContainText("another site or address");
    await expect(page.getByTestId("place-order")).toBeDisabled();
    // A price check that never reaches the store is a connection problem, and said so.
    await page.unroute("**/api/cart/quote");
    await page.route("**/api/cart/quote", (route) => route.abort("internetdisconnected"));
    await page.goto("/cart");
    await expect(page.getByRole("alert").filter({ hasText: "today's prices" })).toContainText(
      "We could not reach the store to check today's prices. Check your connection",
    );
  });

  test("placing the order says why the store refused it", async ({ page, baseURL }, testInfo) => {
    await addToCart(page, ROUTER);
    await page.goto("/payment");
    await hydrated(page);
    await expect(page.getByTestId("summary-line").first()).toBeVisible();
    await fillCheckout(page, { email: "ada@example.com" });
    await page.route(
      (url) => url.pathname.startsWith("/payment"),
      (route) => (route.request().method() === "POST" ? fromElsewhere(route) : route.continue()),
    );
    await page.getByTestId("place-order").click();
    await expect(page.getByTestId("error-message")).toHaveText(
      `This request came from another site or address than the store's own (${new URL(baseURL!).origin}), so it was refused. Open the store at ${new URL(baseURL!).origin} and try again there.`,
    );
    await page.screenshot({ path: testInfo.outputPath("checkout-refused-360.png"), fullPage: true });
  });
});

test("the order lookup never shows a long post back", async ({ request, baseURL }) => {
  const long = "1".repeat(60_000);
  const response = await request.post("/order/lookup", {
    form: { number: long, email: `${"a".repeat(50_000)}@example.com` },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(response.status()).toBe(400);
  const html = await response.text();
  expect(html).not.toContain("1".repeat(1000));
  expect(html).not.toContain("a".repeat(1000));
  // A post over the store's limit is answered in a line, not a page.
  const huge = await request.post("/order/lookup", {
    form: { number: "1", email: "x".repeat(1024 * 1024) },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(huge.status()).toBe(413);
  expect(await huge.text()).toBe("This request is too large: this address takes at most 128 KiB.");
});
