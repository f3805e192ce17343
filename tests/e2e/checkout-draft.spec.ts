import { expect, type Page } from "@playwright/test";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";

const NORTON = "/antivirus/norton/360-deluxe";
const ROUTER = "/router/tplink/archer-c80";

const billing = (page: Page) => page.getByTestId("billing-address");
const shipping = (page: Page) => page.getByTestId("shipping-address");

test("what the shopper typed at checkout survives a trip back to the cart and a reload, and is gone once the order is placed", async ({
  page,
}) => {
  await addToCart(page, NORTON);
  await addToCart(page, ROUTER);
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, {
    email: "kept.form@example.com",
    name: "Grace Hopper",
    street: "12 Harbour Road",
    city: "Lucknow",
    postalCode: "226001",
    country: "IN",
    state: "UP",
    method: "bank-transfer",
  });
  await page.getByTestId("buyer-tax-id").fill("09ABCDE1234F1Z5");
  await page.getByLabel("Ship to my billing address").uncheck();
  await shipping(page).getByLabel("Full name").fill("Grace Hopper");
  await shipping(page).getByLabel("Street address").fill("5 Pier Street");
  await shipping(page).getByLabel("City").fill("Albany");
  await shipping(page).getByLabel("Postal code").fill("12207");
  await shipping(page).getByLabel("State").selectOption("NY");

  // Back to the cart the way the checkout offers, and on to payment again.
  await page.getByTestId("checkout-header").getByTestId("cart-link").click();
  await expect(page).toHaveURL(/\/cart$/);
  await page.getByTestId("to-payment").click();
  await expect(page).toHaveURL(/\/payment$/);

  const expectKept = async () => {
    await expect(page.getByLabel("E-mail address")).toHaveValue("kept.form@example.com");
    await expect(billing(page).getByLabel("Full name")).toHaveValue("Grace Hopper");
    await expect(billing(page).getByLabel("Street address")).toHaveValue("12 Harbour Road");
    await expect(billing(page).getByLabel("City")).toHaveValue("Lucknow");
    await expect(billing(page).getByLabel("Postal code")).toHaveValue("226001");
    await expect(billing(page).getByLabel("Country")).toHaveValue("IN");
    await expect(billing(page).getByLabel(/^State/)).toHaveValue("UP");
    await expect(page.getByTestId("buyer-tax-id")).toHaveValue("09ABCDE1234F1Z5");
    await expect(page.getByLabel("Ship to my billing address")).not.toBeChecked();
    await expect(shipping(page).getByLabel("Street address")).toHaveValue("5 Pier Street");
    await expect(shipping(page).getByLabel("City")).toHaveValue("Albany");
    await expect(shipping(page).getByLabel("State")).toHaveValue("NY");
    await expect(page.getByTestId("method-bank-transfer")).toBeChecked();
    // A consent is given afresh each time.
    await expect(page.getByLabel(/I accept the/)).not.toBeChecked();
    // Taxed where the router ships, as before: New York's tax, not India's.
    await expect(page.getByTestId("summary-line").first().getByTestId("summary-line-tax")).toHaveText(
      /^NY sales tax/,
    );
  };
  await expectKept();
  await page.reload();
  await hydrated(page);
  await expectKept();

  // Kept in this tab only, and only the fields named: nothing else of the form.
  const stored = await page.evaluate(() => ({
    session: sessionStorage.getItem("checkout-draft"),
    local: Object.keys(localStorage),
  }));
  expect(Object.keys(JSON.parse(stored.session!)).sort()).toEqual([
    "billing",
    "buyerTaxId",
    "email",
    "paymentMethod",
    "shipToBilling",
    "shipping",
  ]);
  expect(stored.local).not.toContain("checkout-draft");

  // Ticking the box and unticking it again brings the shipping address back as typed.
  await page.getByLabel("Ship to my billing address").check();
  await page.getByLabel("Ship to my billing address").uncheck();
  await expect(shipping(page).getByLabel("Street address")).toHaveValue("5 Pier Street");

  await page.getByLabel(/I accept the/).check();
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+\?key=/);
  await expect(page.getByTestId("order-page")).toBeVisible();
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem("checkout-draft"))).toBeNull();

  // The next checkout starts empty.
  await addToCart(page, NORTON);
  await page.goto("/payment");
  await hydrated(page);
  await expect(page.getByTestId("checkout")).toBeVisible();
  await expect(page.getByLabel("E-mail address")).toHaveValue("");
  await expect(billing(page).getByLabel("Full name")).toHaveValue("");
  await expect(page.getByTestId("buyer-tax-id")).toHaveValue("");
});
