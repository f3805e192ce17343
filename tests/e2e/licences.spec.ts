import { expect, type Page } from "@playwright/test";
import { signInAsAdmin, topUpKeys } from "./admin";
import { expectAccessible } from "./axe";
import { addToCart } from "./cart";
import { payWithSandbox } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { confirmationLink, waitForMail } from "./mail";
import { screenshot } from "./screenshots";

const PRODUCT = "/antivirus/bitdefender/total-security";
const SKU = "BD-TS-1D-1Y";

async function signUpAndConfirm(page: Page, baseURL: string, address: string) {
  await page.goto("/user/login");
  await hydrated(page);
  const form = page.getByTestId("sign-up-form");
  await form.getByLabel("Your name").fill("Grace Hopper");
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Choose a password").fill("correct horse battery");
  await form.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("sign-up-sent")).toBeVisible();
  await page.goto(await confirmationLink(baseURL, address));
  await expect(page).toHaveURL(/\/user\/dashboard$/);
}

/** Buys one licence of SKU with the test payment, signed in; gives the order's page, number and key. */
async function buyOneLicence(page: Page) {
  await addToCart(page, `${PRODUCT}?variant=${SKU}`);
  const number = await payWithSandbox(page);
  return {
    orderPath: new URL(page.url()).pathname + new URL(page.url()).search,
    number,
    key: (await page.getByTestId("licence-key").textContent())!.trim(),
  };
}

/** Reveals the customer's one licence at /user/licences and reports its key as broken; gives the licence. */
async function reportTheKey(page: Page, key: string, problem: string) {
  await page.goto("/user/licences");
  await hydrated(page);
  const licence = page.getByTestId("licence");
  await licence.getByTestId("licence-reveal").click();
  await expect(licence.getByTestId("licence-key")).toHaveText(key);
  await licence.getByText("This key does not work").click();
  await licence.getByLabel(/What happens when you use it/).fill(problem);
  await licence.getByRole("button", { name: /Report it/ }).click();
  await expect(licence.getByTestId("licence-reported")).toBeVisible();
  return licence;
}

