import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { signInAsAdmin, topUpKeys } from "./admin";
import { customerPage, placePostedOrder } from "./checkout-form";
import { hydrated } from "./hydrated";
import { sentMail, waitForMail } from "./mail";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const run = `${Date.now().toString(36)}${randomInt(1000)}`;
const PHONE = { width: 360, height: 780 };

async function shot(page: Page, name: string) {
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  await screenshot(page, `order-life-${name}`);
}

async function expectFitsPhone(page: Page) {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Places a sandbox order the way the checkout form posts it; returns its number and its secret link. */
test("refunding one line e-mails the customer and hides that line's keys from them", async ({
  page,
  browser,
  baseURL,
}) => {
  await topUpKeys(browser, baseURL!, "/antivirus/norton/antivirus-plus", 3);
  await topUpKeys(browser, baseURL!, "/antivirus/avira/antivirus-pro", 3);
  const buyer = `refund.${run}@example.com`;
  const order = await placePostedOrder(page.request, baseURL!, buyer, [
    { groupKey: "Norton", id: "1", quantity: 1 },
    { groupKey: "Avira", id: "1", quantity: 1 },
  ]);
  const customer = await customerPage(browser, baseURL!);
  await customer.goto(order.path);
  await expect(customer.getByTestId("licence-key")).toHaveCount(2);
  const aviraKey = (await customer
    .getByTestId("order-line")
    .filter({ hasText: "Avira" })
    .getByTestId("licence-key")
    .textContent())!;

  await signInAsAdmin(page, baseURL!, `/admin/orders/${order.number}`);
  await hydrated(page);
  const form = page.getByTestId("refund-form");
  // More than was paid: the message stands beside the amount, which takes the focus.
  await form.getByLabel("An amount").check();
  await form.getByLabel("Amount (USD)").fill("9999.00");
  await form.getByLabel(`Yes, refund order #${order.number}`).check();
  await form.getByRole("button", { name: "Refund", exact: true }).click();
  const amount = form.getByLabel("Amount (USD)");
  await expect(amount).toHaveAccessibleDescription(
    /The refund can be at most \$\d+\.\d\d: what was paid less earlier refunds/,
  );
  await expect(amount).toBeFocused();
  await expect(page.getByTestId("action-notice")).toHaveCount(0);
  await form.getByLabel("One line").check();
  const aviraOption = form.getByLabel("Line to refund").locator("option", { hasText: "Avira Antivirus Pro" });
  await form.getByLabel("Line to refund").selectOption((await aviraOption.getAttribute("value"))!);
  await form.getByLabel("Reason (optional, told to the customer)").fill("Bought by mistake");
  await form.getByLabel(`Yes, refund order #${order.number}`).check();
  await form.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByTestId("action-notice")).toContainText(
    `The refund of order #${order.number} is recorded`,
  );
  await expect(page.getByTestId("admin-payment")).toHaveText("Sandbox (test payment): Partly refunded");
  const aviraRow = page.getByTestId("admin-order-line").filter({ hasText: "Avira" });
  await expect(aviraRow.getByTestId("line-state")).toHaveText("Refunded");
  await expect(aviraRow.getByTestId("revoked-key-hint")).toHaveCount(1);
  await expect(page.getByTestId("refund")).toContainText("Bought by mistake");
  await shot(page, "admin-line-refunded");
  // The key pool says the refunded line's key is revoked, not sold.
  await page.goto("/admin/keys?q=Avira%20Antivirus%20Pro");
  await hydrated(page);
  await page.getByRole("link", { name: "Avira Antivirus Pro", exact: true }).click();
  const revokedKey = page
    .getByTestId("recent-keys")
    .getByRole("listitem")
    .filter({ hasText: `order #${order.number}` });
  await expect(revokedKey.getByTestId("key-revoked")).toHaveText(`Revoked · order #${order.number}`);
  await shot(page, "admin-key-revoked");

  const mail = await waitForMail(
    baseURL!,
    (message) =>
      message.to === buyer &&
      message.subject.startsWith("Refund of") &&
      message.subject.includes(`#${order.number}`),
  );
  expect(mail.text).toContain("1 × Avira Antivirus Pro");
  expect(mail.text).toContain("Reason: Bought by mistake");
  expect(mail.text).toContain("Licence keys of refunded items no longer work");

  await customer.reload();
  await expect(customer.getByTestId("licence-key")).toHaveCount(1);
  expect(await customer.content()).not.toContain(aviraKey);
  const refundedLine = customer.getByTestId("order-line").filter({ hasText: "Avira" });
  await expect(refundedLine.getByTestId("line-delivery")).toHaveText(
    "Refunded · its licence keys no longer work",
  );
  await expect(customer.getByTestId("order-refunded")).toBeVisible();
  await shot(customer, "customer-line-refunded");
  await expectAccessible(customer, "customer order after a refund");
  await customer.context().close();
});

