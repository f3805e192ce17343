import { expect, type Page } from "@playwright/test";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

/** The narrowest phone the store is made for. */
const PHONE = 360;

/** Every path of app/routes.ts, with its parents' paths in front ("admin/orders/:number"). */
function routePaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [
      ...(entry.index || entry.path !== undefined ? [path] : []),
      ...routePaths(entry.children ?? [], path),
    ];
  });
}

/** Routes that are no page of their own: data, files, redirects and sign-out actions. */
const NOT_PAGES = new Set([
  "blog/*",
  "blogs/*",
  "user",
  "user/logout",
  "api/user/events",
  "api/user/activity",
  "api/cart/quote",
  "api/stripe/webhook",
  "admin/logout",
  "admin/export/:what",
  "admin/orders/:number/documents/:file",
  "order/:number/documents/:file",
  "sitemap.xml",
  "sitemaps/:file",
  "robots.txt",
  "placeholder/:kind/:name",
]);

/** Sample addresses for routes with a parameter; every other route is visited at its own path. */
const SAMPLES: Record<string, string[]> = {
  "digital/:service": ["/digital/web-development"],
  "support/:brand": ["/support/mcafee"],
  // Products, brand pages and the 404 page: one of each section, with the longest names.
  "*": [
    "/antivirus/norton/360-with-lifelock-select",
    "/antvirus/pcmatic/business-endpoint-protection",
    "/windows/windows7/professional",
    "/printer/hp-color-laserjet-pro-mfp-m479fdw",
    "/router/cisco/rv345p-dual-wan-gigabit-vpn-router-with-poe",
    "/antivirus/mcafee",
    "/windows/windowsxp",
    "/printer/canon",
    "/router/tplink",
    "/no/such/page",
  ],
  "admin/products/:id": ["/admin/products/1", "/admin/products/new"],
  "admin/brand-content/:key": ["/admin/brand-content/Windows"],
  "admin/pages/:slug": ["/admin/pages/about"],
  "admin/promotions/:id": ["/admin/promotions/new"],
  // Filled in by the test: the order it places, opened through its secret link, and the admin's own account.
  "order/:number": [],
  "admin/orders/:number": [],
  "admin/users/:id": [],
  // A review form needs a paid order of the product: reviews.spec.ts checks it at 360 px, form and review sent.
  "user/reviews/:productId": [],
};

const allRoutes = [...new Set(routePaths(routes as RouteConfigEntry[]))].filter(
  (path) => !NOT_PAGES.has(path),
);
/** The customer's own pages, seen signed in. */
const needsSignIn = (path: string) =>
  path.startsWith("user/") && path !== "user/login" && path !== "user/reset-password";
const addresses = (route: string) => SAMPLES[route] ?? [`/${route}`];

/** Checks one page and goes on to the next, so one run names every page that overflows. */
async function expectFits(page: Page, path: string) {
  expect
    .soft(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${path} scrolls sideways at ${PHONE} px`,
    )
    .toBeLessThanOrEqual(PHONE);
  const name = path.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-") || "home";
  await screenshot(page, `phone-${name}`);
}

test("every route of the store and the admin fits a 360 px phone without scrolling sideways", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  // A route added later is checked too: one with a parameter needs sample addresses here.
  expect(
    allRoutes.filter((path) => /[:*]/.test(path) && !(path in SAMPLES)),
    "routes with a parameter but no sample address",
  ).toEqual([]);

  await page.setViewportSize({ width: PHONE, height: 800 });
  // A cart with a router (shipped) and a licence (by e-mail), so the checkout shows its shipping form.
  for (const product of ["/router/tplink/archer-c80", "/antivirus/norton/360-with-lifelock-select"]) {
    await page.goto(product);
    await hydrated(page);
    await page.getByTestId("add-to-cart").click();
    await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  }

  for (const route of allRoutes.filter((path) => !path.startsWith("admin") && !needsSignIn(path))) {
    for (const path of addresses(route)) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(500);
      if (route === "cart") await expect(page.getByTestId("cart-line")).toHaveCount(2);
      if (route === "payment") {
        await hydrated(page);
        await expect(page.getByTestId("summary-line")).toHaveCount(2);
        await page.getByLabel("Ship to my billing address").uncheck();
        await expect(page.getByTestId("shipping-fieldset")).toBeVisible();
      }
      await expectFits(page, path);
    }
  }

  // The order page, opened through its secret link.
  await page.goto("/payment");
  await hydrated(page);
  // The checkout kept the box unticked above, as the shopper left it: the router goes to the billing address.
  await page.getByLabel("Ship to my billing address").check();
  await fillCheckout(page, { email: "phone@example.com", method: "bank-transfer" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+\?key=/);
  await expect(page.getByTestId("order-page")).toBeVisible();
  const number = /\/order\/(\d+)/.exec(page.url())![1]!;
  await expectFits(page, `/order/${number}`);

  // Signed in: the customer's pages and every admin page.
  await signInAsAdmin(page, baseURL!);
  for (const route of allRoutes.filter(needsSignIn)) {
    for (const path of addresses(route)) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expectFits(page, path);
    }
  }
  await page.goto("/admin/users?q=admin%40example.com");
  const ownId = /\/admin\/users\/([^/?#]+)/.exec(
    (await page.getByTestId("user-row").first().getByRole("link").first().getAttribute("href"))!,
  )![1]!;
  SAMPLES["admin/users/:id"] = [`/admin/users/${ownId}`];
  SAMPLES["admin/orders/:number"] = [`/admin/orders/${number}`];
  for (const route of allRoutes.filter((path) => path.startsWith("admin"))) {
    for (const path of addresses(route)) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expect(page.getByTestId("admin-shell")).toBeVisible();
      await expectFits(page, path);
    }
  }
});
