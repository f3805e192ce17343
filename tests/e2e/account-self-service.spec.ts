import { type Browser, expect, type Page } from "@playwright/test";
import { adminPassword, freshAdminAddress, signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { confirmationLink, waitForMail } from "./mail";
import { fillCheckout } from "./checkout-form";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Customers sign up and in from addresses of their own (better-auth limits attempts per client address).
let nextAddress = 10;
const freshAddress = () => `198.51.100.${nextAddress++}`;
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": freshAddress() });
});

const run = Date.now().toString(36);
const email = (name: string) => `${name}.${run}@example.com`;
const PASSWORD = "correct horse battery";

async function shot(page: Page, name: string) {
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  await screenshot(page, name);
}

async function expectFitsPhone(page: Page, label: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
  await shot(page, `${label}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A new customer, signed up and confirmed (the link signs in) in a browser of their own. */
async function newCustomer(browser: Browser, baseURL: string, name: string, address: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": freshAddress() } });
  const page = await context.newPage();
  await page.goto("/user/login");
  await hydrated(page);
  const form = page.getByTestId("sign-up-form");
  await form.getByLabel("Your name").fill(name);
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Choose a password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("sign-up-sent")).toBeVisible();
  await page.goto(await confirmationLink(baseURL, address));
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  return page;
}

/** The same account signed in from a second browser (another device). */
async function secondBrowser(browser: Browser, address: string, password = PASSWORD) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": freshAddress() },
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
  });
  const page = await context.newPage();
  await page.goto("/user/login");
  await hydrated(page);
  const form = page.getByTestId("sign-in-form");
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  return page;
}

async function expectSignedOut(page: Page) {
  await page.goto("/user/dashboard");
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Fuser%2Fdashboard$/);
}

test("the header's user menu leads to Account settings, where the password is changed", async ({
  browser,
  baseURL,
}) => {
  const page = await newCustomer(browser, baseURL!, "Grace Hopper", email("menu"));
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/user/dashboard");
    await hydrated(page);
    await page.getByTestId("user-menu-toggle").click();
    const menu = page.getByRole("navigation", { name: "Your account" });
    await expect(menu.getByRole("link")).toHaveText([
      "Dashboard",
      "Orders",
      "Licences",
      "Address book",
      "Account settings",
    ]);
    await shot(page, `user-menu-${width}`);
    await menu.getByRole("link", { name: "Account settings" }).click();
    await expect(page).toHaveURL(/\/user\/account$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account settings");
    const password = page.getByTestId("account-password");
    await expect(password.getByLabel("Current password", { exact: true })).toBeVisible();
    await expect(password.getByLabel("New password", { exact: true })).toBeVisible();
    await expect(password.getByRole("button", { name: "Change password" })).toBeVisible();
  }
});

test("guest orders join the account when its address is confirmed, and the dashboard says why they are there", async ({
  page,
  baseURL,
}) => {
  const address = email("guest.first");
  // As a guest, with the address the account is made with afterwards.
  await page.goto("/antivirus/norton/360-deluxe");
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: address, method: "sandbox" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  const number = Number(/\/order\/(\d+)/.exec(page.url())![1]);

  await page.goto("/user/login");
  await hydrated(page);
  const form = page.getByTestId("sign-up-form");
  await form.getByLabel("Your name").fill("Mary Jackson");
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Choose a password").fill(PASSWORD);
  await form.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("sign-up-sent")).toBeVisible();
  const mail = await waitForMail(baseURL!, (sent) => sent.to === address && /Confirm/.test(sent.subject));
  expect(mail.text).toContain(
    "Orders you placed as a guest with this address join your account when you confirm it.",
  );

  await page.goto(await confirmationLink(baseURL!, address));
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  const recent = page.getByTestId("recent-orders");
  await expect(recent.getByTestId("recent-order")).toHaveCount(1);
  await expect(recent.getByTestId("recent-order")).toContainText(`Order #${number}`);
  await expect(recent.getByTestId("recent-order")).toContainText("Placed as a guest");
  await expect(page.getByTestId("guest-orders-joined")).toHaveText(
    "1 order you placed as a guest with your e-mail address was added to your account when you confirmed the address.",
  );
  // Nothing is left to add by hand.
  await page.goto("/user/orders");
  await expect(page.getByTestId("user-order")).toHaveCount(1);
  await expect(page.getByTestId("claim-card")).toHaveCount(0);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/user/dashboard");
    await shot(page, `dashboard-guest-orders-${width}`);
  }

  // Signed out, another order as a guest with the confirmed address: it joins when the customer adds it.
  await page.getByTestId("user-menu-toggle").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/user\/login$/);
  await page.goto("/antivirus/norton/360-deluxe");
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: address, method: "sandbox" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  const later = Number(/\/order\/(\d+)/.exec(page.url())![1]);
  await page.goto("/user/login?redirectTo=%2Fuser%2Forders");
  await hydrated(page);
  const signIn = page.getByTestId("sign-in-form");
  await signIn.getByLabel("E-mail address").fill(address);
  await signIn.getByLabel("Password").fill(PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/user\/orders$/);
  const card = page.getByTestId("claim-card");
  await expect(card).toContainText(
    "1 order placed as a guest with your e-mail address is not in your account yet.",
  );
  await shot(page, "orders-guest-order-to-add");
  await card.getByRole("button", { name: "Add it to my account" }).click();
  await expect(page.getByTestId("orders-notice")).toHaveText(`Added 1 order to your account: #${later}.`);
  await expect(page.getByTestId("user-order")).toHaveCount(2);
  await expect(page.getByTestId("claim-card")).toHaveCount(0);
});