test.describe("a waiting order whose pool is topped up", () => {
  const product = { name: `E2E Waiting Pool ${run}`, route: `/antivirus/mcafee/e2e-waiting-${run}` };
  let adminPage: Page;

  test.beforeAll(async ({ browser, baseURL }) => {
    adminPage = await (await browser.newContext()).newPage();
    await signInAsAdmin(adminPage, baseURL!);
    await adminPage.goto("/admin/products/new");
    await hydrated(adminPage);
    const form = adminPage.getByTestId("product-form");
    await form.getByLabel("Brand group").selectOption("McAfee");
    await form.getByLabel("Product id").fill(`e2e-waiting-${run}`);
    await form.getByLabel("Name", { exact: true }).fill(product.name);
    await form.getByLabel("Page address").fill(product.route);
    await form.getByLabel("Price (USD)", { exact: true }).fill("19.99");
    await form.getByLabel("Description", { exact: true }).fill("A product whose keys come later.");
    await form.getByLabel("Image address").fill("/placeholder/product/mcafee-total-protection.svg");
    await form.getByLabel("When out of stock").selectOption("wait");
    await adminPage.getByRole("button", { name: "Create product" }).click();
    await expect(adminPage).toHaveURL(/\/admin\/products\/\d+\?saved=created$/);
  });
  test.afterAll(async () => {
    await adminPage.getByLabel("Hidden from the storefront").check();
    await adminPage.getByRole("button", { name: "Save changes" }).click();
    await expect(adminPage.getByTestId("action-notice")).toContainText("hidden");
    await adminPage.context().close();
  });

  test("each top-up e-mails the waiting customer the keys it brought, and the history says so", async ({
    browser,
    baseURL,
    request,
  }) => {
    const buyer = `waiting.${run}@example.com`;
    const order = await placePostedOrder(request, baseURL!, buyer, [
      { groupKey: "McAfee", id: `e2e-waiting-${run}`, quantity: 2 },
    ]);
    const customer = await customerPage(browser, baseURL!);
    await customer.goto(order.path);
    await expect(customer.getByTestId("awaiting-keys")).toContainText("2 licence keys are being prepared");

    await topUpKeys(browser, baseURL!, product.route, 1);
    const first = await waitForMail(
      baseURL!,
      (mail) => mail.to === buyer && mail.subject === `Your licence key for order #${order.number}`,
    );
    expect(first.text).toMatch(/TOPUP-\w+-0000/);
    expect(first.text).toContain("1 more licence key is on the way");
    await customer.reload();
    await expect(customer.getByTestId("licence-key")).toHaveCount(1);
    await expect(customer.getByTestId("line-delivery")).toHaveText("Keys to follow by e-mail");
    await expect(customer.getByText("1 licence key e-mailed; 1 still to follow")).toBeVisible();

    await topUpKeys(browser, baseURL!, product.route, 1);
    await expect
      .poll(
        async () =>
          (await sentMail(baseURL!)).filter(
            (mail) => mail.to === buyer && mail.subject === `Your licence key for order #${order.number}`,
          ).length,
      )
      .toBe(2);
    await customer.reload();
    await expect(customer.getByTestId("licence-key")).toHaveCount(2);
    await expect(customer.getByTestId("order-status")).toHaveText("Complete");
    await expect(customer.getByTestId("line-delivery")).toHaveText("Delivered keys");
    await shot(customer, "customer-keys-delivered");
    await customer.context().close();
  });
});