/** The page fits a 360 px phone without scrolling sideways. */
async function fitsPhone(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a customer buys a licence, finds it hidden at /user/licences, reveals it (with and without scripts), copies it and renews it", async ({
  page,
  browser,
  baseURL,
}) => {
  const address = `licences-${Date.now().toString(36)}@example.com`;
  await signUpAndConfirm(page, baseURL!, address);
  await page.getByTestId("licences-card").getByRole("link", { name: "See your licences" }).click();
  await expect(page).toHaveURL(/\/user\/licences$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My licences");
  await expect(page.getByTestId("user-licences")).toContainText("No licences yet");
  await expect(page.getByRole("link", { name: "Browse the catalogue" })).toHaveAttribute(
    "href",
    "/categories",
  );
  await expectAccessible(page, "no licences yet");
  await fitsPhone(page, "licences-empty");

  // Buy a one-year licence with the sandbox payment.
  const { number, key } = await buyOneLicence(page);
  await expect(page.getByTestId("licence-key")).toHaveCount(1);

  // The account's section lists it: the hint, never the key, until revealed.
  await page.goto("/user/orders");
  await page
    .getByRole("navigation", { name: "Account sections" })
    .getByRole("link", { name: "Licences" })
    .click();
  await expect(page).toHaveURL(/\/user\/licences$/);
  await hydrated(page);
  const licence = page.getByTestId("licence");
  await expect(licence).toHaveCount(1);
  await expect(licence.getByRole("heading")).toHaveText("Bitdefender Total Security");
  await expect(licence.getByTestId("licence-variant")).toHaveText("1 device, 1 year");
  await expect(licence.getByTestId("licence-order")).toHaveText(`Order #${number}`);
  await expect(licence.getByTestId("licence-order")).toHaveAttribute("href", `/order/${number}`);
  await expect(licence.getByTestId("licence-expiry")).toHaveText(
    /^Expires \d{1,2} [A-Z][a-z]+ \d{4} · 36[56] days left$/,
  );
  await expect(licence.getByTestId("licence-hint")).toHaveText(`••••${key.slice(-4).toUpperCase()}`);
  await expect(licence.getByTestId("licence-download")).toHaveAttribute(
    "href",
    "https://www.example.com/support/bitdefender",
  );
  // Nor does the page the server sends (its HTML and its data) hold the key.
  const response = await page.request.get("/user/licences");
  expect(response.headers()["cache-control"]).toBe("private, no-store");
  const served = await response.text();
  expect(served.includes(`••••${key.slice(-4).toUpperCase()}`), "the hint is served").toBe(true);
  expect(served.includes(key), "the key is not served").toBe(false);
  await expectAccessible(page, "my licences");
  await screenshot(page, "licences-desktop");
  await fitsPhone(page, "licences-hidden");

  // Without scripts the form posts and the page comes back with that key shown.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noScript.newPage();
  await plain.goto(`${baseURL}/user/licences`);
  await plain.getByTestId("licence-reveal").click();
  await expect(plain.getByTestId("licence-key")).toHaveText(key);
  await noScript.close();

  // With scripts it is revealed in place, then copied.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await licence.getByTestId("licence-reveal").click();
  await expect(licence.getByTestId("licence-key")).toHaveText(key);
  await licence.getByTestId("licence-copy").click();
  await expect(licence.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expectAccessible(page, "my licences, a key revealed");
  await screenshot(page, "licences-revealed");
  await fitsPhone(page, "licences-revealed");

  // A key that is not the customer's is not found; a post without a key is refused; neither is a server error.
  const origin = { Origin: baseURL! };
  const foreign = await page.request.post("/user/licences", {
    form: { intent: "reveal", keyId: "2147483646" },
    headers: origin,
  });
  expect(foreign.status()).toBe(404);
  const junk = await page.request.post("/user/licences", {
    form: { intent: "reveal", keyId: "x" },
    headers: origin,
  });
  expect(junk.status()).toBe(400);

  // "This key does not work": a reason of 10 to 500 characters, then the page says it is being checked.
  const keyId = (await licence.getAttribute("data-key-id"))!;
  const tooShort = await page.request.post("/user/licences", {
    form: { intent: "report", keyId, reason: "broken" },
    headers: origin,
  });
  expect(tooShort.status()).toBe(400);
  const notTheirs = await page.request.post("/user/licences", {
    form: { intent: "report", keyId: "2147483646", reason: "It does not activate at all." },
    headers: origin,
  });
  expect(notTheirs.status()).toBe(404);
  await licence.getByText("This key does not work").click();
  await licence
    .getByLabel(/What happens when you use it/)
    .fill("The activation page says the key is not valid.");
  await expectAccessible(page, "my licences, the report form open");
  await licence.getByRole("button", { name: /Report it/ }).click();
  await expect(licence.getByTestId("licence-reported")).toHaveText("Reported: we are checking it");
  await page.reload();
  await expect(licence.getByTestId("licence-reported")).toHaveText("Reported: we are checking it");
  await screenshot(page, "licences-reported");
  await hydrated(page);

  // Renew: the same variant into the cart, and on to the cart.
  await licence.getByTestId("licence-renew").click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  await expect(page.getByTestId("cart-line")).toContainText("1 device, 1 year");
});

test("a key reported broken is replaced from the owner's queue, e-mailed and shown instead; a rejected report shows the store's reply", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // A pool with keys to spare for the purchase and its replacement, whatever earlier tests bought.
  await topUpKeys(browser, baseURL!, PRODUCT, 3, SKU);
  const address = `reports-${Date.now().toString(36)}@example.com`;
  await signUpAndConfirm(page, baseURL!, address);

  // The header's account menu leads to the licences beside the orders.
  await hydrated(page);
  await page.getByTestId("user-menu-toggle").click();
  await page
    .getByRole("navigation", { name: "Your account" })
    .getByRole("link", { name: "Licences" })
    .click();
  await expect(page).toHaveURL(/\/user\/licences$/);

  const { orderPath, number, key: oldKey } = await buyOneLicence(page);

  // The customer reveals the key and reports it.
  const licence = await reportTheKey(page, oldKey, "The installer says this key was already used.");

  // The owner sees it waiting on the dashboard, reaches the queue from the key pools and replaces it.
  const owner = await browser.newContext({ baseURL });
  const admin = await owner.newPage();
  await signInAsAdmin(admin, baseURL!);
  await expect(
    admin
      .getByTestId("work-queue")
      .getByRole("link", { name: /Keys reported broken/ })
      .locator("span")
      .last(),
  ).not.toHaveText("0");
  await admin.goto("/admin/keys");
  await admin.getByTestId("key-reports-link").click();
  await expect(admin).toHaveURL(/\/admin\/key-reports$/);
  await hydrated(admin);
  const report = admin.getByTestId("key-report").filter({ hasText: `Order #${number}` });
  await expect(report).toHaveCount(1);
  await expect(report.getByRole("heading")).toContainText("Bitdefender Total Security");
  await expect(report.getByRole("heading")).toContainText("1 device, 1 year");
  await expect(report).toContainText(`••••${oldKey.slice(-4).toUpperCase()}`);
  await expect(report.getByTestId("key-report-customer")).toContainText(address);
  await expect(report).toContainText("The installer says this key was already used.");
  await expect(report).toContainText(/reported (just now|\d+ minutes? ago)/);
  await expect(report.getByRole("link", { name: `Order #${number}` })).toHaveAttribute(
    "href",
    `/admin/orders/${number}`,
  );
  expect(await admin.content()).not.toContain(oldKey);
  await expectAccessible(admin, "the key reports queue");
  await fitsPhone(admin, "key-reports-open");

  // The admin menu counts the reports waiting, and one fewer once this one is answered.
  const waitingCount = admin
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: /^Key reports/ })
    .locator("span");
  const waiting = Number(await waitingCount.textContent());
  expect(waiting).toBeGreaterThanOrEqual(1);
  await report.getByRole("button", { name: /Replace the key/ }).click();
  await expect(admin.getByTestId("action-notice")).toContainText(
    `Replaced: Bitdefender Total Security (1 device, 1 year) of order #${number}`,
  );
  await expect(admin.getByTestId("key-report").filter({ hasText: `Order #${number}` })).toHaveCount(0);
  await expect(waitingCount).toHaveText(String(waiting - 1));
  await admin
    .getByRole("navigation", { name: "Report status" })
    .getByRole("link", { name: "Replaced" })
    .click();
  const replaced = admin.getByTestId("key-report").filter({ hasText: `Order #${number}` });
  await expect(replaced.getByTestId("key-report-status")).toHaveText("Replaced");
  await expect(replaced.getByTestId("key-report-answer")).toContainText("Replaced by ••••");
  await screenshot(admin, "key-reports-replaced");
  // The order's page says the old key was replaced as broken, not revoked by a refund.
  await replaced.getByRole("link", { name: `Order #${number}` }).click();
  await expect(admin.getByTestId("replaced-key-hint")).toContainText(oldKey.slice(-4).toUpperCase());
  await expect(admin.getByTestId("revoked-key-hint")).toHaveCount(0);
  await expect(admin.getByTestId("key-hint")).toHaveCount(1);

  // The customer gets the new key by e-mail, on their licences page and on the order page; the old key is gone.
  const mail = await waitForMail(
    baseURL!,
    (sent) => sent.to === address && sent.subject.startsWith("A new licence key for"),
  );
  const newKey = /Bitdefender Total Security \(1 device, 1 year\): (\S+)/.exec(mail.text)![1]!;
  expect(newKey).not.toBe(oldKey);
  expect(mail.text).toMatch(/Expires \d{1,2} [A-Z][a-z]+ \d{4}/);
  await page.reload();
  await hydrated(page);
  await expect(licence).toHaveCount(1);
  await expect(licence.getByTestId("licence-reported")).toHaveCount(0);
  await expect(licence.getByTestId("licence-hint")).toHaveText(`••••${newKey.slice(-4).toUpperCase()}`);
  await expect(licence.getByTestId("licence-expiry")).toHaveText(/ · 36[56] days left$/);
  await licence.getByTestId("licence-reveal").click();
  await expect(licence.getByTestId("licence-key")).toHaveText(newKey);
  await page.goto(orderPath);
  await expect(page.getByTestId("licence-key")).toHaveText(newKey);
  expect(await page.content()).not.toContain(oldKey);

  // Reported again, the owner turns it down with a reply (none is refused beside the field).
  await page.goto("/user/licences");
  await hydrated(page);
  await licence.getByText("This key does not work").click();
  await licence.getByLabel(/What happens when you use it/).fill("The new key does not activate either.");
  await licence.getByRole("button", { name: /Report it/ }).click();
  await expect(licence.getByTestId("licence-reported")).toBeVisible();
  await admin.goto("/admin/key-reports");
  await hydrated(admin);
  const second = admin.getByTestId("key-report").filter({ hasText: `Order #${number}` });
  await second.locator("summary", { hasText: "Reject" }).click();
  const replyField = second.getByLabel(/Your reply to the customer/);
  // The browser would stop a blank reply itself: sent anyway, the server refuses it too.
  await replyField.fill("  ");
  await second
    .getByTestId("key-report-reject")
    .evaluate((form) => ((form as HTMLFormElement).noValidate = true));
  await second.getByRole("button", { name: "Reject and send the reply" }).click();
  await expect(admin.getByTestId("action-notice")).toContainText("Write the customer a short reply");
  const again = admin.getByTestId("key-report").filter({ hasText: `Order #${number}` });
  await expect(again.getByLabel(/Your reply to the customer/)).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(admin, "the key reports queue, a reply refused");
  const reply = "This key activates at central.bitdefender.com: sign in there first, then add the key.";
  await again.getByLabel(/Your reply to the customer/).fill(reply);
  await again.getByRole("button", { name: "Reject and send the reply" }).click();
  await expect(admin.getByTestId("action-notice")).toContainText(
    `Rejected: the customer of order #${number}`,
  );
  await owner.close();

  const refusal = await waitForMail(
    baseURL!,
    (sent) => sent.to === address && sent.subject.startsWith("About your licence key for"),
  );
  expect(refusal.text).toContain(reply);
  await page.reload();
  await expect(licence.getByTestId("licence-report-reply")).toContainText(reply);
  await expect(licence.getByTestId("licence-reported")).toHaveCount(0);
  await expect(licence.getByText("This key does not work")).toBeVisible();
  await expectAccessible(page, "my licences, a report turned down");
  await fitsPhone(page, "licences-report-rejected");
});