test("changing the password needs the current one and signs the other browser out", async ({
  browser,
  baseURL,
}) => {
  const address = email("pw");
  const page = await newCustomer(browser, baseURL!, "Alan Turing", address);
  const phone = await secondBrowser(browser, address);

  await page.goto("/user/account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account settings");
  await expectAccessible(page, "account settings");
  await expectFitsPhone(page, "user-account");
  await hydrated(page);

  const form = page.getByTestId("account-password");
  await form.getByLabel("Current password").fill("not my password");
  await form.getByLabel("New password", { exact: true }).fill("an even better one");
  await form.getByLabel("Repeat the new password").fill("an even better one");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("That is not your current password")).toBeVisible();
  // The field to fix takes the focus, not the button pressed.
  await expect(form.getByLabel("Current password")).toBeFocused();

  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByLabel("New password", { exact: true }).fill("an even better one");
  await form.getByLabel("Repeat the new password").fill("an even beter one");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByLabel("Repeat the new password")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Repeat the new password")).toBeFocused();

  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByLabel("New password", { exact: true }).fill("an even better one");
  await form.getByLabel("Repeat the new password").fill("an even better one");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByTestId("done")).toContainText("Every other session of your account was signed out");
  await shot(page, "user-account-password-changed");

  // This browser carries on; the other one is signed out.
  await page.goto("/user/dashboard");
  await expect(page.getByTestId("dashboard")).toBeVisible();
  await expectSignedOut(phone);
  // The new password signs in, the old one does not.
  await (await secondBrowser(browser, address, "an even better one")).context().close();
});

