import { expect } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { fillCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";
import { screenshot } from "./screenshots";

const PRODUCT = "/antivirus/bitdefender/total-security";
const SKU = "BD-TS-3D-2Y";

/** "Expires 29 November 2028": the date `months` from today, as the buyer reads it (UTC). */
function expiresIn(months: number) {
  const date = new Date();
  date.setUTCMonth(date.getUTCMonth() + months);
  return `Expires ${date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })}`;
}

test("a shopper picks a variant, sees its price in the page and its structured data, and gets its key with its expiry on the order page and in the e-mail", async ({
  page,
  baseURL,
}) => {
  // Its card costs what its variants cost: from the cheapest, struck against that variant's price before discount.
  await page.goto("/antivirus/bitdefender");
  const card = page.getByTestId("product-card").filter({ hasText: "Bitdefender Total Security" });
  await expect(card.getByTestId("card-price")).toHaveText("From $49.99");
  await expect(card).toContainText("$69.99");
  await card.getByRole("heading").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`${PRODUCT}$`));
  await hydrated(page);
  const option = page.locator(`[data-testid="variant-option"][data-sku="${SKU}"]`);
  await expect(option).toContainText("3 devices, 2 years");
  await option.click();
  await expect(page).toHaveURL(new RegExp(`\\?variant=${SKU}$`));
  await expect(option).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("product-price")).toContainText("$119.99");
  await expectAccessible(page, "a product with variants");
  await screenshot(page, "product-variants-desktop");

  // Each variant is a page of its own, its price in the HTML and an Offer of its own in the JSON-LD.
  const html = await (await page.request.get(`${PRODUCT}?variant=${SKU}`)).text();
  expect(html).toContain("$119.99");
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd.offers).toContainEqual(
    expect.objectContaining({ sku: SKU, name: "3 devices, 2 years", price: "119.99", priceCurrency: "USD" }),
  );
  expect(jsonLd.offers).toHaveLength(6);

  // A 360 px phone shows the picker without scrolling sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toContainText("3 devices, 2 years");
  await page.goto("/payment");
  await hydrated(page);
  await expect(page.getByTestId("summary-line")).toContainText("$119.99");
  const email = `variant-${Date.now()}@example.com`;
  await fillCheckout(page, { email, method: "sandbox" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+\?key=/);
  const number = /\/order\/(\d+)/.exec(page.url())![1]!;
  await expect(page.getByTestId("order-page")).toContainText(
    "Bitdefender Total Security (3 devices, 2 years)",
  );
  await expect(page.getByTestId("licence-key")).toHaveCount(1);
  const key = (await page.getByTestId("licence-key").textContent())!.trim();
  await expect(page.getByTestId("licence-key-expiry")).toHaveText(expiresIn(24));

  const receipt = await waitForMail(
    baseURL!,
    (mail) => mail.to === email && mail.subject === `Payment received for order #${number}`,
  );
  expect(receipt.text).toContain(key);
  expect(receipt.text).toContain(expiresIn(24));
});

test("the owner adds keys to one variant's pool, and is asked which variant first", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!);
  await page.goto(`/admin/keys?q=${encodeURIComponent("Bitdefender Total Security")}`);
  await page
    .getByTestId("pool-row")
    .filter({ hasText: "Bitdefender Total Security" })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByTestId("key-pool")).toBeVisible();
  await hydrated(page);
  const variant = page.getByTestId("key-import-variant");
  const optionText = async () => (await variant.locator(`option[value="BD-TS-1D-1Y"]`).textContent())!.trim();
  const before = Number(/(\d+) available$/.exec(await optionText())![1]);
  const batch = Date.now().toString(36).toUpperCase();
  await page.getByLabel("Paste keys, one per line").fill(`VAR-${batch}-0001\nVAR-${batch}-0002`);
  // The browser asks for the variant first; a post without one is refused by the store with what to do.
  await page.getByRole("button", { name: "Add keys" }).click();
  expect(await variant.evaluate((select: HTMLSelectElement) => select.validity.valueMissing)).toBe(true);
  await variant.selectOption("BD-TS-1D-1Y");
  await page.getByRole("button", { name: "Add keys" }).click();
  await expect(page.getByTestId("key-import-result")).toHaveText("Added 2 keys; 0 duplicates skipped.");
  await expect.poll(optionText).toContain(`${before + 2} available`);
  await screenshot(page, "admin-keys-variant");
});
