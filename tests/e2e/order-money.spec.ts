import { type Browser, expect, type Page } from "@playwright/test";
import { formatMoney, parseMoney } from "../../app/lib/money";
import { freshAdminAddress, signInAsAdmin, topUpKeys } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { confirmationLink } from "./mail";
import { screenshot } from "./screenshots";

/**
 * What the owner reads about an order's money: test orders (placed while test payments are on) marked and left out
 * of the revenue, and refunds with the net they leave, on the admin's and the customer's pages.
 */
const NORTON = "/antivirus/norton/antivirus-plus";
const AVIRA = "/antivirus/avira/antivirus-pro";
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

test("after a line is refunded, the admin's and the customer's order pages show the refund and the net", async ({
  page,
  browser,
  baseURL,
}) => {
  await topUpKeys(browser, baseURL!, NORTON, 2);
  await topUpKeys(browser, baseURL!, AVIRA, 2);
  // A customer with an account orders while signed in.
  const customer = await shopperPage(browser, baseURL!);
  const email = `refund-net.${run}@example.com`;
  await customer.goto("/user/login");
  await hydrated(customer);
  const signUp = customer.getByTestId("sign-up-form");
  await signUp.getByLabel("Your name").fill("Ada Lovelace");
  await signUp.getByLabel("E-mail address").fill(email);
  await signUp.getByLabel("Choose a password").fill("correct horse battery");
  await signUp.getByRole("button", { name: "Create my account" }).click();
  await expect(customer.getByTestId("sign-up-sent")).toBeVisible();
  await customer.goto(await confirmationLink(baseURL!, email));
  await expect(customer).toHaveURL(/\/user\/dashboard$/);
  await addToCart(customer, NORTON);
  await addToCart(customer, AVIRA);
  const order = await checkout(customer, undefined, "sandbox");

  await signInAsAdmin(page, baseURL!, `/admin/orders/${order.number}`);
  await hydrated(page);
  await expect(page.getByTestId("admin-order-refunded")).toHaveCount(0);
  const total = cents(await page.getByTestId("admin-order-total").textContent());
  const form = page.getByTestId("refund-form");
  await form.getByLabel("One line").check();
  const aviraOption = form.getByLabel("Line to refund").locator("option", { hasText: "Avira Antivirus Pro" });
  await form.getByLabel("Line to refund").selectOption((await aviraOption.getAttribute("value"))!);
  await form.getByLabel(`Yes, refund order #${order.number}`).check();
  await form.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByTestId("action-notice")).toContainText(
    `The refund of order #${order.number} is recorded`,
  );
  const refunded = cents(/\$[\d,]+\.\d\d/.exec((await page.getByTestId("refund").textContent())!)![0]);
  expect(refunded).toBeGreaterThan(0);
  expect(refunded).toBeLessThan(total);
  await expect(page.getByTestId("admin-order-total")).toHaveText(formatMoney(total));
  await expect(page.getByTestId("admin-order-refunded")).toHaveText(`−${formatMoney(refunded)}`);
  await expect(page.getByTestId("admin-order-net")).toHaveText(formatMoney(total - refunded));
  await shots(page, "admin-refunded");

  // The customer's account: the list of orders and the order's own page.
  await customer.goto("/user/orders");
  await hydrated(customer);
  const listed = customer.locator(`[data-testid=user-order][data-number="${order.number}"]`);
  await expect(listed.getByTestId("user-order-refunded")).toHaveText(`−${formatMoney(refunded)}`);
  await expect(listed.getByTestId("user-order-net")).toHaveText(formatMoney(total - refunded));
  await shots(customer, "account-orders");
  await listed.getByRole("link", { name: `Order #${order.number}` }).click();
  await expect(customer).toHaveURL(new RegExp(`/order/${order.number}$`));
  await expect(customer.getByTestId("order-refunded")).toHaveText(`−${formatMoney(refunded)}`);
  await expect(customer.getByTestId("order-net")).toHaveText(formatMoney(total - refunded));
  await shots(customer, "account-order");

  // The same order opened with the secret link of its e-mails, as a guest would.
  const guest = await shopperPage(browser, baseURL!);
  await guest.goto(order.path);
  await expect(guest.getByTestId("order-page")).toBeVisible();
  await expect(guest.getByTestId("order-total")).toHaveText(formatMoney(total));
  await expect(guest.getByTestId("order-refunded")).toHaveText(`−${formatMoney(refunded)}`);
  await expect(guest.getByTestId("order-net")).toHaveText(formatMoney(total - refunded));
  await guest.context().close();
  await customer.context().close();
});
