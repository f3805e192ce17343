import { randomInt } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { freshAdminAddress, signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { confirmationLink, waitForMail } from "./mail";
import { fillCheckout, postedCheckout } from "./checkout-form";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const NORTON = "/antivirus/norton/360-deluxe";
const OWNER = "support@example.com"; // the demo store's support e-mail
const PHONE = 360;

async function shot(page: Page, name: string) {
  await screenshot(page, `settings-${name}`);
}

async function expectFitsPhone(page: Page, what: string) {
  await page.setViewportSize({ width: PHONE, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), what).toBeLessThanOrEqual(PHONE);
}

async function adminPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAsAdmin(page, baseURL, "/admin/settings");
  await page.goto("/admin/settings");
  await hydrated(page);
  return page;
}

/** A product hidden from the storefront that is unavailable when its pool is empty, made in the product form. */
async function hiddenProductRefusingWaitingOrders(admin: Page, n: number) {
  const id = `e2e-refuse-${randomInt(1e9)}`;
  await admin.goto("/admin/products/new");
  await hydrated(admin);
  const form = admin.getByTestId("product-form");
  await form.getByLabel("Brand group").selectOption("McAfee");
  await form.getByLabel("Product id").fill(id);
  await form.getByLabel("Name", { exact: true }).fill(`Refusing product ${n}`);
  await form.getByLabel("Page address").fill(`/antivirus/mcafee/${id}`);
  await form.getByLabel("Price (USD)", { exact: true }).fill("9.99");
  await form.getByLabel("Description", { exact: true }).fill("Unavailable when out of stock.");
  await form.getByLabel("Image address").fill("/placeholder/product/mcafee-total-protection.svg");
  await form.getByLabel("When out of stock").selectOption("refuse");
  await form.getByLabel("Hidden from the storefront").check();
  await admin.getByRole("button", { name: "Create product" }).click();
  await expect(admin).toHaveURL(/\/admin\/products\/\d+\?saved=created$/);
}

async function guestCheckout(page: Page, email: string) {
  await page.goto(NORTON);
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email });
}

test.describe.configure({ mode: "serial" });

test("the owner changes the bank details and a new bank-transfer order shows them, on its page and in its e-mail", async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await adminPage(browser, baseURL!);
  const bank = admin.getByTestId("settings-bank-form");
  // A typo in the IBAN is refused beside the field, and nothing is saved.
  await bank.getByLabel("Account holder").fill("Harbour Trading Ltd");
  await bank.getByLabel("IBAN").fill("GB82 WEST 1234 5698 7654 33");
  await bank.getByLabel("Account number").fill("");
  await bank.getByLabel("Routing number").fill("");
  await bank.getByRole("button", { name: "Save bank details" }).click();
  await expect(bank.getByText("This IBAN's check digits do not match: check it for a typo")).toBeVisible();
  await expectAccessible(admin, "settings with a refused form");

  await bank.getByLabel("IBAN").fill("gb82 west 1234 5698 7654 32");
  await bank.getByRole("button", { name: "Save bank details" }).click();
  await expect(admin.getByTestId("action-notice")).toHaveText(
    "Bank details saved: new orders and their e-mails show them now.",
  );
  await expect(admin.getByTestId("settings-bank-form").getByLabel("IBAN")).toHaveValue(
    "GB82 WEST 1234 5698 7654 32",
  );

  // A shopper in another browser, with no restart in between.
  const buyer = `transfer.${randomInt(1e9)}@example.com`;
  await guestCheckout(page, buyer);
  await page.getByTestId("method-bank-transfer").check();
  await page.getByTestId("place-order").click();
  await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "pending_payment");
  const instructions = page.getByTestId("bank-instructions");
  await expect(instructions.getByTestId("bank-account-holder")).toHaveText("Harbour Trading Ltd");
  await expect(instructions.getByTestId("bank-iban")).toHaveText("GB82 WEST 1234 5698 7654 32");
  await expect(instructions.getByTestId("bank-account-number")).toHaveCount(0);
  const number = Number(/\/order\/(\d+)/.exec(page.url())![1]);
  await expect(instructions.getByTestId("bank-reference")).toHaveText(`Order ${number}`);
  await expectFitsPhone(page, "the order page with bank details");
  await shot(page, "order-bank-phone");

  const mail = await waitForMail(
    baseURL!,
    (m) => m.to === buyer && m.subject.startsWith(`Your order #${number}`),
  );
  expect(mail.text).toContain("Account holder: Harbour Trading Ltd");
  expect(mail.text).toContain("IBAN: GB82 WEST 1234 5698 7654 32");
  expect(mail.text).toContain(`Reference: Order ${number}`);
  expect(mail.text).not.toContain("Account number:");

  // The owner is told an order waits for their transfer (a test one: the demo store takes test payments).
  const owner = await waitForMail(
    baseURL!,
    (m) => m.to === OWNER && m.subject.startsWith(`Test order #${number} waits for a bank transfer`),
  );
  expect(owner.text).toContain(`/admin/orders/${number}`);
  await admin.context().close();
});

