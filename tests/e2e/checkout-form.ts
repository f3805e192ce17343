import { randomUUID } from "node:crypto";
import { type APIRequestContext, type Browser, expect, type Page } from "@playwright/test";
import { freshClientAddress } from "../support/store-process";
import { hydrated } from "./hydrated";

type CheckoutForm = {
  /** Left as it is when undefined (a signed-in customer's is filled in already). */
  email?: string;
  name?: string;
  street?: string;
  city?: string;
  postalCode?: string;
  country?: string;
  state?: string;
  acceptTerms?: boolean;
  /** The payment method's test id suffix: sandbox, bank-transfer, card... */
  method?: string;
};

/** Fills the checkout at /payment as a customer does: e-mail, billing address, the terms and a payment method. */
export async function fillCheckout(
  page: Page,
  {
    email,
    name = "Ada Lovelace",
    street = "1 Example Street",
    city = "New York",
    postalCode = "10001",
    country,
    state,
    acceptTerms = true,
    method,
  }: CheckoutForm = {},
) {
  if (email !== undefined) await page.getByLabel("E-mail address").fill(email);
  const billing = page.getByTestId("billing-address");
  await billing.getByLabel("Full name").fill(name);
  await billing.getByLabel("Street address").fill(street);
  await billing.getByLabel("City").fill(city);
  await billing.getByLabel("Postal code").fill(postalCode);
  if (country !== undefined) await billing.getByLabel("Country").selectOption(country);
  if (state !== undefined) await billing.getByLabel(/^State/).selectOption(state);
  if (acceptTerms) await page.getByLabel(/I accept the/).check();
  if (method !== undefined) await page.getByTestId(`method-${method}`).check();
}

/** The checkout as the payment page posts it, for a test that places an order without the form. */
/** Pays for the browser's cart at /payment with the test payment (the customer's e-mail filled in); the order's number. */
export async function payWithSandbox(page: Page): Promise<number> {
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { method: "sandbox" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  return Number(/\/order\/(\d+)/.exec(page.url())![1]);
}

export const postedCheckout = (email: string, cart: unknown, paymentMethod = "sandbox") => ({
  idempotencyKey: randomUUID(),
  email,
  "billing.name": "Ada Lovelace",
  "billing.line1": "1 Example Street",
  "billing.city": "New York",
  "billing.postalCode": "10001",
  "billing.country": "US",
  shipToBilling: "on",
  paymentMethod,
  cart: JSON.stringify(cart),
  acceptTerms: "on",
});

type CartLine = { groupKey: string; id: string; quantity: number };

/** Places a sandbox order the way the checkout form posts it; returns its number and its secret link. */
export async function placePostedOrder(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  cart: CartLine[],
) {
  const response = await request.post("/payment", {
    form: postedCheckout(email, cart),
    headers: { Origin: baseURL, "X-Forwarded-For": freshClientAddress() },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  const location = response.headers()["location"]!.replace(/&placed=1$/, "");
  return { number: Number(/\/order\/(\d+)/.exec(location)![1]), path: location };
}

/** A page in a browser of the buyer's own (no admin session), from an address of its own. */
export async function customerPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": freshClientAddress() },
  });
  return context.newPage();
}