test("a new e-mail address is confirmed by the link sent to it, and the old address is told", async ({
  page,
  browser,
  baseURL,
}) => {
  const before = email("before");
  const after = email("after");
  const customer = await newCustomer(browser, baseURL!, "Edsger Dijkstra", before);
  await customer.goto("/user/account");
  await hydrated(customer);
  const form = customer.getByTestId("account-email");
  await form.getByLabel("New e-mail address").fill("not an address");
  await form.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(form.getByText("Enter a valid e-mail address")).toBeVisible();

  await form.getByLabel("New e-mail address").fill(after);
  await form.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(form.getByTestId("done")).toContainText(`We sent a link to ${after}`);
  // Nothing changes until the link is opened.
  await expect(customer.getByTestId("current-email")).toHaveText(before);

  const mail = await waitForMail(
    baseURL!,
    (sent) => sent.to === after && /new e-mail address/.test(sent.subject),
  );
  const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
  await customer.goto(link);
  await expect(customer).toHaveURL(/\/user\/account$/);
  await expect(customer.getByTestId("current-email")).toHaveText(after);
  const told = await waitForMail(baseURL!, (sent) => sent.to === before && /was changed/.test(sent.subject));
  expect(told.text).toContain(after);

  // The new address signs in; the old one no longer does.
  await (await secondBrowser(browser, after)).context().close();
  await page.goto("/user/login");
  await hydrated(page);
  const signIn = page.getByTestId("sign-in-form");
  await signIn.getByLabel("E-mail address").fill(before);
  await signIn.getByLabel("Password").fill(PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Wrong e-mail address or password");
});

test("the sessions list shows each browser, marks this one, and ends another", async ({
  browser,
  baseURL,
}) => {
  const address = email("sessions");
  const page = await newCustomer(browser, baseURL!, "Barbara Liskov", address);
  const phone = await secondBrowser(browser, address);

  await page.goto("/user/account");
  await hydrated(page);
  const sessions = page.getByTestId("session");
  await expect(sessions).toHaveCount(2);
  const current = page.locator('[data-testid="session"][data-current="true"]');
  await expect(current).toContainText("This session");
  await expect(current).toContainText(/Chrome on /);
  const other = page.locator('[data-testid="session"][data-current="false"]');
  await expect(other).toContainText("Safari on iOS");
  await expect(other).toContainText("last active");
  await shot(page, "user-account-sessions");

  await other.getByRole("button", { name: /Sign out/ }).click();
  await expect(page.getByTestId("account-sessions").getByTestId("done")).toContainText(
    "That session has ended",
  );
  await expect(sessions).toHaveCount(1);
  await expectSignedOut(phone);
  // This browser is still signed in.
  await page.goto("/user/dashboard");
  await expect(page.getByTestId("dashboard")).toBeVisible();
});

test("a deleted account's order stays in the admin without the customer's personal data", async ({
  page,
  browser,
  baseURL,
}) => {
  const address = email("leaving");
  const customer = await newCustomer(browser, baseURL!, "Katherine Johnson", address);
  await customer.goto("/antivirus/norton/360-deluxe");
  await hydrated(customer);
  await customer.getByTestId("add-to-cart").click();
  await expect(customer.getByTestId("toast").last()).toContainText("added to your cart");
  await customer.goto("/payment");
  await hydrated(customer);
  await fillCheckout(customer, {
    name: "Katherine Johnson",
    street: "42 Orbit Lane",
    city: "Hampton",
    postalCode: "23666",
    method: "bank-transfer",
  });
  await customer.getByTestId("place-order").click();
  await expect(customer).toHaveURL(/\/order\/\d+/);
  const number = Number(/\/order\/(\d+)/.exec(customer.url())![1]);
  const orderLink = customer.url();

  await customer.goto("/user/account");
  await hydrated(customer);
  const form = customer.getByTestId("account-delete");
  await form.getByLabel("Your password").fill(PASSWORD);
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByText("Tick the box to confirm")).toBeVisible();
  // The page the server answered gives the focus to the box left unticked.
  await expect(form.getByLabel(/I understand/)).toBeFocused();
  await form.getByLabel("Your password").fill("not my password");
  await form.getByLabel(/I understand/).check();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByText("That is not your current password")).toBeVisible();

  await form.getByLabel("Your password").fill(PASSWORD);
  await form.getByLabel(/I understand/).check();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(customer).toHaveURL(new URL("/", baseURL).href);
  await expect(customer.getByTestId("toast").last()).toContainText("Your account is deleted");
  await expectSignedOut(customer);
  // The order's link from the e-mails no longer works, and says why rather than offer a new link no one can receive.
  const gone = await customer.goto(orderLink);
  expect(gone?.status()).toBe(410);
  await expect(customer.getByTestId("order-link-erased")).toContainText(
    `Order #${number} was placed from an account that has since been deleted`,
  );
  await expect(customer.getByTestId("order-link-retired")).toHaveCount(0);
  await shot(customer, "order-link-erased");
  await expectFitsPhone(customer, "order-link-erased");

  await signInAsAdmin(page, baseURL!);
  await page.goto(`/admin/orders/${number}`);
  const order = page.getByTestId("admin-order");
  await expect(order).toBeVisible();
  await expect(page.getByTestId("admin-order-email")).toHaveText("deleted-customer@deleted.invalid");
  await expect(order).toContainText("Deleted customer");
  await expect(order).toContainText("The customer deleted their account");
  // Not "placed as a guest": the order was placed from an account that is gone.
  await expect(page.getByTestId("admin-order-account")).toHaveText("· account deleted by the customer");
  await expect(order).not.toContainText("placed as a guest");
  await expect(page.getByTestId("admin-order-line")).toHaveCount(1);
  await expect(page.getByTestId("admin-order-total")).toHaveText(/\$\d+\.\d\d/);
  const text = (await order.textContent()) ?? "";
  for (const personal of [address, "Katherine", "42 Orbit Lane", "Hampton", "23666"])
    expect(text, personal).not.toContain(personal);
  await shot(page, "admin-order-of-deleted-customer");
});

