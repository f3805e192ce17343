import { readFileSync } from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { fillCheckout } from "./checkout-form";
import { waitForMail } from "./mail";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// A router no other test buys, so its stock is this test's alone.
const ROUTER = "/router/asus/rt-ax58u";
const NAME = "ASUS RT-AX58U";

async function productId(page: Page, route: string) {
  await page.goto(`/admin/products?q=${encodeURIComponent(route)}`);
  const href = await page
    .getByTestId("product-row")
    .first()
    .getByRole("link", { name: /^Edit/ })
    .getAttribute("href");
  return Number(/\/admin\/products\/(\d+)$/.exec(href ?? "")![1]);
}

/** Sets the stock and the out-of-stock rule in the admin's product form, as the owner does. */
async function setStock(admin: Page, id: number, stock: string, whenOut: "wait" | "refuse") {
  await admin.goto(`/admin/products/${id}`);
  await hydrated(admin);
  await admin.getByLabel("Stock (printers and routers)").fill(stock);
  await admin.getByLabel("When out of stock").selectOption(whenOut);
  await admin.getByRole("button", { name: /^Save/ }).click();
  await expect(admin.getByText(/saved/i).first()).toBeVisible();
}

/** A shopper in a browser of their own, with the router in the cart and the checkout filled in. */
async function shopperAtCheckout(browser: Browser, baseURL: string, email: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(ROUTER);
  await hydrated(page);
  await expect(page.getByTestId("product-availability")).toHaveText(
    "Only 1 left: shipped with tracking once paid",
  );
  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
  await page.goto("/payment");
  await hydrated(page);
  await expect(page.getByTestId("summary-availability")).toHaveText(
    "Only 1 left: shipped with tracking once paid",
  );
  await fillCheckout(page, { email, method: "bank-transfer" });
  return { context, page };
}

test("the last router goes to one of two shoppers ordering at once; the other is told it is out of stock", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, baseURL!);
  const id = await productId(page, ROUTER);
  await setStock(page, id, "1", "refuse");
  await page.goto(`/admin/products?q=${encodeURIComponent(ROUTER)}`);
  await hydrated(page);
  await expect(page.getByTestId("product-stock")).toHaveText("1 in stock");

  const first = await shopperAtCheckout(browser, baseURL!, "first.stock@example.com");
  const second = await shopperAtCheckout(browser, baseURL!, "second.stock@example.com");
  // Both press "Place order" at the same moment.
  await Promise.all([
    first.page.getByTestId("place-order").click(),
    second.page.getByTestId("place-order").click(),
  ]);
  const placed = async (shopper: Page) => {
    await expect(shopper.getByTestId("order-page").or(shopper.getByTestId("checkout-error"))).toBeVisible();
    return (await shopper.getByTestId("order-page").count()) > 0;
  };
  const outcomes = [await placed(first.page), await placed(second.page)];
  expect(outcomes.filter(Boolean)).toHaveLength(1);
  const winner = outcomes[0] ? first.page : second.page;
  const loser = outcomes[0] ? second.page : first.page;
  await expect(winner.getByTestId("order-page")).toHaveAttribute("data-status", "pending_payment");
  await expect(loser.getByTestId("checkout-error")).toHaveText(
    `${NAME} is out of stock and cannot be ordered now: remove it from your cart.`,
  );
  await expect(loser).toHaveURL(/\/payment$/);
  await screenshot(loser, "stock-refused");
  const number = /\/order\/(\d+)/.exec(winner.url())![1]!;
  const orderLink = winner.url();

  // The product page and the brand's cards now say it is out of stock, and it cannot be added.
  await loser.goto(ROUTER);
  await expect(loser.getByTestId("product-availability")).toHaveText("Unavailable: out of stock");
  await expect(loser.getByTestId("add-to-cart")).toBeDisabled();
  await loser.goto("/router/asus");
  await expect(
    loser.getByTestId("product-card").filter({ hasText: NAME }).getByTestId("card-stock"),
  ).toHaveText("Out of stock");
  await first.context.close();
  await second.context.close();

  // The owner sees it on the dashboard and in the list's stock filter.
  await page.goto("/admin");
  await expect(page.getByTestId("low-stock").getByRole("link", { name: new RegExp(NAME) })).toContainText(
    "Out of stock",
  );
  await page.goto("/admin/products?stock=out");
  await expect(page.getByTestId("product-row").filter({ hasText: NAME })).toHaveCount(1);

  // Cancelling the unpaid order puts the router back on sale.
  await page.goto(`/admin/orders/${number}`);
  await hydrated(page);
  const cancel = page.getByTestId("cancel-form");
  await cancel.getByLabel(`Yes, cancel order #${number}`).check();
  await cancel.getByRole("button", { name: "Cancel order" }).click();
  await expect(page.getByText(`Order #${number} is cancelled.`)).toBeVisible();
  await expect(page.getByText("1 unit back in stock")).toBeVisible();
  await expect(
    page.getByTestId("admin-order-line").filter({ hasText: NAME }).getByTestId("line-state"),
  ).toHaveText("Cancelled: not delivered");
  // The buyer is told, and told not to pay; their page no longer says the router ships once paid.
  const buyer = outcomes[0] ? "first.stock@example.com" : "second.stock@example.com";
  const cancelled = await waitForMail(
    baseURL!,
    (mail) => mail.to === buyer && mail.subject === `Your order #${number} is cancelled`,
  );
  expect(cancelled.text).toContain("Please do not send the bank transfer for it.");
  await page.goto(orderLink);
  await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "cancelled");
  await expect(page.getByTestId("line-delivery")).toHaveText("Cancelled: not delivered");
  await screenshot(page, "stock-order-cancelled");
  await page.goto(`/admin/orders/${number}`);
  // In words in the order's history, not the event's code.
  await expect(page.locator("[data-testid=order-event][data-type=stock_released]")).toContainText(
    "Back in stock: 1 unit back in stock",
  );
  await page.goto(ROUTER);
  await expect(page.getByTestId("product-availability")).toHaveText(
    "Only 1 left: shipped with tracking once paid",
  );

  // Backorders allowed: out of stock, it can still be ordered.
  await setStock(page, id, "0", "wait");
  await page.goto(ROUTER);
  await expect(page.getByTestId("product-availability")).toHaveText(
    "Out of stock: ships within 24 hours of payment",
  );
  await expect(page.getByTestId("add-to-cart")).toBeEnabled();
  await setStock(page, id, "25", "wait");
  await page.goto(ROUTER);
  await expect(page.getByTestId("product-availability")).toHaveText(
    "In stock: shipped with tracking once paid",
  );
});

