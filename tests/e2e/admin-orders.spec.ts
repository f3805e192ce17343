import { type Browser, expect, type Page } from "@playwright/test";
import { ADMIN_EMAIL, signInAsAdmin } from "./admin";
import { confirmationLink, waitForMail } from "./mail";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { addToCart } from "./cart";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const NORTON = "/antivirus/norton/360-deluxe";
const PRINTER = "/printer/hp-laserjet-pro-m404n";
const run = Date.now().toString(36);

// Customers sign up from addresses of their own (better-auth limits sign-ups per address).
let nextAddress = 10;
const freshAddress = () => `192.0.2.${nextAddress++}`;

async function customerPage(browser: Browser) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": freshAddress() } });
  return context.newPage();
}

/** Checks out the cart with a billing address and the given payment method; returns the order number. */
async function checkout(page: Page, email: string, method: "bank-transfer" | "sandbox") {
  await page.goto("/payment");
  await hydrated(page);
  const emailEditable = await page.getByLabel("E-mail address").isEditable();
  await fillCheckout(page, { email: emailEditable ? email : undefined, method });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  return Number(page.url().match(/\/order\/(\d+)/)![1]);
}

/** A full-page screenshot once the navigation spinner has gone. */
async function shot(page: Page, name: string) {
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  await screenshot(page, name);
}

