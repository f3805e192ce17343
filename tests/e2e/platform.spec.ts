import { randomInt } from "node:crypto";
import { expect, type Page, type Route } from "@playwright/test";
import { adminPages, signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { addToCart } from "./cart";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const ROUTER = "/router/tplink/archer-c80";

/**
 * What Chromium's issues panel reports (Audits.issueAdded), what the page logs as an error, and every Content
 * Security Policy violation, while pages load. A page's own expected status (a 404 page) is not a problem. `visit`
 * loads a page, waits for React and for the reports of what the page did so far.
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
  async function visit(path: string) {
    await page.goto(path);
    await hydrated(page);
    await page.waitForLoadState("load");
    // A round trip to the page on each session: the reports the page sent before it have arrived.
    await cdp.send("Runtime.evaluate", { expression: "0" });
    await page.evaluate(() => 0);
  }
  return { problems, visit };
}

test("no page of the store or the admin raises an issue in Chromium, a CSP violation or a console error", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { problems, visit } = await watchProblems(page);
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
    await visit(path);
  }
  // A customer's own pages.
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { email: `icons-${randomInt(1e9)}@example.com`, password: "a-long-password", name: "Ada" },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(signUp.status()).toBe(200);
  for (const path of ["/user/dashboard", "/user/orders", "/user/address"]) await visit(path);
  await page.context().clearCookies();
  // Every admin page, read from the route table, and the record pages of things that exist.
  await signInAsAdmin(page, baseURL!);
  for (const path of adminPages({ withParams: false })) await visit(path);
  for (const [list, row] of [
    ["/admin/orders", /^\/admin\/orders\/\d+$/],
    ["/admin/users", /^\/admin\/users\/[^/]+$/],
    ["/admin/products", /^\/admin\/products\/\d+$/],
    ["/admin/brand-content", /^\/admin\/brand-content\/[^/]+$/],
    ["/admin/pages", /^\/admin\/pages\/[^/]+$/],
  ] as const) {
    await visit(list);
    const hrefs = await page
      .locator("a[href^='/admin/']")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
    const record = hrefs.find((href) => row.test(href));
    if (record) await visit(record);
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

  test("the cart and the checkout summary repeat the store's own reason", async ({ page, baseURL }) => {
    await addToCart(page, ROUTER);
    // The price check arrives as if from another address than the store's.
    await page.route("**/api/cart/quote", (route) => fromElsewhere(route));
    await page.goto("/cart");
    const alert = page.getByRole("alert").filter({ hasText: "today's prices" });
    await expect(alert).toContainText(
      `We could not check today's prices: This request came from another site or address than the store's own (${new URL(baseURL!).origin}), so it was refused.`,
    );
    await expect(alert).not.toContainText("connection");
    await screenshot(page, "cart-refused-360");
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

  test("placing the order says why the store refused it", async ({ page, baseURL }) => {
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
    await screenshot(page, "checkout-refused-360");
  });
});
