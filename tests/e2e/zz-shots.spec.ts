import { randomInt } from "node:crypto";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";

test("shots", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInAsAdmin(admin, baseURL!, "/admin/settings");
  await addToCart(page, "/antivirus/norton/360-deluxe");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, { email: `shot.${randomInt(1e9)}@example.com`, method: "bank-transfer" });
  await page.getByTestId("place-order").click();
  await page.waitForURL(/\/order\/\d+/);
  const orderUrl = page.url();
  const number = Number(/\/order\/(\d+)/.exec(orderUrl)![1]);
  await admin.goto(`/admin/orders/${number}`);
  await hydrated(admin);
  await admin.getByLabel(`Yes, cancel order #${number}`).check();
  await admin.getByRole("button", { name: "Cancel order" }).click();
  await admin.waitForTimeout(1500);
  for (const width of [390, 1280]) {
    await admin.setViewportSize({ width, height: 900 });
    await admin.goto(`/admin/orders/${number}`);
    await admin.screenshot({ path: `/tmp/shots/admin-order-${width}.png`, fullPage: false });
    await admin.goto(`/admin/orders?q=${number}`);
    await admin.screenshot({ path: `/tmp/shots/admin-orders-${width}.png` });
    await page.setViewportSize({ width, height: 900 });
    await page.goto(orderUrl);
    await page.screenshot({ path: `/tmp/shots/order-${width}.png` });
  }
  await admin.goto("/admin/invoices");
  await admin.setViewportSize({ width: 1280, height: 900 });
  await admin.screenshot({ path: `/tmp/shots/invoices-1280.png` });
});