test("a two-line physical order ships line by line and is complete only when both have shipped", async ({
  page,
  browser,
  baseURL,
}) => {
  const buyer = `parcels.${run}@example.com`;
  const order = await placePostedOrder(page.request, baseURL!, buyer, [
    { groupKey: "hp", id: "1", quantity: 1 },
    { groupKey: "netgear", id: "1", quantity: 1 },
  ]);
  await signInAsAdmin(page, baseURL!, `/admin/orders/${order.number}`);
  await hydrated(page);
  const status = page.getByTestId("order-status-card").getByTestId("order-status-badge");
  const ship = page.getByTestId("ship-form");
  await ship.getByLabel("What ships").selectOption({ label: "1 × HP LaserJet Pro M404n" });
  await ship.getByLabel("Carrier", { exact: true }).selectOption("UPS");
  await ship.getByLabel("Tracking number").fill("1Z 999 AA1 0123");
  await ship.getByRole("button", { name: "Add shipment" }).click();
  await expect(page.getByTestId("action-notice")).toContainText("Shipment recorded");
  await expect(status).toHaveText("Paid");
  await expect(
    page.getByTestId("admin-order-line").filter({ hasText: "HP" }).getByTestId("line-state"),
  ).toHaveText("Shipped");
  await expect(
    page.getByTestId("admin-order-line").filter({ hasText: "Netgear" }).getByTestId("line-state"),
  ).toHaveText("Awaiting shipment");

  const customer = await customerPage(browser, baseURL!);
  await customer.goto(order.path);
  const printer = customer.getByTestId("order-line").filter({ hasText: "HP" });
  await expect(printer.getByTestId("line-delivery")).toContainText("Shipped with UPS");
  await expect(printer.getByTestId("tracking-link")).toHaveAttribute(
    "href",
    "https://www.ups.com/track?tracknum=1Z999AA10123",
  );
  await expect(
    customer.getByTestId("order-line").filter({ hasText: "Netgear" }).getByTestId("line-delivery"),
  ).toHaveText("Awaiting shipment");
  const firstMail = await waitForMail(
    baseURL!,
    (mail) => mail.to === buyer && mail.subject === `Order #${order.number} has shipped`,
  );
  expect(firstMail.text).toContain("https://www.ups.com/track?tracknum=1Z999AA10123");
  expect(firstMail.text).toContain("1 more item ships separately");

  // A tracking page that is not a web address is refused, next to its field.
  // Another carrier is named, as the customer will read it.
  await ship.getByLabel("Carrier", { exact: true }).selectOption("Other carrier");
  await ship.getByLabel("Tracking number").fill("PARCEL-2");
  await ship.getByLabel("Tracking page (optional)").fill("javascript:alert(1)");
  await ship.getByRole("button", { name: "Add shipment" }).click();
  await expect(ship.getByText("Enter the tracking page's address, starting with https://")).toBeVisible();
  await expect(ship.getByLabel("Carrier's name")).toHaveAccessibleDescription(/Enter the carrier's name/);
  await expect(ship.getByLabel("Carrier's name")).toBeFocused();
  await ship.getByLabel("Carrier's name").fill("Parcelforce");
  await ship.getByLabel("Tracking page (optional)").fill("https://track.example.com/PARCEL-2");
  await ship.getByRole("button", { name: "Add shipment" }).click();
  await expect(status).toHaveText("Complete");
  await expect(page.getByRole("button", { name: "Add shipment" })).toHaveCount(0);
  await expect(page.getByTestId("shipment")).toHaveCount(2);

  // Internal and customer notes.
  await page.getByLabel("Internal note").fill(`Left at the back door ${run}`);
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("order-note")).toContainText(`Left at the back door ${run}`);
  await page.getByLabel("Note for the customer").fill("Both parcels left our warehouse today.");
  await page.getByRole("button", { name: "Save customer note" }).click();
  await expect(page.getByTestId("action-notice")).toContainText("customer's note");
  // The notice comes with the action's answer; the button is busy until the page's data is read again after it
  // (slow on a busy machine), and axe would judge its greyed text.
  await expect(page.getByRole("button", { name: "Save customer note" })).toBeEnabled();
  await shot(page, "admin-two-parcels");
  await expectAccessible(page, "admin order with shipments and notes");
  await expectFitsPhone(page);
  await shot(page, "admin-two-parcels-phone");

  await customer.reload();
  await expect(customer.getByTestId("line-delivery")).toHaveText([
    /Shipped with UPS/,
    /Shipped with Parcelforce · tracking number PARCEL-2 · Track your parcel/,
  ]);
  await expect(customer.getByTestId("customer-note")).toContainText("Both parcels left our warehouse today.");
  expect(await customer.content()).not.toContain("Left at the back door");
  await expectAccessible(customer, "customer order with shipments");
  await expectFitsPhone(customer);
  await shot(customer, "customer-two-parcels-phone");
  await customer.context().close();
});

