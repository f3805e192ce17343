import { expect, type Page } from "@playwright/test";
import { sentMail, waitForMail } from "./mail";
import { fillCheckout } from "./checkout-form";
import { addToCart } from "./cart";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const NORTON = "/antivirus/norton/360-deluxe";
const ROUTER = "/router/tplink/archer-c80"; // below the free-shipping threshold
const WINDOWS = "/windows/windows7/professional";

const cartCount = (page: Page) => page.getByTestId("cart-count");

test.describe("buying as a guest", () => {
  test("browse, fill the cart, survive a reload, pay with the sandbox and get a licence key by e-mail", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/");
    await hydrated(page);
    await expect(cartCount(page)).toHaveText("0");
    // Browse to a product through the catalogue.
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Antivirus" }).click();
    await page
      .getByRole("link", { name: /Norton/ })
      .first()
      .click();
    await page.goto(NORTON);
    await hydrated(page);
    await page.getByTestId("add-to-cart").click();
    await expect(cartCount(page)).toHaveText("1");
    await addToCart(page, ROUTER);
    await addToCart(page, WINDOWS, 2);
    await expect(cartCount(page)).toHaveText("4");

    await page.getByTestId("cart-link").click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId("cart-line")).toHaveCount(3);
    const windowsLine = page.getByTestId("cart-line").filter({ hasText: "Windows 7 Professional" });
    await windowsLine.getByRole("button", { name: /One fewer/ }).click();
    await expect(windowsLine.getByTestId("cart-line-quantity")).toHaveValue("1");
    const nortonLine = page.getByTestId("cart-line").filter({ hasText: "Norton" });
    await nortonLine.getByRole("button", { name: /One more/ }).click();
    await expect(nortonLine.getByTestId("cart-line-quantity")).toHaveValue("2");
    await windowsLine.getByTestId("cart-line-remove").click();
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(cartCount(page)).toHaveText("3");

    // The cart survives a reload and a new tab.
    await page.reload();
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(cartCount(page)).toHaveText("3");
    const other = await page.context().newPage();
    await other.goto("/cart");
    await hydrated(other);
    await expect(other.getByTestId("cart-line")).toHaveCount(2);
    await other.close();
    await expect(page.getByTestId("cart-shipping")).toHaveText("$14.99");

    await expect(page.getByTestId("cart-page")).toHaveAttribute("data-to-payment", "false");
    await page.getByTestId("to-payment").click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByTestId("checkout-header")).toBeVisible();
    await expect(page.getByTestId("shipping-fieldset")).toBeVisible();
    await fillCheckout(page, { email: "guest.buyer@example.com", method: "sandbox" });
    await expect(page.getByTestId("summary-shipping")).toHaveText("$14.99");
    await page.getByTestId("place-order").click();

    await expect(page).toHaveURL(/\/order\/\d+\?key=/);
    await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "paid"); // the router still ships
    await expect(page.getByTestId("order-shipping")).toHaveText("$14.99");
    const keys = page.getByTestId("licence-key");
    await expect(keys).toHaveCount(2);
    const firstKey = (await keys.first().textContent())!;
    expect(firstKey).toMatch(/^DEMO-/);
    // The order is stored: the cart is empty now.
    await expect(cartCount(page)).toHaveText("0");
    await screenshot(page, "order-confirmation");

    const number = page.url().match(/\/order\/(\d+)/)![1]!;
    const receipt = await waitForMail(
      baseURL!,
      (mail) => mail.subject === `Payment received for order #${number}`,
    );
    expect(receipt.to).toBe("guest.buyer@example.com");
    expect(receipt.text).toContain(firstKey);
    await waitForMail(baseURL!, (mail) => mail.subject.startsWith(`Your order #${number}`));
  });

  test("paying by bank transfer leaves the order waiting for payment, with instructions and no keys yet", async ({
    page,
  }) => {
    await addToCart(page, NORTON);
    await page.goto("/payment");
    await hydrated(page);
    await fillCheckout(page, { email: "transfer@example.com", method: "bank-transfer" });
    await expect(page.getByTestId("shipping-fieldset")).toHaveCount(0); // software only
    await page.getByTestId("place-order").click();
    await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "pending_payment");
    await expect(page.getByTestId("order-status")).toHaveText("Waiting for payment");
    await expect(page.getByTestId("bank-instructions")).toContainText(/Reference\s*Order \d+/);
    await expect(page.getByTestId("licence-key")).toHaveCount(0);
  });

  test("a double click places one order", async ({ page, baseURL }) => {
    await addToCart(page, NORTON);
    await page.goto("/payment");
    await hydrated(page);
    // Its own address, so a retry's e-mails are not counted with an earlier try's.
    const email = `double-${Date.now()}@example.com`;
    await fillCheckout(page, { email, method: "sandbox" });
    await page.getByTestId("place-order").dblclick();
    await expect(page).toHaveURL(/\/order\/\d+/);
    const number = Number(page.url().match(/\/order\/(\d+)/)![1]);
    // The outbox sends one e-mail at a time in no promised order: wait for both of the order's.
    await waitForMail(baseURL!, (mail) => mail.subject === `Payment received for order #${number}`);
    await waitForMail(baseURL!, (mail) => mail.subject.startsWith(`Your order #${number} `));
    const mine = (await sentMail(baseURL!)).filter((mail) => mail.to === email);
    // One order: no e-mail about any other order number.
    expect(mine.map((mail) => /#(\d+)/.exec(mail.subject)?.[1])).toEqual(mine.map(() => String(number)));
    expect(mine.filter((mail) => mail.subject.startsWith("Your order #"))).toHaveLength(1);
  });

  test("a router billed to a country the store does not ship to: the checkout says so at once, not at the end", async ({
    page,
  }) => {
    await addToCart(page, ROUTER);
    await page.goto("/payment");
    await hydrated(page);
    await expect(page.getByTestId("no-shipping-there")).toHaveCount(0);
    await page.getByTestId("billing-address").getByLabel("Country").selectOption("IN");
    await expect(page.getByTestId("no-shipping-there")).toHaveText(
      "We do not ship to India: untick “Ship to my billing address” and give a shipping address we ship to.",
    );
    await screenshot(page, "checkout-no-shipping-there");
    await page.getByLabel("Ship to my billing address").uncheck();
    await expect(page.getByTestId("no-shipping-there")).toHaveCount(0);
    await page.getByLabel("Ship to my billing address").check();
    await page.getByTestId("billing-address").getByLabel("Country").selectOption("US");
    await expect(page.getByTestId("no-shipping-there")).toHaveCount(0);
  });

  test("the checkout says what is wrong beside each field", async ({ page }) => {
    await addToCart(page, ROUTER);
    await page.goto("/payment");
    await hydrated(page);
    await page.getByLabel("E-mail address").fill("not-an-email");
    await page.getByLabel("Ship to my billing address").uncheck();
    // A code not of the country chosen: the message says what one looks like.
    await page.getByTestId("billing-address").getByLabel("Postal code").fill("ABCDE");
    await page.getByTestId("place-order").click();
    await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
    await expect(page.getByTestId("billing-address").getByLabel("Postal code")).toHaveAccessibleDescription(
      "Enter a postal code used in the United States, like 10001 or 10001-1234",
    );
    // The first field to fix has the focus, as for the server's answer.
    await expect(page.getByLabel("E-mail address")).toBeFocused();
    await expect(page.getByTestId("billing-address").getByText("Enter the full name")).toBeVisible();
    await expect(page.getByText("Please accept the terms and conditions to place the order")).toBeVisible();
    await expect(page).toHaveURL(/\/payment$/);
    await screenshot(page, "checkout-errors");
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(page, "checkout-errors-360");
    // Nothing was placed: the cart is still there.
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("cart")!).length)).toBe(1);
  });
});

