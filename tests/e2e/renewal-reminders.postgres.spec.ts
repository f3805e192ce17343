import { randomInt } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { addToCart } from "./cart";
import { payWithSandbox } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { confirmationLink, sentMail, waitForMail } from "./mail";
import { screenshot } from "./screenshots";

// Runs against the server on PostgreSQL (see playwright.config.ts): the test moves a key's expiry near in the
// database, as eleven months passing would, and every process looks for reminders every 3 s (scripts/e2e-server.mjs).

const PRODUCT = "/antivirus/bitdefender/total-security";
const SKU = "BD-TS-1D-1Y";

/** The page fits a 360 px phone without scrolling sideways. */
async function fitsPhone(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function buyOneYearLicence(page: Page, quantity: number) {
  await addToCart(page, `${PRODUCT}?variant=${SKU}`, quantity);
  return payWithSandbox(page);
}

test("the owner turns renewal reminders on; a customer gets the 30-day reminder once, renews from it, unsubscribes in one click and turns them back on", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/storefront_e2e_${new URL(baseURL!).port}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const admin = await (await browser.newContext({ baseURL })).newPage();
  try {
    // The owner switches reminders on; days that cannot be are refused beside the field.
    await signInAsAdmin(admin, baseURL!, "/admin/settings");
    await admin.goto("/admin/settings");
    await hydrated(admin);
    const form = admin.getByTestId("settings-renewals-form");
    const days = form.getByLabel("Days before expiry");
    await expect(days).toHaveValue("30, 7, 0");
    await form.getByLabel("Send renewal reminders").check();
    await days.fill("30, 7, 7");
    await form.getByRole("button", { name: "Save renewal reminders" }).click();
    await expect(form.getByText("7 is there twice: give each day once")).toBeVisible();
    await days.fill("30, 400");
    await form.getByRole("button", { name: "Save renewal reminders" }).click();
    await expect(form.getByText("400 is too many days: at most 365")).toBeVisible();
    await expectAccessible(admin, "settings, renewal days refused");
    await days.fill("30, 7, 0");
    await form.getByRole("button", { name: "Save renewal reminders" }).click();
    await expect(admin).toHaveURL(/[?&]done=renewals$/);
    await admin.reload();
    await expect(form.getByLabel("Send renewal reminders")).toBeChecked();
    await expect(days).toHaveValue("30, 7, 0");

    // A customer with an account buys two one-year keys.
    const address = `renewals-${randomInt(1e9)}@example.com`;
    await page.goto("/user/login");
    await hydrated(page);
    const signUp = page.getByTestId("sign-up-form");
    await signUp.getByLabel("Your name").fill("Grace Hopper");
    await signUp.getByLabel("E-mail address").fill(address);
    await signUp.getByLabel("Choose a password").fill("correct horse battery");
    await signUp.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByTestId("sign-up-sent")).toBeVisible();
    await page.goto(await confirmationLink(baseURL!, address));
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    const number = await buyOneYearLicence(page, 2);
    const { rows: keys } = await db.query<{ id: number; key_hint: string; user_id: string }>(
      `select k.id, k.key_hint, o.user_id from licence_keys k
         join order_lines l on l.id = k.order_line_id join orders o on o.id = l.order_id
        where o.number = $1 order by k.id`,
      [number],
    );
    expect(keys).toHaveLength(2);
    const [first, second] = keys as [(typeof keys)[number], (typeof keys)[number]];
    const in30Days = `(date_trunc('day', now() at time zone 'UTC') + interval '30 days 12 hours') at time zone 'UTC'`;
    const subject = "Your Bitdefender Total Security licence expires in 30 days";
    const reminderOf = (hint: string) => (mail: { to: string; subject: string; text: string }) =>
      mail.to === address && mail.subject === subject && mail.text.includes(hint);

    // Eleven months on, for the first key: its 30-day reminder arrives.
    await db.query(`update licence_keys set expires_at = ${in30Days} where id = $1`, [first.id]);
    const mail = await waitForMail(baseURL!, reminderOf(first.key_hint), 30_000);
    expect(mail.text).toMatch(/expires on \d{1,2} [A-Z][a-z]+ \d{4}, in 30 days\./);
    expect(mail.text).toContain(`order #${number}`);
    expect(mail.text).toContain("Bitdefender Total Security (1 device, 1 year)");
    const renew = /Renew: (\S+)/.exec(mail.text)![1]!;
    expect(renew).toBe(`${baseURL}${PRODUCT}?variant=${SKU}`);
    const unsubscribe = /No more renewal reminders: (\S+)/.exec(mail.text)![1]!;
    expect(mail.headers["list-unsubscribe"]).toBe(`<${unsubscribe}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // Then the second key: once its reminder is in, the job has looked again since, and sent the first no second.
    await db.query(`update licence_keys set expires_at = ${in30Days} where id = $1`, [second.id]);
    await waitForMail(baseURL!, reminderOf(second.key_hint), 30_000);
    expect((await sentMail(baseURL!)).filter(reminderOf(first.key_hint))).toHaveLength(1);

    // The owner's dashboard lists them among the licences expiring in the next 30 days.
    await admin.goto("/admin");
    const renewals = admin.getByTestId("renewals");
    await expect(renewals.getByTestId("renewals-expiring-list")).toContainText(address);
    expect(
      Number(await renewals.getByTestId("renewals-expiring-count").textContent()),
    ).toBeGreaterThanOrEqual(2);
    await expect(
      renewals.getByTestId("renewals-expiring-list").getByText(`${address}`).first(),
    ).toContainText("reminded");

    // The unsubscribe link asks first (a mail scanner opening it changes nothing), then unsubscribes.
    const fresh = await (await browser.newContext({ baseURL })).newPage();
    await fresh.goto(unsubscribe);
    await hydrated(fresh);
    await expect(fresh.getByRole("heading", { level: 1 })).toHaveText("Renewal reminders");
    await expectAccessible(fresh, "unsubscribe from renewal reminders");
    await fitsPhone(fresh, "reminders-unsubscribe");
    const optedOut = async () =>
      (await db.query(`select 1 from renewal_reminder_opt_outs where user_id = $1`, [first.user_id]))
        .rowCount;
    expect(await optedOut()).toBe(0);
    await fresh.getByRole("button", { name: "Unsubscribe from renewal reminders" }).click();
    await expect(fresh.getByTestId("reminders-off")).toHaveText(
      "You are unsubscribed: we send you no more renewal reminders.",
    );
    await expectAccessible(fresh, "unsubscribed from renewal reminders");
    await fitsPhone(fresh, "reminders-unsubscribed");
    expect(await optedOut()).toBe(1);
    await fresh.context().close();

    // The customer's licences page says so, and turns them back on.
    await page.goto("/user/licences");
    await hydrated(page);
    const card = page.getByTestId("renewal-reminders");
    await expect(card.getByTestId("renewal-reminders-state")).toHaveText(
      "Off: you get no e-mails before your licences expire.",
    );
    await expectAccessible(page, "my licences, reminders off");
    await fitsPhone(page, "licences-reminders-off");
    await card.getByRole("button", { name: "Turn renewal reminders on" }).click();
    await expect(card.getByTestId("renewal-reminders-state")).toHaveText(
      "On: we e-mail you before a licence expires, with a link to renew it.",
    );
    await expect.poll(optedOut).toBe(0);

    // A mail program's one-click unsubscribe: a POST of List-Unsubscribe=One-Click, no page, no sign-in.
    const oneClick = await fetch(unsubscribe, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await optedOut()).toBe(1);
    await page.reload();
    await expect(card.getByTestId("renewal-reminders-state")).toHaveText(
      "Off: you get no e-mails before your licences expire.",
    );
    // A forged link is refused, and changes nothing.
    const forged = await fetch(unsubscribe.replace(/token=[^.]+/, "token=ZTpzb21lb25lQGV4YW1wbGUuY29t"), {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    expect(forged.status).toBe(400);

    // Renew opens the same variant; bought again, it is a renewal won on the dashboard.
    await page.goto(renew);
    await hydrated(page);
    await expect(page.getByTestId("add-to-cart")).toBeVisible();
    const renewal = await buyOneYearLicence(page, 1);
    // Test payments are test orders, which the dashboard leaves out: this one is taken as a real payment.
    await db.query(`update orders set is_test = false where number = $1`, [renewal]);
    await admin.goto("/admin");
    await expect(admin.getByTestId("renewals-won-orders")).toHaveText("1 order, 1 after a reminder");
    await expect(admin.getByTestId("renewals-expiring-list").getByText(address).first()).toContainText(
      "renewed",
    );
    await expectAccessible(admin, "dashboard with renewals");
    await fitsPhone(admin, "dashboard-renewals");
  } finally {
    await admin.context().close();
    await db.end();
  }
});