test("saving one section keeps the unsaved edits of the others, and leaving with unsaved edits asks first", async ({
  browser,
  baseURL,
}) => {
  const admin = await adminPage(browser, baseURL!);
  const bank = admin.getByTestId("settings-bank-form");
  const notifications = admin.getByTestId("settings-notifications-form");
  const delivery = admin.getByTestId("settings-delivery-form");
  const note = bank.getByLabel("Note after the details");
  const threshold = notifications.getByLabel("Low means fewer than");
  const savedNote = await note.inputValue();
  const savedThreshold = await threshold.inputValue();

  await note.fill("Typed, not saved yet.");
  await threshold.fill("7");
  await expect(admin.getByTestId("unsaved-settings")).toHaveText(
    "Not saved yet: Bank transfer, Notifications. Each section has its own Save button.",
  );
  await delivery.getByRole("button", { name: "Save delivery promise" }).click();
  await expect(admin.getByTestId("action-notice")).toHaveText(
    "Delivery promise saved: product pages show it now.",
  );
  // The other sections still hold what was typed, and still say so.
  await expect(note).toHaveValue("Typed, not saved yet.");
  await expect(threshold).toHaveValue("7");
  await expect(admin.getByTestId("unsaved-settings")).toContainText("Bank transfer, Notifications");

  // Leaving by a link asks first; staying keeps the edits.
  const nav = admin.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Orders" });
  const asked: string[] = [];
  admin.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await nav.click();
  await expect
    .poll(() => asked)
    .toEqual(["You have unsaved changes in Bank transfer, Notifications. Leave the page and lose them?"]);
  await expect(admin).toHaveURL(/\/admin\/settings/);
  await expect(note).toHaveValue("Typed, not saved yet.");

  // Saving a section takes it off the list; what was saved before stays as it was.
  await threshold.fill(savedThreshold);
  await notifications.getByRole("button", { name: "Save notifications" }).click();
  await expect(admin.getByTestId("action-notice")).toHaveText("Notifications saved.");
  await expect(admin.getByTestId("unsaved-settings")).toHaveText(
    "Not saved yet: Bank transfer. Each section has its own Save button.",
  );
  await expect(note).toHaveValue("Typed, not saved yet.");
  // A section edited again after its save keeps the new edit when another section is saved.
  await threshold.fill("8");
  await delivery.getByRole("button", { name: "Save delivery promise" }).click();
  await expect(admin).toHaveURL(/done=delivery/);
  await expect(threshold).toHaveValue("8");
  await threshold.fill(savedThreshold);
  await notifications.getByRole("button", { name: "Save notifications" }).click();
  await expect(admin).toHaveURL(/done=notifications/);

  admin.once("dialog", (dialog) => void dialog.accept());
  await nav.click();
  await expect(admin).toHaveURL(/\/admin\/orders/);
  await admin.goto("/admin/settings");
  await expect(admin.getByTestId("settings-bank-form").getByLabel("Note after the details")).toHaveValue(
    savedNote,
  );
  await admin.context().close();
});