test("refunding an order closes its key's open report: out of the queue, under Refunded, and the licence gone from the customer's page", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await topUpKeys(browser, baseURL!, PRODUCT, 2, SKU);
  const address = `refunded-report-${Date.now().toString(36)}@example.com`;
  await signUpAndConfirm(page, baseURL!, address);
  const { number, key } = await buyOneLicence(page);
  await reportTheKey(page, key, "It says the key is for another region.");

  const owner = await browser.newContext({ baseURL });
  const admin = await owner.newPage();
  await signInAsAdmin(admin, baseURL!, "/admin/key-reports");
  await hydrated(admin);
  await expect(admin.getByTestId("key-report").filter({ hasText: `Order #${number}` })).toHaveCount(1);
  const waitingCount = admin
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: /^Key reports/ })
    .locator("span");
  const waiting = Number(await waitingCount.textContent());

  // The owner refunds the whole order instead of answering the report.
  await admin.goto(`/admin/orders/${number}`);
  await hydrated(admin);
  const form = admin.getByTestId("refund-form");
  await form.getByLabel(/^Everything left/).check();
  await form.getByLabel("Reason (optional, told to the customer)").fill("Wrong region for this customer");
  await form.getByLabel(`Yes, refund order #${number}`).check();
  await form.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(admin.getByTestId("action-notice")).toContainText(
    `The refund of order #${number} is recorded`,
  );

  // Nothing is left to answer: the report is out of the open queue and counted no more.
  await admin.goto("/admin/key-reports");
  await hydrated(admin);
  await expect(admin.getByTestId("key-report").filter({ hasText: `Order #${number}` })).toHaveCount(0);
  await expect(waitingCount).toHaveText(String(waiting - 1));
  await admin
    .getByRole("navigation", { name: "Report status" })
    .getByRole("link", { name: "Refunded" })
    .click();
  await expect(admin).toHaveURL(/status=refunded/);
  const closed = admin.getByTestId("key-report").filter({ hasText: `Order #${number}` });
  await expect(closed.getByTestId("key-report-status")).toHaveText("Refunded");
  await expect(closed.getByTestId("key-report-answer")).toContainText(
    "Closed by the refund of its order line: the key was withdrawn",
  );
  await expect(closed.getByRole("button", { name: /Replace the key/ })).toHaveCount(0);
  await expectAccessible(admin, "the key reports closed by a refund");
  await fitsPhone(admin, "key-reports-refunded");
  await owner.close();

  // The customer's licence is withdrawn with its report: the page no longer lists it.
  await page.goto("/user/licences");
  await hydrated(page);
  await expect(page.getByTestId("licence")).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
});
