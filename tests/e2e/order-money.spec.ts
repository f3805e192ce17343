import { type Browser, expect, type Page } from "@playwright/test";
import { formatMoney, parseMoney } from "../../app/lib/money";
import { freshAdminAddress, signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { screenshot } from "./screenshots";

/**
 * What the owner reads about an order's money: test orders (placed while test payments are on) marked and left out
 * of the revenue.
 */
const NORTON = "/antivirus/norton/antivirus-plus";
const run = `${Date.now().toString(36)}`;
const WIDTHS = [390, 1280];

/** "$1,234.56" as cents. */
const cents = (text: string | null) => parseMoney((text ?? "").replace(/[$,]/g, ""));

/** Pictures at a phone's and a laptop's width (E2E_SCREENSHOTS=1), once the page is seen to fit 360 px. */
async function shots(page: Page, name: string) {
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `order-money-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function shopperPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": freshAdminAddress() },
  });
  return context.newPage();
}

/** Checks out the cart as the shopper does; returns the order's number and the page's address. */
async function checkout(page: Page, email: string | undefined, method: "bank-transfer" | "sandbox") {
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email, method });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  const url = new URL(page.url());
  url.searchParams.delete("placed");
  // The path with the order's secret key, as its e-mails link to it.
  return { number: Number(/\/order\/(\d+)/.exec(url.pathname)![1]), path: `${url.pathname}${url.search}` };
}

async function setTestPayments(admin: Page, on: boolean) {
  await admin.goto("/admin/settings");
  await hydrated(admin);
  const form = admin.getByTestId("settings-payments-form");
  await form.getByLabel("Offer test payments (sandbox)").setChecked(on);
  await form.getByRole("button", { name: "Save payments" }).click();
  await expect(admin).toHaveURL(/[?&]done=payments$/);
}

test("an order placed while test payments are on is marked Test and left out of the dashboard's revenue", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!);
  const revenue = page.getByTestId("sales-month-revenue");
  const revenueBefore = cents(await revenue.textContent());
  const ordersBefore = (await page.getByTestId("sales-month-orders").textContent())!;

  // The demo store takes test payments: a shopper pays with the sandbox.
  const shopper = await shopperPage(browser, baseURL!);
  await addToCart(shopper, NORTON);
  const test = await checkout(shopper, `test-order.${run}@example.com`, "sandbox");
  await expect(shopper.getByTestId("order-page")).toHaveAttribute("data-status", /paid|fulfilled/);

  await page.goto(`/admin/orders?q=${encodeURIComponent(`test-order.${run}`)}`);
  await hydrated(page);
  const testRow = page.locator(`[data-testid=order-row][data-number="${test.number}"]`);
  await expect(testRow.getByTestId("test-order-badge")).toHaveText("Test");
  await page.goto("/admin/orders");
  await hydrated(page);
  await shots(page, "admin-orders");

  await page.goto(`/admin/orders/${test.number}`);
  await hydrated(page);
  await expect(page.getByTestId("admin-order-test")).toContainText("A test order");
  await shots(page, "admin-test-order");

  await page.goto("/admin");
  await hydrated(page);
  await expect(revenue).toHaveText(formatMoney(revenueBefore));
  await expect(page.getByTestId("sales-month-orders")).toHaveText(ordersBefore);
  await expect(page.getByTestId("sales-test-orders")).toContainText("Not counted:");
  await shots(page, "dashboard");

  // Switched off, the store takes real payments: a bank transfer, once marked paid, is revenue; the test stays a test.
  await setTestPayments(page, false);
  try {
    await addToCart(shopper, NORTON);
    const real = await checkout(shopper, `real-order.${run}@example.com`, "bank-transfer");
    await page.goto(`/admin/orders/${real.number}`);
    await hydrated(page);
    await expect(page.getByTestId("admin-order-test")).toHaveCount(0);
    await page.getByRole("button", { name: "Mark as paid" }).click();
    await expect(page.getByTestId("action-notice")).toContainText(`Order #${real.number} is marked paid`);
    const realTotal = cents(await page.getByTestId("admin-order-total").textContent());

    await page.goto("/admin");
    await hydrated(page);
    await expect(revenue).toHaveText(formatMoney(revenueBefore + realTotal));

    // The list holds them both (newest first), one marked Test.
    await page.goto("/admin/orders");
    await hydrated(page);
    const realRow = page.locator(`[data-testid=order-row][data-number="${real.number}"]`);
    await expect(realRow).toBeVisible();
    await expect(realRow.getByTestId("test-order-badge")).toHaveCount(0);
    await expect(testRow.getByTestId("test-order-badge")).toHaveText("Test");
  } finally {
    // The worker's other tests pay with the sandbox.
    await setTestPayments(page, true);
    await shopper.context().close();
  }
});