test("the admin refuses a stock count for software and a bad number, beside the field", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!);
  const norton = await productId(page, "/antivirus/norton/360-deluxe");
  await page.goto(`/admin/products/${norton}`);
  await hydrated(page);
  await page.getByLabel("Stock (printers and routers)").fill("5");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByText("Software counts its licence keys: leave the stock empty")).toBeVisible();
  const router = await productId(page, ROUTER);
  await page.goto(`/admin/products/${router}`);
  await hydrated(page);
  await page.getByLabel("Stock (printers and routers)").fill("-3");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(
    page.getByText("Enter a whole number of units from 0 to 9999999, or leave it empty"),
  ).toBeVisible();
});

test("the product list exports its filtered products as a CSV the import reads back unchanged", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!);
  await page.goto("/admin/products?group=asus&sort=stock&dir=desc");
  await hydrated(page);
  await expect(page.getByRole("columnheader", { name: /Stock/ })).toHaveAttribute("aria-sort", "descending");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("export-products").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(new URL(download.url()).pathname).toBe("/admin/export/products.csv");
  const csv = readFileSync((await download.path())!, "utf8");
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe(
    "group,id,name,route,price,originalPrice,inrPrice,description,image,categories,specifications,hidden,stock,backorders",
  );
  // Only ASUS products, in the list's order.
  const rows = lines.slice(1).filter((line) => line.startsWith("asus,"));
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(lines.slice(1).every((line) => line.startsWith("asus,"))).toBe(true);

  await page.goto("/admin/products/import");
  await hydrated(page);
  // The page's example shows the stock columns too.
  await expect(page.getByTestId("import-example")).toContainText(",hidden,stock,backorders");
  await expect(page.getByTestId("import-example")).toContainText(",false,12,no");
  await page.getByLabel("CSV file").setInputFiles((await download.path())!);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(
    page.getByText(`: 0 created, 0 updated, ${lines.length - 1} unchanged.`, { exact: false }),
  ).toBeVisible();
});

test("the stock pieces pass axe and fit a 360 px phone", async ({ page, baseURL }) => {
  for (const path of [ROUTER, "/router/asus", "/cart"]) {
    await page.setViewportSize({ width: 360, height: 800 });
    expect((await page.goto(path))?.status(), path).toBe(200);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    await screenshot(page, `stock-${path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-360`);
    await expectAccessible(page, path);
  }
  await signInAsAdmin(page, baseURL!);
  for (const path of ["/admin", "/admin/products?stock=low&sort=stock", `/admin/products/new`]) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      expect((await page.goto(path))?.status(), path).toBe(200);
      await hydrated(page);
      if (width === 360) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
          360,
        );
      } else {
        await expectAccessible(page, path);
      }
      const name = path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "dashboard";
      await screenshot(page, `stock-${name}-${width}`);
    }
  }
});