test("the customer asks for their keys again, up to the limit, then is told how long to wait", async ({
  page,
  browser,
  baseURL,
}) => {
  await topUpKeys(browser, baseURL!, "/antivirus/norton/antivirus-plus", 1);
  const buyer = `again.${run}@example.com`;
  const order = await placePostedOrder(page.request, baseURL!, buyer, [
    { groupKey: "Norton", id: "1", quantity: 1 },
  ]);
  const customer = await customerPage(browser, baseURL!);
  await customer.goto(order.path);
  await hydrated(customer);
  const key = (await customer.getByTestId("licence-key").textContent())!;
  const button = customer.getByRole("button", { name: "E-mail my keys again" });
  for (let i = 0; i < 3; i++) {
    await button.click();
    await expect(customer.getByTestId("keys-sent")).toContainText(
      "We sent your licence keys to a•••@example.com",
    );
    await customer.goto(order.path);
    await hydrated(customer);
  }
  const mail = await waitForMail(
    baseURL!,
    (message) =>
      message.to === buyer && message.subject === `Your licence keys for order #${order.number}, again`,
  );
  expect(mail.text).toContain(key);
  await button.click();
  await expect(customer.getByTestId("keys-again-error")).toContainText(
    /Too many attempts. Please wait (an hour|\d+ minutes) and try again./,
  );
  await shot(customer, "customer-keys-limit");
  const refused = await customer.request.post(order.path, {
    form: { intent: "keys-again" },
    headers: { Origin: baseURL! },
  });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  await customer.context().close();
});

test("orders (with the list's filters) and key pools (hints only) download as CSV", async ({
  page,
  baseURL,
}) => {
  const buyer = `csv.${run}@example.com`;
  const order = await placePostedOrder(page.request, baseURL!, buyer, [
    { groupKey: "hp", id: "2", quantity: 2 },
  ]);
  await signInAsAdmin(page, baseURL!, `/admin/orders?q=${encodeURIComponent(`csv.${run}`)}&status=paid`);
  await hydrated(page);
  const [orders] = await Promise.all([page.waitForEvent("download"), page.getByTestId("orders-csv").click()]);
  expect(orders.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await orders.path(), "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe(
    "number,created_at,email,status,payment_method,payment_status,test_order,items,currency,subtotal,discount_code,discount,shipping,tax,total,refunded,net_after_refunds,awaiting_keys,tracking_number,paid_at",
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    new RegExp(`^${order.number},[^,]+,${buyer.replace(/\./g, "\\.")},paid,sandbox,paid,yes,2,USD,`),
  );

  await page.goto("/admin/keys");
  await hydrated(page);
  const [keys] = await Promise.all([page.waitForEvent("download"), page.getByTestId("keys-csv").click()]);
  const keyCsv = readFileSync(await keys.path(), "utf8");
  expect(keyCsv).toContain(
    "group,product_id,product,route,key_id,key_hint,state,order_number,added_at,assigned_at,variant_sku,supplier,cost,batch\r\n",
  );
  // A key of a variant's pool names the variant.
  expect(keyCsv).toMatch(/,BD-TS-1D-1Y,[^,\r\n]*,[^,\r\n]*,[^,\r\n]*\r\n/);
  expect(keyCsv).toMatch(/,••••\w{4},assigned,\d+,/);
  expect(keyCsv).not.toMatch(/DEMO-\w+-|TOPUP-\w+-/);

  // Customers and visitors get no export.
  const anonymous = await page.context().browser()!.newContext({ baseURL });
  const denied = await anonymous.request.get("/admin/export/orders.csv", { maxRedirects: 0 });
  expect([302, 303, 401, 403]).toContain(denied.status());
  expect(await denied.text()).not.toContain("number,created_at");
  await anonymous.close();
  expect((await page.request.get("/admin/export/passwords.csv")).status()).toBe(404);
});