test("on the admin sign-in page visitors and customers get the shoppers' test-payment notice, never the owner's", async ({
  page,
  browser,
  baseURL,
}) => {
  const expectShoppersNotice = async (who: Page) => {
    await who.goto("/admin");
    await hydrated(who);
    const banner = who.getByTestId("sandbox-banner");
    await expect(banner).toHaveText("Demo store: test payments are on and no money moves.");
    await expect(banner.getByRole("link", { name: "Switch them off in the settings" })).toHaveCount(0);
  };
  await expectShoppersNotice(page);

  // A signed-in customer (signed up, then signed in by the confirmation link).
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": freshAdminAddress() },
  });
  const customer = await context.newPage();
  const email = `banner.${randomInt(1e9)}@example.com`;
  const signUp = await customer.request.post("/api/auth/sign-up/email", {
    data: { name: "Curious Customer", email, password: "correct horse battery" },
    headers: { Origin: baseURL! },
  });
  expect(signUp.status()).toBe(200);
  await customer.goto(await confirmationLink(baseURL!, email));
  await expect(customer.getByTestId("app")).toBeVisible();
  await expectShoppersNotice(customer);
  await context.close();

  // The owner, signed in, is told where to switch test payments off.
  const admin = await adminPage(browser, baseURL!);
  await expect(
    admin.getByTestId("sandbox-banner").getByRole("link", { name: "Switch them off in the settings" }),
  ).toBeVisible();
  await admin.context().close();
});

test("switching the sandbox off takes it out of checkout, refuses it when posted, and ends the warning banner", async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await adminPage(browser, baseURL!);
  // On in production (the demo store), every page warns: the admin where to switch it off, shoppers that no money moves.
  await expect(admin.getByTestId("sandbox-banner")).toContainText("Test payments are on");
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByTestId("sandbox-banner")).toContainText(
    "Demo store: test payments are on and no money moves.",
  );

  const payments = admin.getByTestId("settings-payments-form");
  await expect(admin.getByTestId("stripe-status")).toContainText("not configured");
  try {
    await payments.getByLabel("Offer test payments (sandbox)").uncheck();
    await payments.getByRole("button", { name: "Save payments" }).click();
    await expect(admin.getByTestId("action-notice")).toHaveText(
      "Payments saved: checkout offers what you chose now.",
    );
    await expect(admin.getByTestId("sandbox-banner")).toHaveCount(0);

    await guestCheckout(page, `nosandbox.${randomInt(1e9)}@example.com`);
    await expect(page.getByTestId("method-bank-transfer")).toBeVisible();
    await expect(page.getByTestId("method-sandbox")).toHaveCount(0);
    await expect(page.getByTestId("demo-notice")).toHaveCount(0);
    await page.goto("/");
    await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);

    // A checkout posted with the sandbox anyway (an old tab, a script) is refused with the reason.
    const response = await page.request.post("/payment", {
      form: postedCheckout("forged@example.com", [{ groupKey: "Norton", id: "1", quantity: 1 }]),
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("That payment method is not available: choose another one");
  } finally {
    // The demo store's other tests pay with the sandbox: switch it back on.
    await admin.goto("/admin/settings");
    await hydrated(admin);
    await admin.getByTestId("settings-payments-form").getByLabel("Offer test payments (sandbox)").check();
    await admin.getByTestId("settings-payments-form").getByRole("button", { name: "Save payments" }).click();
    await expect(admin.getByTestId("sandbox-banner")).toBeVisible();
    await admin.context().close();
  }
});