test("a guest's bank-transfer order is found by its number, marked paid, and its licence key e-mailed", async ({
  page,
  browser,
  baseURL,
}) => {
  const buyer = `bank.${run}@example.com`;
  const guest = await customerPage(browser);
  await addToCart(guest, NORTON);
  const number = await checkout(guest, buyer, "bank-transfer");
  await expect(guest.getByTestId("order-status")).toHaveText("Waiting for payment");
  await guest.context().close();

  await signInAsAdmin(page, baseURL!, "/admin/orders");
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  // The dashboard's "awaiting payment" link lists it.
  await page.goto("/admin/orders?status=pending_payment");
  await hydrated(page);
  await expect(page.getByRole("link", { name: "Waiting for payment" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.locator(`[data-testid=order-row][data-number="${number}"]`)).toBeVisible();

  await page.goto("/admin/orders");
  await hydrated(page);
  await page.getByLabel("Search orders").fill(String(number));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${number}`));
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(buyer);
  await expect(rows.first()).toContainText("Bank transfer");
  await shot(page, "admin-orders-list");
  await expectAccessible(page, "orders list");

  await rows
    .first()
    .getByRole("link", { name: `#${number}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${number}$`));
  await expect(page.getByRole("heading", { name: `Order #${number}` })).toBeVisible();
  const status = page.getByTestId("order-status-card").getByTestId("order-status-badge");
  await expect(status).toHaveText("Waiting for payment");
  await expect(page.getByTestId("admin-payment")).toHaveText("Bank transfer: Not paid yet");
  await expect(page.getByTestId("key-hint")).toHaveCount(0);
  await shot(page, "admin-order-pending");
  await expectAccessible(page, "order detail");

  await page.getByRole("button", { name: "Mark as paid" }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`Order #${number} is marked paid`);
  await expect(status).toHaveText("Complete"); // software only: delivered at once
  await expect(page.getByTestId("admin-payment")).toHaveText("Bank transfer: Paid");
  const paid = page.locator("[data-testid=order-event][data-type=paid]");
  await expect(paid).toContainText("Payment received");
  await expect(paid.getByTestId("order-event-actor")).toHaveText(ADMIN_EMAIL);
  await expect(page.getByRole("button", { name: "Mark as paid" })).toHaveCount(0);
  const hint = (await page.getByTestId("key-hint").textContent())!;
  expect(hint).toMatch(/^••••[A-Z0-9]{4}$/);
  // The admin page never shows a whole key.
  expect(await page.content()).not.toMatch(/DEMO-[A-Z0-9]{5}-/);
  await shot(page, "admin-order-paid");

  const receipt = await waitForMail(
    baseURL!,
    (mail) => mail.to === buyer && mail.subject === `Payment received for order #${number}`,
  );
  const key = /Licence key: (\S+)/.exec(receipt.text)?.[1];
  expect(key).toMatch(/^DEMO-/);
  expect(key!.replace(/-/g, "").slice(-4)).toBe(hint.slice(4));

  // The same change is in the audit log, with who did it.
  await page.goto(`/admin/audit?entity=order&entityId=${number}`);
  await hydrated(page);
  const entry = page.getByTestId("audit-row").first();
  await expect(entry).toHaveAttribute("data-action", "order.mark_paid");
  await expect(entry).toContainText(ADMIN_EMAIL);
  await expect(entry.getByTestId("audit-diff")).toContainText("pending_payment");
});

test("a printer order gets a shipment with a checked tracking number; bad input and unknown orders are refused", async ({
  page,
  browser,
  baseURL,
}) => {
  const buyer = `printer.${run}@example.com`;
  const guest = await customerPage(browser);
  await addToCart(guest, PRINTER);
  const number = await checkout(guest, buyer, "sandbox");
  await guest.context().close();

  await signInAsAdmin(page, baseURL!, `/admin/orders/${number}`);
  await expect(page.getByRole("heading", { name: `Order #${number}` })).toBeVisible();
  const status = page.getByTestId("order-status-card").getByTestId("order-status-badge");
  await expect(status).toHaveText("Paid");
  await expect(page.getByTestId("admin-tracking")).toHaveText("Not shipped yet");
  await expect(page.getByText("Shipping address", { exact: true })).toBeVisible();

  const tracking = page.getByLabel("Tracking number");
  const ship = page.getByRole("button", { name: "Add shipment" });
  // Checked in the browser with the action's own rule…
  await ship.click();
  await expect(page.getByText("Enter the tracking number")).toBeVisible();
  await tracking.fill("<b>1Z</b>");
  await ship.click();
  await expect(page.getByText(/4 to 60 letters, digits, spaces or dashes/)).toBeVisible();
  await expect(tracking).toHaveAttribute("aria-invalid", "true");
  await shot(page, "admin-order-ship-error");
  // …and again on the server, for a request that skips the browser's check.
  const forged = await page.request.post(`/admin/orders/${number}`, {
    form: { intent: "ship", carrier: "ups", trackingNumber: "x".repeat(5000) },
    headers: { Origin: baseURL! },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain(
    "Enter a tracking number of 4 to 60 letters, digits, spaces or dashes",
  );
  const nonsense = await page.request.post(`/admin/orders/${number}`, {
    form: { intent: "drop-tables" },
    headers: { Origin: baseURL! },
  });
  expect(nonsense.status()).toBe(400);
  const refund = await page.request.post(`/admin/orders/${number}`, {
    form: { intent: "refund" }, // not confirmed
    headers: { Origin: baseURL! },
  });
  expect(refund.status()).toBe(400);
  // A post from another site is refused before it reaches the page.
  const crossSite = await page.request.post(`/admin/orders/${number}`, {
    form: { intent: "refund", confirm: "yes" },
    headers: { Origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
  await page.reload();
  await expect(status).toHaveText("Paid");

  await tracking.fill("1Z 999 AA1 0123 4567");
  await ship.click();
  await expect(page.getByTestId("action-notice")).toContainText("Shipment recorded");
  await expect(page.getByTestId("admin-tracking")).toHaveText("1Z 999 AA1 0123 4567");
  await expect(status).toHaveText("Complete");
  const shipped = page.locator("[data-testid=order-event][data-type=shipped]");
  await expect(shipped).toContainText("1Z 999 AA1 0123 4567");
  await expect(shipped.getByTestId("order-event-actor")).toHaveText(ADMIN_EMAIL);
  await expect(page.getByRole("button", { name: "Add shipment" })).toHaveCount(0);
  await shot(page, "admin-order-shipped");
  // A second shipment is refused with the module's own message.
  const again = await page.request.post(`/admin/orders/${number}`, {
    form: { intent: "ship", carrier: "ups", trackingNumber: "AGAIN-1234" },
    headers: { Origin: baseURL! },
  });
  expect(again.status()).toBe(409);

  const mail = await waitForMail(
    baseURL!,
    (message) => message.to === buyer && message.subject === `Order #${number} has shipped`,
  );
  expect(mail.text).toContain("1Z 999 AA1 0123 4567");

  // A refund needs its box ticked first.
  const refundButton = page.getByRole("button", { name: "Refund", exact: true });
  await refundButton.click();
  await expect(page.getByText("Tick the box to confirm you want to refund this order")).toBeVisible();
  await expect(status).toHaveText("Complete");
  await page.getByLabel(`Yes, refund order #${number}`).check();
  await refundButton.click();
  await expect(page.getByTestId("action-notice")).toContainText(`The refund of order #${number} is recorded`);
  await expect(status).toHaveText("Refunded");
  await expect(page.getByTestId("admin-payment")).toHaveText("Sandbox (test payment): Refunded");
  await expect(
    page.locator("[data-testid=order-event][data-type=refunded]").getByTestId("order-event-actor"),
  ).toHaveText(ADMIN_EMAIL);
  await expect(page.getByTestId("order-actions")).toContainText("Nothing left to do");

  // On a phone the page stacks and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "admin-order-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  const unknown = await page.request.post("/admin/orders/99999999", {
    form: { intent: "mark-paid" },
    headers: { Origin: baseURL! },
  });
  expect(unknown.status()).toBe(404);
  for (const path of [
    "/admin/orders/99999999",
    "/admin/orders/abc",
    "/admin/orders/-1",
    "/admin/orders/1e3",
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByTestId("admin-error")).toContainText("Not found");
  }
});

test("the users list shows a customer's orders; role changes and bans are audited and take effect", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `customer.${run}@example.com`;
  const customer = await customerPage(browser);
  await customer.goto("/user/login");
  await hydrated(customer);
  const signUp = customer.getByTestId("sign-up-form");
  await signUp.getByLabel("Your name").fill("Grace Customer");
  await signUp.getByLabel("E-mail address").fill(email);
  await signUp.getByLabel("Choose a password").fill("correct horse battery");
  await signUp.getByRole("button", { name: "Create my account" }).click();
  await expect(customer.getByTestId("sign-up-sent")).toBeVisible();
  await customer.goto(await confirmationLink(baseURL!, email));
  await hydrated(customer);
  await expect(customer).toHaveURL(/\/user\/dashboard$/);
  await addToCart(customer, NORTON);
  const number = await checkout(customer, email, "sandbox");

  await signInAsAdmin(page, baseURL!, "/admin/users");
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await page.getByLabel("Search users").fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.locator(`[data-testid=user-row][data-email="${email}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("user-order-count")).toHaveText("1");
  await expect(row.getByTestId("user-role")).toHaveText("Customer");
  await expect(row).toContainText("Active");
  // The customer confirmed the address to sign in.
  await expect(row).not.toContainText("not verified");
  await shot(page, "admin-users-list");
  await expectAccessible(page, "users list");

  await row.getByRole("link", { name: "Grace Customer" }).click();
  await expect(page.getByRole("heading", { name: "Grace Customer" })).toBeVisible();
  await expect(page.getByTestId("user-order-row")).toHaveCount(1);
  await expect(page.getByTestId("user-orders").getByRole("link", { name: `#${number}` })).toHaveAttribute(
    "href",
    `/admin/orders/${number}`,
  );
  const userUrl = page.url();

  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`${email} is now an owner`);
  await expect(page.getByTestId("user-detail-role")).toHaveText("Owner");
  await expect(page.getByTestId("user-audit")).toContainText("user.set-role");
  await shot(page, "admin-user-detail");
  await expectAccessible(page, "user detail");

  await page.goto("/admin/audit");
  await hydrated(page);
  await page.getByLabel("Action").fill("user.set-role");
  await page.getByLabel("Who").fill(ADMIN_EMAIL);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/actor=admin%40example.com&action=user.set-role/);
  // The address changes before the filtered list is on the page: wait for the list itself.
  await expect
    .poll(
      async () =>
        new Set(
          await page
            .getByTestId("audit-row")
            .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-action"))),
        ),
    )
    .toEqual(new Set(["user.set-role"]));
  const entry = page.getByTestId("audit-row").first();
  await expect(entry).toHaveAttribute("data-action", "user.set-role");
  await expect(entry).toContainText(ADMIN_EMAIL);
  const diff = entry.getByTestId("audit-diff");
  // What changed is shown; the fields that did not change (the e-mail address) only on request.
  await expect(diff.getByTestId("audit-changed").getByRole("row")).toHaveText([
    /^Field\s*Before\s*After$/,
    /^role\s*(\(changed\))?\s*user\s*admin$/,
  ]);
  const emailRow = diff.getByTestId("audit-all-fields").locator("tr", { hasText: email });
  await expect(emailRow).toBeHidden();
  await diff.getByText("All fields (2)").click();
  await expect(emailRow).toBeVisible();
  await expect(emailRow).toHaveText(`email${email}${email}`);
  await shot(page, "admin-audit");
  await expectAccessible(page, "audit log");

  // Back to a customer (leaving the staff ends their sessions), then banned.
  await page.goto(userUrl);
  await hydrated(page);
  await page.getByLabel("Role", { exact: true }).selectOption("user");
  await page.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByTestId("user-detail-role")).toHaveText("Customer");
  // Bad input is refused with a 400 and changes nothing.
  const badForms: Array<Record<string, string>> = [
    { intent: "ban", reason: "x".repeat(5000) },
    { intent: "role", role: "superuser" },
    { intent: "delete-everything" },
  ];
  for (const form of badForms) {
    const refused = await page.request.post(userUrl, { form, headers: { Origin: baseURL! } });
    expect(refused.status(), JSON.stringify(form).slice(0, 60)).toBe(400);
  }
  await page.getByRole("button", { name: "Ban user" }).click();
  await expect(page.getByText("Say why this user is banned")).toBeVisible();
  await page.getByLabel("Reason").fill("Testing the ban");
  await page.getByRole("button", { name: "Ban user" }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`${email} is banned`);
  await expect(page.getByTestId("user-detail-banned")).toHaveText("Yes: Testing the ban");
  await customer.goto("/user/orders");
  await hydrated(customer);
  await expect(customer).toHaveURL(/\/user\/login/);
  await page.getByRole("button", { name: "Unban" }).click();
  await expect(page.getByTestId("user-detail-banned")).toHaveText("No");
  await customer.context().close();

  // An admin cannot demote themselves: their own page offers no role form, and a forged post is refused.
  await page.goto("/admin/users");
  await hydrated(page);
  await page.getByLabel("Search users").fill(ADMIN_EMAIL);
  await page.getByRole("button", { name: "Search" }).click();
  await page.locator(`[data-testid=user-row][data-email="${ADMIN_EMAIL}"]`).getByRole("link").click();
  await expect(page.getByTestId("role-card")).toContainText("You cannot change your own role");
  const forged = await page.request.post(page.url(), {
    form: { intent: "role", role: "user" },
    headers: { Origin: baseURL! },
  });
  expect(forged.status()).toBe(409);
  await page.reload();
  await expect(page.getByTestId("user-detail-role")).toHaveText("Owner");
  expect((await page.goto("/admin/users/no-such-user"))?.status()).toBe(404);
});

test("the admin pages refuse visitors", async ({ page }) => {
  for (const path of ["/admin/orders", "/admin/orders/1001", "/admin/users", "/admin/audit"]) {
    await page.goto(path);
    await hydrated(page);
    await expect(page).toHaveURL(/\/admin\?redirectTo=/);
  }
  const post = await page.request.post("/admin/orders/1001", {
    form: { intent: "mark-paid" },
    maxRedirects: 0,
  });
  expect([302, 303, 403]).toContain(post.status());
});
