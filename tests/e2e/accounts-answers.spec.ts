import { type APIRequestContext, expect, request as playwrightRequest } from "@playwright/test";
import { ADMIN_EMAIL, adminPassword, freshAdminAddress } from "./admin";
import { confirmationLink, sentMail, waitForMail } from "./mail";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Answers of the account pages to odd input and to questions about who has an account.

const run = Date.now().toString(36);
const email = (name: string) => `${name}.${run}@example.com`;
const PASSWORD = "correct horse battery";

/** A client of its own (cookies, and an address of its own for the sign-in limits), as a browser would be. */
const client = (baseURL: string) =>
  playwrightRequest.newContext({
    baseURL,
    maxRedirects: 0,
    extraHTTPHeaders: { Origin: baseURL, "X-Forwarded-For": freshAdminAddress() },
  });

/** A customer who signed up and opened the confirmation link: signed in. */
async function confirmedCustomer(baseURL: string, address: string): Promise<APIRequestContext> {
  const api = await client(baseURL);
  const signUp = await api.post("/user/login", {
    form: { intent: "sign-up", name: "Test Customer", email: address, password: PASSWORD },
  });
  expect(signUp.status()).toBe(200);
  expect((await api.get(await confirmationLink(baseURL, address))).status()).toBe(302);
  return api;
}

const sessionOf = async (api: APIRequestContext) =>
  (await (await api.get("/api/auth/get-session")).json()) as { session: { id: string } } | null;

test("a redirectTo with characters above U+00FF is sent percent-encoded by the login pages, never a 500", async ({
  baseURL,
}) => {
  const address = email("unicode");
  const api = await confirmedCustomer(baseURL!, address);
  // Signed in already: /user/login sends the customer straight on.
  const page = await api.get(`/user/login?redirectTo=${encodeURIComponent("/caf\u0100?q=\u4e2d")}`);
  expect(page.status()).toBe(302);
  expect(page.headers().location).toBe("/caf%C4%80?q=%E4%B8%AD");

  // Signing in with such a target: one new session, and on to the target.
  const visitor = await client(baseURL!);
  const signIn = await visitor.post("/user/login", {
    form: { intent: "sign-in", email: address, password: PASSWORD, redirectTo: "/user/orders?note=\u0100" },
  });
  expect(signIn.status()).toBe(302);
  expect(signIn.headers().location).toBe("/user/orders?note=%C4%80");
  expect(await sessionOf(visitor)).not.toBeNull();

  // A target that is only long, or leads elsewhere once resolved, is replaced by the dashboard.
  for (const redirectTo of [`/${"a".repeat(3000)}`, "/.//evil.example/"]) {
    const other = await client(baseURL!);
    const answer = await other.post("/user/login", {
      form: { intent: "sign-in", email: address, password: PASSWORD, redirectTo },
    });
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toBe("/user/dashboard");
    await other.dispose();
  }

  // The admin sign-in builds its redirect the same way.
  const admin = await client(baseURL!);
  const adminSignIn = await admin.post("/admin?index", {
    form: {
      intent: "sign-in",
      email: ADMIN_EMAIL,
      password: adminPassword(baseURL!),
      redirectTo: "/admin/orders?q=\u0100",
    },
  });
  expect(adminSignIn.status()).toBe(302);
  expect(adminSignIn.headers().location).toBe("/admin/orders?q=%C4%80");
  // better-auth's own endpoint too.
  const direct = await (
    await client(baseURL!)
  ).post("/api/auth/sign-in/email", {
    data: { email: address, password: PASSWORD, callbackURL: "/caf\u0100" },
  });
  expect(direct.status()).toBe(200);
  expect(direct.headers().location).toBe("/caf%C4%80");
  for (const context of [api, visitor, admin]) await context.dispose();
});

test("a name set through better-auth's own endpoint obeys the sign-up form's limits", async ({ baseURL }) => {
  const api = await confirmedCustomer(baseURL!, email("renamer"));
  for (const [name, message] of [
    ["Nul\u0000Name", "The name must not contain control characters"],
    ["x".repeat(1_000), "The name must be at most 100 characters"],
  ] as const) {
    const update = await api.post("/api/auth/update-user", { data: { name } });
    expect(update.status()).toBe(400);
    expect((await update.json()).message).toBe(message);
  }
  // A 200,000-character name is larger than any form may send: the body limit refuses it before better-auth reads it.
  const huge = await api.post("/api/auth/update-user", { data: { name: "x".repeat(200_000) } });
  expect(huge.status()).toBe(413);
  const session = (await (await api.get("/api/auth/get-session")).json()) as { user: { name: string } };
  expect(session.user.name).toBe("Test Customer");
  await api.dispose();
});