test("the owner gets an e-mail for a contact message and can answer it with Reply", async ({
  page,
  baseURL,
}) => {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  const sender = `grace.${randomInt(1e9)}@example.com`;
  await page.goto("/contact");
  await hydrated(page);
  const form = page.getByTestId("contact-form");
  await form.getByLabel("Your name").fill("Grace Hopper");
  await form.getByLabel("E-mail address").fill(sender);
  await form.getByLabel("Subject").fill("Do you ship routers to Canada?");
  await form.getByLabel("Message").fill("I would like two Archer routers delivered to Toronto next month.");
  await form.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByTestId("form-sent")).toBeVisible();

  const mail = await waitForMail(
    baseURL!,
    (m) =>
      m.to === OWNER && m.subject === "Contact message from Grace Hopper: Do you ship routers to Canada?",
  );
  expect(mail.replyTo).toBe(sender);
  expect(mail.text).toContain("I would like two Archer routers delivered to Toronto next month.");
});

test("the settings page passes axe and fits a 360 px phone; the shipping policy states the shipping settings", async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await adminPage(browser, baseURL!);
  // Two products shown as unavailable when out of stock: their links, one under the other, are each a target.
  for (const n of [1, 2]) await hiddenProductRefusingWaitingOrders(admin, n);
  await admin.goto("/admin/settings");
  expect(await admin.getByTestId("unavailable-when-empty").getByRole("link").count()).toBeGreaterThanOrEqual(
    2,
  );
  await expect(
    admin.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Settings" }),
  ).toHaveAttribute("aria-current", "page");
  await expectAccessible(admin, "/admin/settings");
  await shot(admin, "admin-desktop");
  await expectFitsPhone(admin, "/admin/settings");
  await shot(admin, "admin-phone");
  await admin.context().close();

  await page.goto("/shipping-policy");
  const glance = page.getByTestId("shipping-at-a-glance");
  await expect(glance).toContainText("$14.99 per order, free from $199.00");
  await expect(glance.getByTestId("shipping-countries")).toHaveText("United States");
  await expectAccessible(page, "/shipping-policy");
  await expectFitsPhone(page, "/shipping-policy");
  await shot(page, "shipping-policy-phone");
});

test("the owner changes the shipping rate and countries, a form without a country is refused at the boxes, and the shipping policy follows", async ({
  page,
  browser,
  baseURL,
}) => {
  const admin = await adminPage(browser, baseURL!);
  const form = admin.getByTestId("settings-shipping-form");
  const box = (country: string) => form.getByRole("checkbox", { name: country, exact: true });
  try {
    await box("United States").uncheck();
    await form.getByRole("button", { name: "Save shipping" }).click();
    await expect(form.getByText("Tick at least one country to ship to")).toBeVisible();
    // The first box of the group is marked and takes the focus, as any other field to fix does.
    const first = form.getByRole("checkbox").first();
    await expect(first).toHaveAttribute("aria-invalid", "true");
    await expect(first).toBeFocused();
    await expect(first).toHaveAccessibleDescription(/Tick at least one country to ship to/);

    await box("United States").check();
    await box("Canada").check();
    await form.getByLabel("Flat rate (USD)").fill("9.99");
    await form.getByRole("button", { name: "Save shipping" }).click();
    await expect(admin.getByTestId("action-notice")).toHaveText(
      "Shipping saved: checkout charges and offers it now.",
    );
    await expect(box("Canada")).not.toHaveAttribute("aria-invalid", "true");

    await page.goto("/shipping-policy");
    const glance = page.getByTestId("shipping-at-a-glance");
    await expect(glance).toContainText("$9.99 per order, free from $199.00");
    await expect(glance.getByTestId("shipping-countries")).toHaveText(
      /^(United States, Canada|Canada, United States)$/,
    );
  } finally {
    // The demo store's other tests expect its own shipping: $14.99, to the United States.
    await admin.goto("/admin/settings");
    await hydrated(admin);
    await form.getByLabel("Flat rate (USD)").fill("14.99");
    await box("Canada").uncheck();
    await box("United States").check();
    await form.getByRole("button", { name: "Save shipping" }).click();
    await expect(admin.getByTestId("action-notice")).toHaveText(
      "Shipping saved: checkout charges and offers it now.",
    );
    await admin.context().close();
  }
});
