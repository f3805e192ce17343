import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { signInAsAdmin, topUpKeys } from "./admin";
import { expectAccessible } from "./axe";
import { customerPage, placePostedOrder } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";
import { screenshot } from "./screenshots";

const run = `${Date.now().toString(36)}${randomInt(1000)}xxxxxxxxxxxx`;
const PHONE = { width: 360, height: 780 };
// Only an order this large is held, so other files' orders placed meanwhile on the same store go through.
const LIMIT = "3000.00";
const NORTONS = 61; // 61 × 49.99 = 3,049.39
const CART = [{ groupKey: "Norton", id: "1", quantity: NORTONS }];

async function expectFitsPhone(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await hydrated(page);
  // Once laid out for the narrow screen, nothing widens the page (the category row scrolls inside itself).
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: "the page is wider than a 360 px phone",
    })
    .toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, `holds-${name}`);
}

/** The settings page's "Hold risky orders" section, filled and saved. */
async function saveHoldRules(page: Page, on: boolean, firstOrderAbove: string) {
  await page.goto("/admin/settings");
  await hydrated(page);
  const section = page.getByTestId("settings-holds");
  await section.getByLabel("Hold paid orders that a rule below matches").setChecked(on);
  await section.getByLabel("Hold a first order above (amount)").fill(firstOrderAbove);
  await section.getByRole("button", { name: "Save hold rules" }).click();
  await expect(page.getByText("Hold rules saved")).toBeVisible();
}

