import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { confirmationLink, waitForMail } from "./mail";
import { screenshot } from "./screenshots";

// Runs against the server on PostgreSQL (see playwright.config.ts): the test moves the saved cart's last change a day
// back in the database, as a day passing would; every process looks for reminders every 3 s (scripts/e2e-server.mjs).

const PRODUCT = "/antivirus/bitdefender/total-security";

async function checkPage(page: Page, name: string) {
  await hydrated(page);
  await expectAccessible(page, name);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a signed-in customer's cart left a day gets one reminder, whose link puts the cart back and whose unsubscribe works in one click", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/storefront_e2e_${new URL(baseURL!).port}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const admin = await (await browser.newContext({ baseURL })).newPage();
  try {
    // The owner switches the reminders on.
    await signInAsAdmin(admin, baseURL!, "/admin/settings");
    await admin.goto("/admin/settings");
    await hydrated(admin);
    const form = admin.getByTestId("settings-savedCarts-form");
    await form.getByLabel("Send saved-cart reminders").check();
    await form.getByLabel("Hours after the cart's last change").fill("24");
    await form.getByRole("button", { name: "Save saved-cart reminders" }).click();
    await expect(admin).toHaveURL(/[?&]done=savedCarts$/);

    // A customer signs up and fills a cart while shopping in rupees: the browser tells the store both.
    const address = `saved-cart-${randomInt(1e9)}@example.com`;
    await page.goto("/user/login");
    await hydrated(page);
    const signUp = page.getByTestId("sign-up-form");
    await signUp.getByLabel("Your name").fill("Ada Cart");
    await signUp.getByLabel("E-mail address").fill(address);
    await signUp.getByLabel("Choose a password").fill("correct horse battery");
    await signUp.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByTestId("sign-up-sent")).toBeVisible();
    await page.goto(await confirmationLink(baseURL!, address));
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await page.goto(`${PRODUCT}?currency=INR`);
    await hydrated(page);
    const told = page.waitForResponse((response) => response.url().endsWith("/api/cart/saved"));
    await page.getByTestId("add-to-cart").click();
    expect((await told).status()).toBe(200);

    // A day later, one reminder with the line at today's price, in rupees.
    await db.query(
      `update saved_carts set updated_at = now() - interval '25 hours'
        where user_id = (select id from "user" where email = $1)`,
      [address],
    );
    const mail = await waitForMail(
      baseURL!,
      (sent) => sent.to === address && sent.subject === "You left something in your cart",
      30_000,
    );
    expect(mail.text).toMatch(/1 × Bitdefender Total Security.*: ₹[\d,]+\.\d\d/);
    const restore = /Back to your cart: (\S+)/.exec(mail.text)![1]!;
    const unsubscribe = /No more cart reminders: (\S+)/.exec(mail.text)![1]!;
    expect(mail.headers["list-unsubscribe"]).toBe(`<${unsubscribe}>`);

    // The link puts the cart back in a browser that lost it.
    await page.evaluate(() => localStorage.removeItem("cart"));
    await page.goto(restore);
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByText("Bitdefender Total Security").first()).toBeVisible();

    // The unsubscribe link asks first, then unsubscribes; no sign-in needed.
    const fresh = await (await browser.newContext({ baseURL })).newPage();
    await fresh.goto(unsubscribe);
    await expect(fresh).toHaveTitle(/Cart reminders/);
    await checkPage(fresh, "saved-cart unsubscribe");
    await fresh.getByRole("button", { name: "Unsubscribe from cart reminders" }).click();
    await expect(fresh.getByTestId("saved-cart-reminders-off")).toBeVisible();
    await checkPage(fresh, "saved-cart unsubscribed");
    const { rowCount } = await db.query(
      `select 1 from saved_cart_opt_outs where user_id = (select id from "user" where email = $1)`,
      [address],
    );
    expect(rowCount).toBe(1);
    await fresh.context().close();
  } finally {
    await admin.context().close();
    await db.end();
  }
});
