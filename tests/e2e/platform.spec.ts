import { randomInt } from "node:crypto";
import { expect, type Page, type Route } from "@playwright/test";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { addToCart } from "./cart";
import { test } from "./fixtures";
import { watchProblems } from "./problems";
import { screenshot } from "./screenshots";

const ROUTER = "/router/tplink/archer-c80";

/**
 * The levels of the page's headings in order: a screen reader user moves through a page by them, so there must be one
 * h1, first, and no level skipped on the way down.
 */
async function expectHeadingOutline(page: Page, path: string) {
  const levels = await page
    .locator("h1, h2, h3, h4, h5, h6")
    .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName[1])));
  const skips = levels.flatMap((level, at) =>
    at > 0 && level > levels[at - 1]! + 1 ? [`h${levels[at - 1]} then h${level}`] : [],
  );
  expect
    .soft({ h1: levels.filter((level) => level === 1).length, first: levels[0], skips }, path)
    .toEqual({ h1: 1, first: 1, skips: [] });
}

// The admin's pages are checked the same way in admin-a11y.spec.ts, each loaded once for axe and for this.
test("no page of the store raises an issue in Chromium, a CSP violation or a console error, and each has one h1 and headings that never skip a level", async ({
  page,
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
    "/top-rated",
    "/categories",
    "/search?q=norton",
    "/search?q=zzzz",
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
    await expectHeadingOutline(page, path);
  }
  expect(problems).toEqual([]);
});

test("a customer's own pages raise no issue in Chromium, CSP violation or console error, and have one h1 and headings that never skip a level", async ({
  page,
  baseURL,
}) => {
  const { problems, visit } = await watchProblems(page);
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { email: `icons-${randomInt(1e9)}@example.com`, password: "a-long-password", name: "Ada" },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(signUp.status()).toBe(200);
  for (const path of ["/user/dashboard", "/user/orders", "/user/licences", "/user/address"]) {
    await visit(path);
    await expectHeadingOutline(page, path);
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
