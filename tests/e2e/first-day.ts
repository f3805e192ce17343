import { randomInt } from "node:crypto";
import { type Browser, expect, type Locator, type Page } from "@playwright/test";
import { rawRequest } from "../support/store-process";
import { signInAsAdmin } from "./admin";
import { fillCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";

/**
 * A new owner's first day: the store's name, phone, bank details typed as digits, shipping, and test payments off.
 * Each shows where a shopper meets it on the next request. Everything is put back at the end: the worker's other
 * tests use the demo store as it was.
 */
const NAME = "Harbour Keys";
const PHONE = { local: "(646) 555-0177", international: "+16465550177" };
const ACCOUNT = "987654321";
const ROUTING = "121000358";

type Saved = Record<string, string | boolean>;

async function fields(form: Locator, labels: string[]): Promise<Saved> {
  const values: Saved = {};
  for (const label of labels) values[label] = await form.getByLabel(label, { exact: true }).inputValue();
  return values;
}

async function fill(form: Locator, values: Saved) {
  for (const [label, value] of Object.entries(values)) {
    const field = form.getByLabel(label, { exact: true });
    if (typeof value === "boolean") await field.setChecked(value);
    else await field.fill(value);
  }
}

async function saveSection(admin: Page, section: string, button: string, values: Saved) {
  const form = admin.getByTestId(`settings-${section}-form`);
  await fill(form, values);
  await form.getByRole("button", { name: button }).click();
  // A saved section lands on ?done=<section>; a refused one stays with its messages.
  await expect(admin).toHaveURL(new RegExp(`[?&]done=${section}$`));
  await expect(admin.getByTestId("action-notice")).toBeVisible();
}

const STORE = ["Store name", "Support phone, local format", "Support phone, international format"];
const BANK = ["IBAN", "Account number", "Routing number"];

/** Requests on new connections: with several server processes, each connection may reach another one. */
async function everyProcessShows(baseURL: string, text: string, requests = 6) {
  for (let n = 0; n < requests; n++) {
    const answer = await rawRequest(`${baseURL}/about`, { headers: { "accept-encoding": "identity" } });
    expect(answer.status).toBe(200);
    expect(answer.body.toString(), `request ${n + 1} of ${requests} on a new connection`).toContain(text);
  }
}

/** The walk itself, run on the embedded database (first-day.spec.ts) and on two processes on PostgreSQL. */
export async function ownersFirstDay({
  page,
  browser,
  baseURL,
}: {
  page: Page;
  browser: Browser;
  baseURL: string;
}) {
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInAsAdmin(admin, baseURL, "/admin/settings");
  await admin.goto("/admin/settings");
  await hydrated(admin);
  const before = {
    store: await fields(admin.getByTestId("settings-store-form"), STORE),
    bank: await fields(admin.getByTestId("settings-bank-form"), BANK),
    shipping: await fields(admin.getByTestId("settings-shipping-form"), ["Flat rate (USD)"]),
  };
  try {
    await saveSection(admin, "store", "Save store details", {
      "Store name": NAME,
      "Support phone, local format": PHONE.local,
      "Support phone, international format": PHONE.international,
    });
    await saveSection(admin, "bank", "Save bank details", {
      IBAN: "",
      "Account number": ACCOUNT,
      "Routing number": ROUTING,
    });
    await saveSection(admin, "shipping", "Save shipping", { "Flat rate (USD)": "9.99" });
    await saveSection(admin, "payments", "Save payments", { "Offer test payments (sandbox)": false });

    // The settings page shows what was typed, digits as digits.
    await admin.goto("/admin/settings");
    const bank = admin.getByTestId("settings-bank-form");
    await expect(bank.getByLabel("Account number")).toHaveValue(ACCOUNT);
    await expect(bank.getByLabel("Routing number")).toHaveValue(ROUTING);
    // The company details page edits the same phone.
    await admin.goto("/admin/company");
    await expect(admin.getByTestId("company-form").getByLabel("Phone, local format")).toHaveValue(
      PHONE.local,
    );

    // Whichever process answers the next request knows: the settings are read again, not kept from before.
    await everyProcessShows(baseURL, `${NAME} is an independent online store`);

    // A shopper's next pages: the header, the footer, the titles and the About page.
    await page.goto("/");
    await expect(page).toHaveTitle(`Antivirus, Windows Licences, Printers & Routers | ${NAME}`);
    const headerPhone = page.getByTestId("site-header").getByTestId("company-phone").first();
    await expect(headerPhone).toContainText(PHONE.local);
    await expect(headerPhone).toHaveAttribute("href", `tel:${PHONE.international}`);
    await expect(page.locator("footer").last()).toContainText(PHONE.local);
    await expect(page.locator("footer").last()).toContainText(NAME);
    await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
    await page.goto("/about");
    await expect(page).toHaveTitle(`About Us | ${NAME}`);
    const about = page.getByTestId("page-body");
    await expect(about).toContainText(`${NAME} is an independent online store`);
    await expect(about).toContainText("Pay by bank transfer.");
    await expect(about).not.toContainText("by card");
    await expect(about).not.toContainText("KeyHaven");
    await page.goto("/shipping-policy");
    await expect(page.getByTestId("shipping-at-a-glance")).toContainText("$9.99 per order");

    // Checkout offers what is on: bank transfer, no sandbox; the order page and its e-mail carry the digits.
    await page.goto("/antivirus/norton/360-deluxe");
    await hydrated(page);
    await page.getByTestId("add-to-cart").click();
    await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
    await page.goto("/payment");
    await hydrated(page);
    await expect(page).toHaveTitle(new RegExp(`\\| ${NAME}$`));
    const buyer = `first.day.${randomInt(1e9)}@example.com`;
    await fillCheckout(page, { email: buyer });
    await expect(page.getByTestId("method-sandbox")).toHaveCount(0);
    await page.getByTestId("method-bank-transfer").check();
    await page.getByTestId("place-order").click();
    await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "pending_payment");
    const instructions = page.getByTestId("bank-instructions");
    await expect(instructions.getByTestId("bank-account-number")).toHaveText(ACCOUNT);
    await expect(instructions.getByTestId("bank-routing-number")).toHaveText(ROUTING);
    const number = Number(/\/order\/(\d+)/.exec(page.url())![1]);
    const mail = await waitForMail(
      baseURL,
      (m) => m.to === buyer && m.subject.startsWith(`Your order #${number}`),
    );
    expect(mail.subject).toBe(`Your order #${number} at ${NAME}`);
    expect(mail.text).toContain(`Account number: ${ACCOUNT}`);
    expect(mail.text).toContain(`Routing number: ${ROUTING}`);
    expect(mail.text).toContain(PHONE.local);
  } finally {
    await admin.goto("/admin/settings");
    await hydrated(admin);
    await saveSection(admin, "store", "Save store details", before.store);
    await saveSection(admin, "bank", "Save bank details", before.bank);
    await saveSection(admin, "shipping", "Save shipping", before.shipping);
    await saveSection(admin, "payments", "Save payments", { "Offer test payments (sandbox)": true });
    await admin.context().close();
  }
}
