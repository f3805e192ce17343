import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { signInAsAdmin, topUpKeys } from "./admin";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { sentMail, waitForMail } from "./mail";
import { screenshot } from "./screenshots";

// A router no other test buys or restocks, so its stock is this test's alone.
const ROUTER = "/router/netgear/nighthawk-rs700s";
const NAME = "Netgear Nighthawk RS700S";

/** The page fits a 360 px phone without scrolling sideways, and passes axe. */
async function checkPage(page: Page, name: string) {
  await hydrated(page);
  await expectAccessible(page, name);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Sets the router's stock in the admin's product form, as the owner does; out of stock, orders are refused. */
async function setStock(admin: Page, stock: number) {
  await admin.goto(`/admin/products?q=${encodeURIComponent(ROUTER)}`);
  await admin.getByTestId("product-row").first().getByRole("link", { name: /^Edit/ }).click();
  await hydrated(admin);
  await admin.getByLabel("Stock (printers and routers)").fill(String(stock));
  await admin.getByLabel("When out of stock").selectOption("refuse");
  await admin.getByRole("button", { name: /^Save/ }).click();
  await expect(admin.getByText(/saved/i).first()).toBeVisible();
}

test("a visitor asks to be told when a router is back, confirms by the e-mailed link, and gets one e-mail when the owner restocks it", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInAsAdmin(admin, baseURL!, "/admin/products");
  await setStock(admin, 0);

  // The cached product page offers the same plain form to everyone: it works without JavaScript...
  const plain = await (await browser.newContext({ baseURL, javaScriptEnabled: false })).newPage();
  await plain.goto(ROUTER);
  await plain.getByLabel("E-mail me once when it is back").fill(`plain-${randomInt(1e9)}@example.com`);
  await plain.getByRole("button", { name: "Notify me" }).click();
  await expect(plain.getByTestId("stock-alert-status")).toHaveText("Check your inbox to confirm.");

  // ...and with it.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(ROUTER);
  await hydrated(visitor);
  await expect(visitor.getByTestId("product-availability")).toHaveAttribute("data-status", "unavailable");
  const form = visitor.getByTestId("notify-me-form");
  await checkPage(visitor, "back-in-stock form");
  const address = `restock-${randomInt(1e9)}@example.com`;
  await form.getByLabel("E-mail me once when it is back").fill(address);
  await form.getByRole("button", { name: "Notify me" }).click();
  await expect(visitor).toHaveURL(/\/stock-alerts$/);
  await expect(visitor.getByTestId("stock-alert-status")).toHaveText("Check your inbox to confirm.");
  await expect(visitor).toHaveTitle(/Back-in-stock alert/);
  await checkPage(visitor, "back-in-stock requested");

  // The confirmation is the only e-mail until it is used; the link asks, the button confirms.
  const confirmation = await waitForMail(
    baseURL!,
    (mail) => mail.to === address && mail.subject === `Confirm: e-mail me when ${NAME} is back`,
  );
  await visitor.goto(/Confirm: (\S+)/.exec(confirmation.text)![1]!);
  await checkPage(visitor, "back-in-stock confirm");
  await visitor.getByRole("button", { name: "Confirm the alert" }).click();
  await expect(visitor.getByTestId("stock-alert-status")).toContainText("Confirmed");

  // The owner restocks it: one e-mail arrives, with the product's link and a one-click way out.
  await setStock(admin, 4);
  const back = await waitForMail(
    baseURL!,
    (mail) => mail.to === address && mail.subject === `${NAME} is back in stock`,
    30_000,
  );
  expect(back.text).toContain(`${baseURL}${ROUTER}`);
  const stop = /Stop every back-in-stock e-mail: (\S+)/.exec(back.text)![1]!;
  expect(back.headers["list-unsubscribe"]).toBe(`<${stop}>`);
  expect(back.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  await visitor.goto(stop);
  await checkPage(visitor, "back-in-stock stop");
  await visitor.getByRole("button", { name: "Stop back-in-stock e-mails" }).click();
  await expect(visitor.getByTestId("stock-alert-status")).toContainText("Done");

  // Back in stock, the page shows no form; the done request got its one e-mail and the confirmation, nothing else.
  await setStock(admin, 0);
  await setStock(admin, 2);
  await visitor.goto(ROUTER);
  await expect(visitor.getByTestId("notify-me-form")).toHaveCount(0);
  expect((await sentMail(baseURL!)).filter((mail) => mail.to === address)).toHaveLength(2);
});

test("a licence whose key pool is empty: the e-mail comes once the owner tops the pool up", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const run = `${Date.now().toString(36)}${randomInt(1000)}`;
  const name = `Restock Antivirus ${run}`;
  const route = `/antivirus/norton/restock-${run}`;
  // A licence of its own, with no keys and not taking orders that wait for them: unavailable.
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signInAsAdmin(admin, baseURL!, "/admin/products/new");
  const product = admin.getByTestId("product-form");
  await product.getByLabel("Brand group").selectOption("Norton");
  await product.getByLabel("Product id").fill(`restock-${run}`);
  await product.getByLabel("Name", { exact: true }).fill(name);
  await product.getByLabel("Page address").fill(route);
  await product.getByLabel("Price (USD)", { exact: true }).fill("19.99");
  await product.getByLabel("Description", { exact: true }).fill(`${name}, made by the end-to-end tests.`);
  await product.getByLabel("Image address").fill("/placeholder/product/restock.svg");
  await product.getByLabel("When out of stock").selectOption("refuse");
  await admin.getByRole("button", { name: "Create product" }).click();
  await expect(admin).toHaveURL(/\/admin\/products\/\d+\?saved=created$/);

  const address = `pool-${randomInt(1e9)}@example.com`;
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await visitor.goto(route);
  await expect(visitor.getByTestId("product-availability")).toHaveAttribute("data-status", "unavailable");
  await visitor.getByLabel("E-mail me once when it is back").fill(address);
  await visitor.getByRole("button", { name: "Notify me" }).click();
  await expect(visitor.getByTestId("stock-alert-status")).toHaveText("Check your inbox to confirm.");
  const confirmation = await waitForMail(
    baseURL!,
    (mail) => mail.to === address && mail.subject === `Confirm: e-mail me when ${name} is back`,
  );
  await visitor.goto(/Confirm: (\S+)/.exec(confirmation.text)![1]!);
  await visitor.getByRole("button", { name: "Confirm the alert" }).click();
  await expect(visitor.getByTestId("stock-alert-status")).toContainText("Confirmed");

  // The owner adds a key on /admin/keys: the pool can sell again, and the one e-mail goes.
  await topUpKeys(browser, baseURL!, route, 1);
  const back = await waitForMail(
    baseURL!,
    (mail) => mail.to === address && mail.subject === `${name} is back in stock`,
    30_000,
  );
  expect(back.text).toContain(`${baseURL}${route}`);
  await visitor.goto(route);
  await expect(visitor.getByTestId("notify-me-form")).toHaveCount(0);
});