test.describe("the cart's stored data", () => {
  test("a stored cart that is not a list is discarded and logged; unparsable storage is logged and defaulted", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    // Each cart is stored before the page's scripts run (a later init script's wins): a running page may read and
    // replace it at any moment, and what it logs just before a navigation can be lost with the page.
    await page.addInitScript(() =>
      localStorage.setItem("cart", JSON.stringify({ groupKey: "Norton", id: "1", quantity: 1 })),
    );
    await page.goto("/cart");
    await expect(page.getByTestId("empty-cart")).toBeVisible();
    await expect(cartCount(page)).toHaveText("0");
    await expect.poll(() => errors.some((text) => text.includes("cart is not an array"))).toBe(true);

    await page.addInitScript(() => localStorage.setItem("cart", "[{oops"));
    await page.reload();
    await expect(page.getByTestId("empty-cart")).toBeVisible();
    await expect.poll(() => errors.some((text) => text.includes("Failed to parse stored cart"))).toBe(true);
  });

  test("the to-payment flag starts as the text false", async ({ page }) => {
    await page.goto("/cart");
    await expect(page.getByTestId("cart-page")).toHaveAttribute("data-to-payment", "false");
  });

  test("the server owns prices: a cart edited to 0.01 is shown and charged the catalogue price", async ({
    page,
  }) => {
    await page.goto("/");
    await page.evaluate(() =>
      localStorage.setItem(
        "cart",
        JSON.stringify([{ groupKey: "Norton", id: "1", name: "Norton", priceCents: 1, quantity: 1 }]),
      ),
    );
    await page.goto("/cart");
    const line = page.getByTestId("cart-line");
    await expect(line.getByTestId("price-changed")).toBeVisible();
    const price = (await line.getByTestId("cart-line-price").textContent())!;
    expect(price).not.toBe("$0.01");
    await page.goto("/payment");
    await hydrated(page);
    await fillCheckout(page, { email: "tamper@example.com", method: "sandbox" });
    await page.getByTestId("place-order").click();
    await expect(page.getByTestId("order-total")).toHaveText(price);
  });

  test("a product that no longer exists is flagged, not kept silently", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() =>
      localStorage.setItem(
        "cart",
        JSON.stringify([{ groupKey: "Norton", id: "gone", name: "Old Norton bundle", quantity: 1 }]),
      ),
    );
    await page.goto("/cart");
    await hydrated(page);
    await expect(page.getByTestId("cart-line-unavailable")).toContainText(
      "Old Norton bundle is no longer available",
    );
    await expect(page.getByTestId("to-payment")).toBeDisabled();
    await page.getByTestId("cart-line-unavailable").getByRole("button", { name: "Remove" }).click();
    await expect(page.getByTestId("empty-cart")).toBeVisible();
  });
});

test("another person's order page is not found, and a guest can look an order up by number and e-mail", async ({
  page,
  request,
}) => {
  await addToCart(page, NORTON);
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: "owner@example.com", method: "sandbox" });
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+\?key=/);
  const number = page.url().match(/\/order\/(\d+)/)![1]!;

  expect((await request.get(`/order/${number}`)).status()).toBe(404);
  expect((await request.get(`/order/${number}?key=guessed-key-guessed-key-guessed1`)).status()).toBe(404);
  expect(
    (
      await request.get(`/order/${Number(number) - 1}?key=${new URL(page.url()).searchParams.get("key")}`)
    ).status(),
  ).toBe(404);

  await page.goto("/order/lookup");
  await hydrated(page);
  await page.getByLabel("Order number").fill(number);
  await page.getByLabel("E-mail address").fill("someone.else@example.com");
  await page.getByRole("button", { name: "Find my order" }).click();
  await expect(page.getByRole("alert")).toContainText("could not find an order");
  await page.getByLabel("E-mail address").fill("OWNER@example.com");
  await page.getByRole("button", { name: "Find my order" }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${number}\\?key=`));
  await expect(page.getByTestId("licence-key")).toHaveCount(1);
});
