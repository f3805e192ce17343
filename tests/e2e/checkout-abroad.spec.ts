import { type Browser, expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const NORTON = "/antivirus/norton/360-deluxe";
const PRINTER = "/printer/hp-color-laserjet-pro-mfp-m479fdw";

/** A billing address in Bengaluru, Karnataka: the demo store charges IGST there and ships nothing to India. */
const IN_BENGALURU = {
  city: "Bengaluru",
  postalCode: "560001",
  country: "IN",
  state: "KA",
  method: "sandbox",
} as const;

const billingCountry = (page: Page) => page.getByTestId("billing-address").getByLabel("Country");
const summaryLine = (page: Page, name: RegExp) => page.getByTestId("summary-line").filter({ hasText: name });

/** The owner's settings page, signed in, in a browser of its own. */
async function ownerSettings(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAsAdmin(page, baseURL, "/admin/settings");
  await page.goto("/admin/settings");
  await hydrated(page);
  return page;
}

async function shipTo(owner: Page, countries: { India: boolean }) {
  const form = owner.getByTestId("settings-shipping-form");
  await form.getByRole("checkbox", { name: "United States", exact: true }).check();
  await form.getByRole("checkbox", { name: "India", exact: true }).setChecked(countries.India);
  // The notice of an earlier save reads the same: wait for this save's answer, not for the notice alone.
  const saved = owner.waitForResponse(
    (response) =>
      response.request().method() === "POST" &&
      new URL(response.url()).pathname.startsWith("/admin/settings"),
  );
  await form.getByRole("button", { name: "Save shipping" }).click();
  expect((await saved).ok()).toBe(true);
  await expect(owner.getByTestId("action-notice")).toHaveText(
    "Shipping saved: checkout charges and offers it now.",
  );
}

test("billed in India with a printer: shipping and the printer's line say it cannot go there, not the billing country, and no GST is worked out on it", async ({
  page,
}) => {
  await addToCart(page, PRINTER);
  await addToCart(page, NORTON);
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: "abroad@example.com", ...IN_BENGALURU });

  // Shipped to the billing address: the shipping section and the printer's line say so; billing in India is fine.
  await expect(page.getByTestId("no-shipping-there")).toContainText("We do not ship to India");
  const printer = summaryLine(page, /LaserJet/);
  await expect(printer.getByTestId("summary-no-shipping")).toHaveText("We do not ship this to India");
  await expect(billingCountry(page)).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("billing-address")).not.toContainText("ship");

  // GST on the software only, none on a printer that cannot be sent there.
  await expect(printer.getByTestId("summary-line-tax")).toHaveCount(0);
  const norton = summaryLine(page, /Norton/);
  await expect(norton.getByTestId("summary-line-tax")).toHaveText(/^IGST 18%/);
  const nortonTax = (await norton.getByTestId("summary-line-tax").textContent())!;
  await expect(page.getByTestId("summary-tax")).toHaveText([nortonTax.split(" ").at(-1)!]);
  await expect(page.getByTestId("summary-tax-note")).toHaveText(
    "No tax is worked out on printers and routers: we do not ship them to India",
  );
  await expect(page.getByTestId("place-order")).toBeDisabled();
  await expect(page.getByTestId("place-order-no-shipping")).toBeVisible();
  await screenshot(page, "checkout-india-printer");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "checkout-india-printer-390");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Shipped to New York instead: nothing is refused any more, and the order is placed with its billing in India.
  await page.getByLabel("Ship to my billing address").uncheck();
  const shipping = page.getByTestId("shipping-address");
  await shipping.getByLabel("Full name").fill("Ada Lovelace");
  await shipping.getByLabel("Street address").fill("1 Example Street");
  await shipping.getByLabel("City").fill("New York");
  await shipping.getByLabel("Postal code").fill("10001");
  await shipping.getByLabel("State").selectOption("NY");
  await expect(page.getByTestId("no-shipping-there")).toHaveCount(0);
  await expect(page.getByTestId("summary-no-shipping")).toHaveCount(0);
  await expect(printer.getByTestId("summary-line-tax")).toHaveText(/^NY sales tax 4%/);
  await expect(billingCountry(page)).not.toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "checkout-india-printer-shipped-elsewhere");
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+\?key=/);
});

test("when the store stops shipping to India during checkout, its refusal is said at the shipping choice and leaves the billing country alone", async ({
  page,
  browser,
  baseURL,
}) => {
  const owner = await ownerSettings(browser, baseURL!);
  try {
    await shipTo(owner, { India: true });
    await addToCart(page, PRINTER);
    await page.goto("/payment");
    await hydrated(page);
    await fillCheckout(page, { email: "abroad@example.com", ...IN_BENGALURU });
    await expect(page.getByTestId("summary-line")).toHaveCount(1);
    await expect(page.getByTestId("no-shipping-there")).toHaveCount(0);
    await expect(page.getByTestId("place-order")).toBeEnabled();

    await shipTo(owner, { India: false });
    await page.getByTestId("place-order").click();
    await expect(page.getByTestId("no-shipping-there")).toContainText("We do not ship to India");
    await expect(page).toHaveURL(/\/payment$/);
    await expect(billingCountry(page)).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("billing-address")).not.toContainText("ship");
    await expect(page.getByTestId("no-shipping-there")).toBeFocused();
    await screenshot(page, "checkout-india-refused");

    // Shipping elsewhere: the billing address in India stays as it was, unmarked.
    await page.getByLabel("Ship to my billing address").uncheck();
    await expect(page.getByTestId("no-shipping-there")).toHaveCount(0);
    await expect(page.getByTestId("shipping-address")).toBeVisible();
    await expect(billingCountry(page)).toHaveValue("IN");
    await expect(billingCountry(page)).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("billing-address")).not.toContainText("ship");
  } finally {
    await shipTo(owner, { India: false });
    await owner.context().close();
  }
});
