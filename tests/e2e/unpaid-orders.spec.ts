import { randomInt } from "node:crypto";
import { expect } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout, postedCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";

const software = [{ groupKey: "Norton", id: "1", quantity: 1 }];

test("a shopper who has placed ten unpaid orders in an hour is told at checkout to pay them or wait", async ({
  page,
  baseURL,
}) => {
  // Ten orders placed, then the checkout in the browser: past 60 s on the slowest machine yet.
  test.setTimeout(120_000);
  for (let n = 0; n < 10; n++) {
    const placed = await page.request.post("/payment", {
      form: postedCheckout(`flood.${randomInt(1e9)}@example.com`, software, "bank-transfer"),
      headers: { origin: new URL(baseURL!).origin },
      maxRedirects: 0,
    });
    expect(placed.status(), `unpaid order ${n + 1}`).toBe(302);
  }
  await addToCart(page, "/antivirus/norton/360-deluxe");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: `eleventh.${randomInt(1e9)}@example.com`, method: "bank-transfer" });
  await page.getByTestId("place-order").click();
  await expect(page.getByText(/You have placed several unpaid orders in a short time\./)).toBeVisible();
  await expect(
    page.getByText(/Pay for those first, or wait (an hour|\d+ minutes) before placing another\./),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/payment$/);
  // A test payment is paid at once: it is not held back.
  await page.getByTestId("method-sandbox").check();
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
});

test("the owner sets how long unpaid orders wait; a wrong number is refused beside its field", async ({
  browser,
  baseURL,
}) => {
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInAsAdmin(admin, baseURL!, "/admin/settings");
  await admin.goto("/admin/settings");
  await hydrated(admin);
  const payments = admin.getByTestId("settings-payments-form");
  const bank = payments.getByLabel("Bank transfer orders expire after (hours)");
  const card = payments.getByLabel("Card checkouts expire after (hours)");
  await expect(bank).toHaveValue("72");
  await expect(card).toHaveValue("2");
  await bank.fill("0");
  await card.fill("25");
  await payments.getByRole("button", { name: "Save payments" }).click();
  await expect(payments.getByText("At least 1 hour")).toBeVisible();
  await expect(payments.getByText("At most 24 hours")).toBeVisible();
  await bank.fill("48");
  await card.fill("1");
  await payments.getByRole("button", { name: "Save payments" }).click();
  await expect(admin).toHaveURL(/[?&]done=payments$/);
  await admin.reload();
  await expect(payments.getByLabel("Bank transfer orders expire after (hours)")).toHaveValue("48");
  await expect(payments.getByLabel("Card checkouts expire after (hours)")).toHaveValue("1");
  await payments.getByLabel("Bank transfer orders expire after (hours)").fill("72");
  await payments.getByLabel("Card checkouts expire after (hours)").fill("2");
  await payments.getByRole("button", { name: "Save payments" }).click();
  await expect(admin).toHaveURL(/[?&]done=payments$/);
  await admin.context().close();
});