test("sign-up answers the same for an address with an account, with guest orders or new; the e-mail tells the owner", async ({
  page,
  baseURL,
}) => {
  const known = email("known");
  await (await confirmedCustomer(baseURL!, known)).dispose();

  // The form's answer, as a script would compare it: status, page and cookies.
  const answer = async (address: string) => {
    const api = await client(baseURL!);
    const response = await api.post("/user/login", {
      form: { intent: "sign-up", name: "Someone", email: address, password: "another password" },
    });
    const body = (await response.text()).replaceAll(/nonce="[^"]*"/g, "").replaceAll(address, "ADDRESS");
    const cookies = response.headersArray().filter((header) => header.name.toLowerCase() === "set-cookie");
    await api.dispose();
    return { status: response.status(), body, cookies };
  };
  const fresh = email("fresh");
  const forKnown = await answer(known);
  const forFresh = await answer(fresh);
  expect(forKnown.status).toBe(200);
  expect(forKnown).toEqual(forFresh);

  // An address that placed a guest order: the same answer, and no way in to see the order.
  const buyer = email("guest.buyer");
  const guest = await client(baseURL!);
  const order = await guest.post("/payment", {
    form: {
      idempotencyKey: crypto.randomUUID(),
      email: buyer,
      "billing.name": "Guest Buyer",
      "billing.line1": "1 Main Street",
      "billing.city": "Springfield",
      "billing.postalCode": "12345",
      "billing.country": "US",
      shipToBilling: "on",
      paymentMethod: "bank-transfer",
      cart: JSON.stringify([{ groupKey: "McAfee", id: "1", quantity: 1 }]),
      acceptTerms: "on",
    },
  });
  expect(order.status()).toBe(302);
  await guest.dispose();
  expect(await answer(buyer)).toEqual(forFresh);
  const prober = await client(baseURL!);
  const signedIn = await prober.post("/user/login", {
    form: { intent: "sign-in", email: buyer, password: "another password", redirectTo: "/user/orders" },
  });
  expect(signedIn.status()).toBe(401);
  expect((await prober.get("/user/orders")).status()).toBe(302);
  await prober.dispose();

  // What the page shows, the same for both.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  await page.goto("/user/login");
  await hydrated(page);
  const form = page.getByTestId("sign-up-form");
  await form.getByLabel("Your name").fill("Someone Else");
  await form.getByLabel("E-mail address").fill(known);
  await form.getByLabel("Choose a password").fill("a third password");
  await form.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("sign-up-sent")).toContainText("Check your e-mail");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByTestId("sign-up-sent").scrollIntoViewIfNeeded();
  await screenshot(page, "sign-up-sent-phone");

  // The owner of the known address hears what happened; the new address gets its confirmation link.
  const told = await waitForMail(
    baseURL!,
    (mail) => mail.to === known && /already have an account/.test(mail.subject),
  );
  expect(told.text).toContain("already has one");
  expect(told.text).toContain("/user/login");
  await waitForMail(baseURL!, (mail) => mail.to === fresh && /Confirm/.test(mail.subject));
  // Nothing changed for the owner: no new confirmation link, and the password chosen here does not sign in.
  const links = (await sentMail(baseURL!)).filter(
    (mail) => mail.to === known && /Confirm/.test(mail.subject),
  );
  expect(links).toHaveLength(1);
  const attacker = await client(baseURL!);
  const tried = await attacker.post("/user/login", {
    form: { intent: "sign-in", email: known, password: "another password" },
  });
  expect(tried.status()).toBe(401);
  // Nor can the new address be told apart by signing in with the password just chosen: not until it is confirmed.
  const early = await attacker.post("/user/login", {
    form: { intent: "sign-in", email: fresh, password: "another password" },
  });
  expect(early.status()).toBe(401);
  expect((await early.text()).replaceAll(/nonce="[^"]*"/g, "").replaceAll(fresh, "ADDRESS")).toBe(
    (await tried.text()).replaceAll(/nonce="[^"]*"/g, "").replaceAll(known, "ADDRESS"),
  );
  await attacker.dispose();
});

test("a newer reset link ends the older one, and a used link ends them all", async ({ page, baseURL }) => {
  const address = email("resetter");
  await (await confirmedCustomer(baseURL!, address)).dispose();
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });

  const askForLink = async () => {
    const before = (await sentMail(baseURL!)).filter((mail) => mail.to === address).length;
    await page.goto("/user/login");
    await hydrated(page);
    await page.getByText("Forgot your password?").click();
    await page.getByTestId("forgot-form").getByLabel("E-mail address").fill(address);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByTestId("reset-sent")).toBeVisible();
    await expect
      .poll(async () => (await sentMail(baseURL!)).filter((mail) => mail.to === address).length)
      .toBe(before + 1);
    const mail = (await sentMail(baseURL!)).filter((sent) => sent.to === address).at(-1)!;
    return mail.text.match(/https?:\/\/\S+\/api\/auth\/reset-password\/\S+/)![0];
  };
  const older = await askForLink();
  const newer = await askForLink();
  expect(newer).not.toBe(older);

  await page.goto(older);
  await expect(page.getByRole("alert").first()).toContainText("expired or was already used");

  await page.goto(newer);
  await hydrated(page);
  await expect(page).toHaveURL(/\/user\/reset-password\?token=/);
  await page.getByLabel("New password", { exact: true }).fill("a brand new secret");
  await page.getByLabel("Repeat the new password").fill("a brand new secret");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
  for (const link of [newer, older]) {
    await page.goto(link);
    await expect(page.getByRole("alert").first()).toContainText("expired or was already used");
  }
});
