import { randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import pg from "pg";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";

// Runs against the server on PostgreSQL (see playwright.config.ts): the test moves an order's placing time back in
// the database, as three days passing would.

test("an unpaid bank-transfer order expires after three days: the buyer is told, the owner sees why in the list", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/storefront_e2e_${new URL(baseURL!).port}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const buyer = `slow.payer.${randomInt(1e9)}@example.com`;
    await addToCart(page, "/antivirus/norton/360-deluxe");
    await page.goto("/payment");
    await hydrated(page);
    await fillCheckout(page, { email: buyer, method: "bank-transfer" });
    await page.getByTestId("place-order").click();
    await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "pending_payment");
    const orderUrl = page.url();
    const number = Number(/\/order\/(\d+)/.exec(orderUrl)![1]);

    await db.query(`update orders set created_at = now() - interval '73 hours' where number = $1`, [number]);
    // Every process looks for orders past their time every ORDER_EXPIRY_INTERVAL_SECONDS (scripts/e2e-server.mjs).
    const mail = await waitForMail(
      baseURL!,
      (m) => m.to === buyer && m.subject === `Your order #${number} has expired`,
      30_000,
    );
    expect(mail.text).toContain("within 72 hours of placing it");

    await page.goto(orderUrl);
    await expect(page.getByTestId("order-page")).toHaveAttribute("data-status", "cancelled");
    await expect(page.getByTestId("cancel-reason")).toHaveText("Expired: not paid within 72 hours.");

    const admin = await (await browser.newContext({ baseURL })).newPage();
    await signInAsAdmin(admin, baseURL!, "/admin/orders");
    await admin.goto(`/admin/orders?q=${number}`);
    const row = admin.getByTestId("order-row").filter({ hasText: `#${number}` });
    await expect(row.getByTestId("cancel-reason")).toHaveText("Expired: not paid within 72 hours");
    await admin.goto(`/admin/orders/${number}`);
    await expect(admin.getByTestId("cancel-reason")).toHaveText("Expired: not paid within 72 hours");
    await expect(admin.getByText("Expired unpaid")).toBeVisible();
    await admin.context().close();
  } finally {
    await db.end();
  }
});