test.describe("risky orders are held", () => {
  test.afterAll(async ({ browser, baseURL }) => {
    const page = await (await browser.newContext({ baseURL })).newPage();
    await signInAsAdmin(page, baseURL!);
    await saveHoldRules(page, false, "");
    await page.context().close();
  });

  test("the owner sets a rule; a held order is approved and shows its keys, another is rejected and refunded", async ({
    page,
    browser,
    baseURL,
  }) => {
    // Two orders of 61 keys each, through the settings, the dashboard, the list and both decisions.
    test.slow();
    await signInAsAdmin(page, baseURL!);
    // Holding on with every rule off is refused with a message beside the field.
    await page.goto("/admin/settings");
    await hydrated(page);
    const section = page.getByTestId("settings-holds");
    await section.getByLabel("Hold paid orders that a rule below matches").check();
    await section.getByLabel("Hold card payments Stripe Radar rates elevated or highest risk").uncheck();
    await section.getByLabel("Hold a first order above (amount)").fill("");
    await section.getByLabel("Hold beyond this many orders an hour").fill("");
    await section.getByRole("button", { name: "Save hold rules" }).click();
    await expect(section.getByLabel("Hold a first order above (amount)")).toHaveAccessibleDescription(
      /Holding is on but every rule is off/,
    );
    await expectAccessible(page, "settings with a refused hold rule");
    await page.setViewportSize(PHONE);
    await screenshot(section, "holds-settings");
    await page.setViewportSize({ width: 1280, height: 900 });
    await saveHoldRules(page, true, LIMIT);
    await topUpKeys(browser, baseURL!, "/antivirus/norton/antivirus-plus", NORTONS);

    // The shopper pays; the order is held: told it is being checked, and no key.
    const approvedBuyer = `held.approved.${run}@example.com`;
    const first = await placePostedOrder(page.request, baseURL!, approvedBuyer, CART);
    const customer = await customerPage(browser, baseURL!);
    await customer.goto(first.path);
    await expect(customer.getByTestId("order-status")).toHaveText("On hold");
    await expect(customer.getByTestId("order-held")).toContainText(
      "expect your licence keys by e-mail within 12 hours",
    );
    await expect(customer.getByTestId("licence-key")).toHaveCount(0);
    await expectAccessible(customer, "customer's held order");
    await expectFitsPhone(customer, "customer-held");
    const receipt = await waitForMail(
      baseURL!,
      (message) =>
        message.to === approvedBuyer && message.subject === `Payment received for order #${first.number}`,
    );
    expect(receipt.text).toContain("are checking this one");

    // The owner finds it among the held orders and approves it.
    await page.goto("/");
    await page.goto("/admin");
    await expect(page.getByRole("link", { name: /Orders on hold to check/ })).toBeVisible();
    await expectAccessible(page, "dashboard with held orders");
    await page.getByRole("link", { name: /Orders on hold to check/ }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?status=held$/);
    const row = page.locator(`[data-testid="order-row"][data-number="${first.number}"]`);
    await expect(row.getByTestId("order-status-badge")).toHaveText("On hold");
    await row.getByRole("link", { name: `#${first.number}` }).click();
    await hydrated(page);
    await expect(page.getByTestId("hold-reason")).toContainText(`First order from ${approvedBuyer}`);
    await expectAccessible(page, "admin's held order");
    await page.setViewportSize(PHONE);
    await screenshot(page, "holds-admin-held");
    await screenshot(page.getByTestId("order-hold"), "holds-admin-hold-reasons");
    await screenshot(page.getByTestId("order-actions"), "holds-admin-hold-actions");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Approve and deliver" }).click();
    await expect(page.getByTestId("action-notice")).toHaveText(
      `Order #${first.number} is approved; the customer gets their licence keys by e-mail.`,
    );
    await expect(page.getByTestId("order-status-badge")).toHaveText("Complete");
    await expect(page.getByTestId("hold-decision")).toHaveText("Approved: delivered as usual.");
    await expect(page.getByTestId("approve-form")).toHaveCount(0);

    await customer.reload();
    await expect(customer.getByTestId("order-status")).toHaveText("Complete");
    await expect(customer.getByTestId("order-held")).toHaveCount(0);
    await expect(customer.getByTestId("licence-key")).toHaveCount(NORTONS);
    const approved = await waitForMail(
      baseURL!,
      (message) => message.to === approvedBuyer && message.subject === `Order #${first.number} is approved`,
    );
    expect(approved.text).toContain(
      (await customer.getByTestId("licence-key").first().textContent())!.trim(),
    );

    // A second held order is rejected: refunded, and no key.
    const rejectedBuyer = `held.rejected.${run}@example.com`;
    const second = await placePostedOrder(page.request, baseURL!, rejectedBuyer, CART);
    await page.goto(`/admin/orders/${second.number}`);
    await hydrated(page);
    const reject = page.getByTestId("reject-form");
    // Not confirmed: refused beside the box, nothing done.
    await reject.getByRole("button", { name: "Reject and refund" }).click();
    await expect(reject.getByRole("alert")).toHaveText(
      "Tick the box to confirm you want to reject and refund this order",
    );
    await reject.getByLabel("Reason (optional, told to the customer)").fill("The card was reported stolen");
    await reject.getByLabel(`Yes, reject and refund order #${second.number}`).check();
    await reject.getByRole("button", { name: "Reject and refund" }).click();
    await expect(page.getByTestId("action-notice")).toContainText(
      `Order #${second.number} is rejected and refunded in full`,
    );
    await expect(page.getByTestId("order-status-badge")).toHaveText("Refunded");
    await customer.goto(second.path);
    await expect(customer.getByTestId("order-status")).toHaveText("Refunded");
    await expect(customer.getByTestId("licence-key")).toHaveCount(0);
    // No key ever reached the buyer: the line does not say its keys no longer work.
    await expect(customer.getByTestId("line-delivery")).toHaveText("Refunded");
    await expect(customer.getByText("We could not approve this order after checking it")).toBeVisible();
    await expectFitsPhone(customer, "customer-rejected");
    const refund = await waitForMail(
      baseURL!,
      (message) => message.to === rejectedBuyer && message.subject.startsWith("Refund of"),
    );
    expect(refund.text).toContain("The card was reported stolen");
    expect(refund.text).not.toContain("Licence keys");
    await customer.context().close();
  });
});