test("the tab that deletes the account shows the notice, even when another tab hears of it first", async ({
  browser,
  baseURL,
}) => {
  const address = email("two-tabs");
  const customer = await newCustomer(browser, baseURL!, "Dorothy Vaughan", address);
  // A second tab of the same browser follows the live record and is told the account is gone while the first
  // tab's request is still on its way back; it answers by going to the sign-in page, whose data is held here
  // until the first tab's response (and the notice it carries) has arrived.
  const other = await customer.context().newPage();
  await other.goto("/user/dashboard");
  await hydrated(other);
  let deleted: () => void = () => {};
  const responded = new Promise<void>((resolve) => (deleted = resolve));
  await other.route(/\/user\/login\.data/, async (route) => {
    await responded;
    await route.continue();
  });

  await customer.goto("/user/account");
  await hydrated(customer);
  const form = customer.getByTestId("account-delete");
  await form.getByLabel("Your password").fill(PASSWORD);
  await form.getByLabel(/I understand/).check();
  customer.on("response", (response) => {
    if (response.request().method() === "POST" && new URL(response.url()).pathname === "/user/account")
      deleted();
  });
  await form.getByRole("button", { name: "Delete my account" }).click();

  await expect(other).toHaveURL(/\/user\/login$/);
  await expect(other.getByTestId("sign-in-form")).toBeVisible();
  await expect(customer).toHaveURL(new URL("/", baseURL).href);
  await expect(customer.getByTestId("toast").last()).toContainText("Your account is deleted");
  await expectSignedOut(customer);
  await expect(other.getByTestId("toast")).toHaveCount(0);
  await customer.context().close();
});

test("an admin made by admin:create with a temporary password must choose a new one before the admin opens", async ({
  page,
  baseURL,
}) => {
  const temporary = adminPassword(baseURL!, "admin2");
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  await page.goto("/admin");
  await hydrated(page);
  await page.getByLabel("E-mail address").fill("new-admin@example.com");
  await page.getByLabel("Password").fill(temporary);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/account$/);
  // Its first sign-in: a welcome, not a "welcome back".
  await expect(page.getByTestId("toast").filter({ hasText: "Welcome! You are signed in." })).toBeVisible();
  await expect(page.getByTestId("admin-new-password")).toBeVisible();
  await expect(page.getByTestId("admin-shell")).toHaveCount(0);
  await expectAccessible(page, "set your password");
  await expectFitsPhone(page, "admin-new-password");

  // Nothing of the admin opens on the temporary password: pages and the storage API alike.
  for (const path of ["/admin", "/admin/orders", "/admin/users"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/admin\/account$/);
  }
  const upload = await page.request.post("/api/storage/v0/b/products/o?name=sneaky.png", {
    headers: { Origin: baseURL!, "content-type": "image/png" },
    data: Buffer.from("not really a png"),
  });
  expect(upload.status()).toBeGreaterThanOrEqual(400);
  expect(upload.status()).toBeLessThan(500);

  await hydrated(page);
  const form = page.getByTestId("account-password");
  await form.getByLabel("Temporary password").fill(temporary);
  await form.getByLabel("New password", { exact: true }).fill("the owner's very own password");
  await form.getByLabel("Repeat the new password").fill("the owner's very own password");
  await form.getByRole("button", { name: "Set my password" }).click();
  await expect(page.getByTestId("admin-shell")).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/account");
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("account-delete")).toHaveCount(0);
});
