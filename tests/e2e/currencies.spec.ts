import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import {
  convertCents,
  DEFAULT_INR_RATE,
  formatMoney,
  parseMoney,
  toDecimalString,
} from "../../app/lib/money";
import { pdfText } from "../support/pdf";
import { expectAccessible } from "./axe";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { customerPage, fillCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Prices in rupees (docs/decisions/0039-prices-in-two-currencies.md): the shopper's choice, the page cache, the
// checkout and what the order leaves behind.

const NORTON = "/antivirus/norton/360-deluxe";
const ROUTER = "/router/tplink/archer-c80"; // below the free-shipping threshold: shipping is charged
const PHONE = { width: 360, height: 780 };

/** A dollar price as the page shows it ("$49.99"), as the store works it out in rupees at its default rate. */
const rupeeCents = (dollars: string) =>
  convertCents(parseMoney(dollars.replace(/[$,]/g, "")), "INR", DEFAULT_INR_RATE);
const inRupees = (dollars: string) => formatMoney(rupeeCents(dollars), "INR");

/** The offer in a product page's structured data. */
const offerOf = async (page: Page) =>
  JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!).offers;

async function fitsPhone(page: Page, label: string) {
  await page.setViewportSize(PHONE);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${label} at 360 px`,
  ).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, `currencies-${label}-phone`);
  await screenshot(
    page.getByTestId(label === "product" ? "site-header" : "order-page"),
    `currencies-${label}-top-phone`,
  );
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a shopper switches to rupees and buys in rupees, while another sees dollars on the same kept page", async ({
  browser,
  page: owner,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const run = `${Date.now().toString(36)}${randomInt(1000)}`;
  const buyer = `rupees.${run}@example.com`;
  const shopper = await customerPage(browser, baseURL!);
  const other = await customerPage(browser, baseURL!);

  // The page as a visitor in dollars sees it, kept by the page cache.
  const first = await other.goto(NORTON);
  const dollars = /\$[\d,]+\.\d\d/.exec((await other.getByTestId("product-price").textContent())!)![0];
  expect(first?.headers()["vary"]).toMatch(/Cookie/);

  // `?currency=INR` keeps the choice and comes back to the page without it: the same address, in rupees.
  const chosen = await shopper.goto(`${NORTON}?currency=INR`);
  expect(new URL(shopper.url()).search).toBe("");
  expect(chosen?.headers()["x-cache"]).toBe("miss");
  await hydrated(shopper);
  await expect(shopper.getByTestId("product-price")).toContainText(inRupees(dollars));
  await expect(shopper.getByTestId("currency-INR")).toHaveAttribute("aria-current", "true");
  // Kept for each currency: the next visit of each is served from the cache, each in its own currency.
  const again = await shopper.reload();
  expect(again?.headers()["x-cache"]).toBe("hit");
  await expect(shopper.getByTestId("product-price")).toContainText(inRupees(dollars));
  const kept = await other.reload();
  expect(kept?.headers()["x-cache"]).toBe("hit");
  await expect(other.getByTestId("product-price")).toContainText(dollars);
  await expect(other.getByTestId("currency-USD")).toHaveAttribute("aria-current", "true");
  // Each page's structured data offers the price it shows, in its currency.
  expect(await offerOf(shopper)).toMatchObject({
    price: toDecimalString(rupeeCents(dollars)),
    priceCurrency: "INR",
  });
  expect(await offerOf(other)).toMatchObject({ price: dollars.replace(/[$,]/g, ""), priceCurrency: "USD" });
  await expectAccessible(shopper, "product page in rupees");
  await fitsPhone(shopper, "product");

  // An unknown currency is refused, and the choice kept stays.
  const refused = await shopper.request.get(`${NORTON}?currency=EUR`, { maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("USD (US dollars) or INR (Indian rupees)");

  // The owner gives the router a price of its own in rupees: it replaces the rate's, on its page and in the order.
  await signInAsAdmin(owner, baseURL!, "/admin/products?q=Archer+C80");
  await owner.getByRole("link", { name: /^Edit TP-Link Archer C80/ }).click();
  const rupeeField = owner.getByLabel("Price in rupees (INR)");
  await rupeeField.fill("0");
  await owner.getByRole("button", { name: "Save changes" }).click();
  await expect(
    owner.getByText("The price in rupees must be above 0, or leave it empty for the rate's"),
  ).toBeVisible();
  await rupeeField.fill("3333.00");
  await owner.getByRole("button", { name: "Save changes" }).click();
  await expect(owner.getByTestId("action-notice")).toBeVisible();
  await shopper.goto(ROUTER);
  await expect(shopper.getByTestId("product-price")).toContainText("₹3,333.00");
  expect(await offerOf(shopper)).toMatchObject({ price: "3333.00", priceCurrency: "INR" });

  // The cart and checkout in rupees, priced by the server.
  await shopper.goto(NORTON);
  await hydrated(shopper);
  await shopper.getByTestId("add-to-cart").click();
  await addToCart(shopper, ROUTER);
  await shopper.goto("/cart");
  await hydrated(shopper);
  const nortonLine = shopper.getByTestId("cart-line").filter({ hasText: "Norton" });
  await expect(nortonLine.getByTestId("cart-line-price")).toHaveText(inRupees(dollars));
  const routerLine = shopper.getByTestId("cart-line").filter({ hasText: "Archer C80" });
  await expect(routerLine.getByTestId("cart-line-price")).toHaveText("₹3,333.00");
  await expect(shopper.getByTestId("cart-shipping")).toHaveText(inRupees("$14.99"));
  await shopper.getByTestId("to-payment").click();
  await expect(shopper).toHaveURL(/\/payment$/);
  await fillCheckout(shopper, { email: buyer, method: "sandbox" });
  await expect(shopper.getByTestId("summary-shipping")).toHaveText(inRupees("$14.99"));
  const total = (await shopper.getByTestId("summary-total").textContent())!.trim();
  expect(total).toMatch(/^₹[\d,]+\.\d\d$/);
  await shopper.getByTestId("place-order").click();

  // The order, its e-mail and its invoice are in rupees.
  await expect(shopper).toHaveURL(/\/order\/\d+\?key=/);
  await expect(shopper.getByTestId("order-total")).toHaveText(total);
  await expect(shopper.getByTestId("order-shipping")).toHaveText(inRupees("$14.99"));
  const number = /\/order\/(\d+)/.exec(shopper.url())![1]!;
  const receipt = await waitForMail(
    baseURL!,
    (mail) => mail.to === buyer && mail.subject === `Payment received for order #${number}`,
  );
  expect(receipt.text).toContain(`We have received your payment of ${total}.`);
  expect(receipt.text).not.toContain("$");
  const invoice = receipt.attachments.find((file) => file.filename.endsWith(".pdf"))!;
  const text = await pdfText(invoice.content);
  expect(text).toContain("Currency: INR");
  expect(text).toContain(`Total ${total}`);
  await expect(shopper.getByTestId("order-line").filter({ hasText: "Archer C80" })).toContainText(
    "₹3,333.00",
  );
  await screenshot(shopper, "currencies-order");
  await fitsPhone(shopper, "order");

  // The other visitor still sees dollars on the page the cache keeps for dollars.
  await other.goto(NORTON);
  await expect(other.getByTestId("product-price")).toContainText(dollars);
  await shopper.context().close();
  await other.context().close();
});
