import { type APIRequestContext, type Browser, expect, type Page } from "@playwright/test";
import { confirmationLink, waitForMail } from "./mail";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// better-auth limits sign-ins and sign-ups per client address (3 in 10 s). The server trusts X-Forwarded-For from
// a proxy on this machine, as it would behind a real one: each test gets an address of its own (TEST-NET-3), so
// the tests stay within the limit, and the limit itself is tested on purpose below.
let nextAddress = 10;
const freshAddress = () => `203.0.113.${nextAddress++}`;
test.beforeEach(async ({ context }) => {
  await context.setExtraHTTPHeaders({ "X-Forwarded-For": freshAddress() });
});

const run = Date.now().toString(36);
const email = (name: string) => `${name}.${run}@example.com`;
const PASSWORD = "correct horse battery";
const WRONG_CREDENTIALS =
  "Wrong e-mail address or password. If you have just created your account, open the link we e-mailed you first.";

// Both wait for the scripts: a field typed into before they take over the server's page can be lost.
async function signUp(page: Page, name: string, address: string, password = PASSWORD) {
  await hydrated(page);
  const form = page.getByTestId("sign-up-form");
  await form.getByLabel("Your name").fill(name);
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Choose a password").fill(password);
  await form.getByRole("button", { name: "Create my account" }).click();
}

async function signIn(page: Page, address: string, password = PASSWORD) {
  await hydrated(page);
  const form = page.getByTestId("sign-in-form");
  await form.getByLabel("E-mail address").fill(address);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null") as Record<string, unknown> | null);

/** Signs up, then opens the link of the confirmation e-mail, which signs in and goes on to the page asked for. */
async function signUpAndConfirm(page: Page, name: string, address: string) {
  await signUp(page, name, address);
  await expect(page.getByTestId("sign-up-sent")).toBeVisible();
  await page.goto(await confirmationLink(page.url(), address));
}

async function newAccountPage(browser: Browser, name: string, address: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": freshAddress() } });
  const page = await context.newPage();
  await page.goto("/user/login");
  await signUpAndConfirm(page, name, address);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  // The confirmation link ends on a page drawn by the server: its menus open once the scripts have taken over.
  await hydrated(page);
  return page;
}

/** A form post as another site (or a script) would send it: the Origin header says where it comes from. */
const post = (request: APIRequestContext, path: string, form: Record<string, string>, origin: string) =>
  request.post(path, {
    form,
    headers: { Origin: origin, "X-Forwarded-For": freshAddress() },
    maxRedirects: 0,
  });

test("sign up, land on the page asked for, dashboard, orders, address book, checkout prefill, sign out and in again", async ({
  page,
  browser,
  baseURL,
}) => {
  const address = email("ada");
  // A visitor asks for their orders and is sent to sign in first.
  await page.goto("/user/orders");
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Fuser%2Forders$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  await signUp(page, "Ada Lovelace", address);
  // Not signed in yet: the link in the e-mail confirms the address and signs in.
  await expect(page.getByTestId("sign-up-sent")).toContainText("Check your e-mail");
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  const link = await confirmationLink(baseURL!, address);
  expect(link).toContain("/api/auth/verify-email?token=");
  await page.goto(link);

  await expect(page).toHaveURL(/\/user\/orders$/);
  await expect(page.getByTestId("user-orders")).toBeVisible();
  await expect(page.getByTestId("toast").first()).toContainText("your e-mail address is confirmed");
  await expect(page.getByTestId("user-menu-name")).toHaveText("Ada");
  // The signed-in user is kept in local storage under `user`, Active since this sign-in.
  await expect.poll(async () => (await storedUser(page))?.status).toBe("Active");
  const record = (await storedUser(page))!;
  expect(record).toMatchObject({ name: "Ada Lovelace", email: address, lastLogout: null });
  expect(record.lastLogin).toBe(record.timestamp);

  // Dashboard.
  await page
    .getByRole("navigation", { name: "Account sections" })
    .getByRole("link", { name: "Dashboard" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Ada");
  // The spec's status codes stay in the data; the customer reads words.
  await expect(page.getByTestId("activity-status")).toHaveText("Signed in");
  await expect(page.getByTestId("activity-status")).toHaveAttribute("data-status", "Active");
  await expect(page.getByTestId("recent-orders")).toContainText("No orders yet");

  // Address book: add, then edit.
  await page.goto("/user/address");
  await hydrated(page);
  const form = page.getByTestId("address-form");
  await form.getByLabel("Full name").fill("Ada Lovelace");
  await form.getByLabel("Street address").fill("1 Example Street");
  await form.getByLabel("City").fill("New York");
  await form.getByLabel("Postal code").fill("10001");
  await form.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByTestId("saved-address")).toHaveCount(1);
  await expect(page.getByTestId("saved-address")).toHaveAttribute("data-default", "true");
  // After saving, the form is empty again.
  await expect(page.getByTestId("address-form").getByLabel("Street address")).toHaveValue("");
  await page.getByTestId("saved-address").getByRole("link", { name: /Edit/ }).click();
  await expect(page).toHaveURL(/\?edit=\d+/);
  await expect(page.getByTestId("address-form").getByText("Edit this address")).toBeVisible();
  await expect(page.getByTestId("address-form").getByLabel("Street address")).toHaveValue("1 Example Street");
  // A field emptied by mistake: the browser's check says so and takes the customer to it.
  await page.getByTestId("address-form").getByLabel("Street address").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("address-form").getByLabel("Street address")).toBeFocused();
  await page.getByTestId("address-form").getByLabel("Street address").fill("12 Analytical Engine Way");
  await page.getByTestId("address-form").getByLabel("City").fill("London");
  await page.getByTestId("address-form").getByLabel("Country").selectOption("GB");
  await page.getByTestId("address-form").getByLabel("Postal code").fill("SW1A 1AA");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("saved-address")).toContainText("12 Analytical Engine Way");
  await expect(page.getByTestId("saved-address")).toContainText("United Kingdom");

  // The checkout is filled in from the account.
  await page.goto("/antivirus/norton/360-deluxe");
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  await page.goto("/payment");
  await hydrated(page);
  await expect(page.getByLabel("E-mail address")).toHaveValue(address);
  const billing = page.getByTestId("billing-address");
  await expect(billing.getByLabel("Full name")).toHaveValue("Ada Lovelace");
  await expect(billing.getByLabel("Street address")).toHaveValue("12 Analytical Engine Way");
  await expect(billing.getByLabel("City")).toHaveValue("London");
  await expect(billing.getByLabel("Postal code")).toHaveValue("SW1A 1AA");
  await expect(billing.getByLabel("Country")).toHaveValue("GB");
  // This order is billed to New York, where it is taxed.
  await billing.getByLabel("Country").selectOption("US");
  await billing.getByLabel(/^State/).selectOption("NY");
  await billing.getByLabel("Postal code").fill("10001");
  await page.getByLabel(/I accept the/).check();
  await page.getByTestId("method-sandbox").check();
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+\?key=/);
  const number = page.url().match(/\/order\/(\d+)/)![1]!;
  const key = (await page.getByTestId("licence-key").first().textContent())!;

  // The order is in the account, with its key, and its owner opens it without the link's key.
  await page.goto("/user/orders");
  await hydrated(page);
  const order = page.getByTestId("user-order").filter({ hasText: `Order #${number}` });
  await expect(order.getByTestId("user-order-status")).toHaveText("Complete");
  await expect(order.getByTestId("user-licence-key")).toHaveText(key);
  // The same totals as the order's own page, taxes included.
  const listed = {
    taxes: await order.getByTestId("user-order-tax").allTextContents(),
    total: await order.getByTestId("user-order-total").textContent(),
  };
  expect(listed.taxes.length, "the order was taxed").toBeGreaterThan(0);
  await order.getByRole("link", { name: `Order #${number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${number}$`));
  await expect(page.getByTestId("licence-key")).toHaveText(key);
  await expect(page.getByTestId("order-total")).toHaveText(listed.total!);
  await expect(page.getByTestId("order-tax")).toHaveText(listed.taxes);
  await page.goto("/user/dashboard");
  await expect(page.getByTestId("recent-order")).toContainText(`Order #${number}`);
  // The record's order entries carry ISO timestamps.
  await expect.poll(async () => ((await storedUser(page))?.orders as unknown[] | undefined)?.length).toBe(1);
  const entry = ((await storedUser(page))!.orders as Array<{ number: number; timestamp: unknown }>)[0]!;
  expect(entry.number).toBe(Number(number));
  expect(entry.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  // A second browser signed in to the same account watches the record live.
  const watcher = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": freshAddress() } });
  const other = await watcher.newPage();
  await other.goto("/user/login?redirectTo=%2Fuser%2Fdashboard");
  await hydrated(other);
  await signIn(other, address);
  await expect(other.getByTestId("activity-status")).toHaveText("Signed in");
  await other.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  // Sign out: InActive with lastLogout, the user cleared and local storage emptied.
  await page.getByTestId("user-menu-toggle").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/user\/login$/);
  await expect(page.getByTestId("toast").filter({ hasText: "You are signed out" })).toBeVisible();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.length)).toBe(0);
  // The session is gone on the server: the account pages send this browser to sign in.
  await page.goto("/user/dashboard");
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Fuser%2Fdashboard$/);

  await expect(other.getByTestId("activity-status")).toHaveText("Signed out");
  await expect(other.getByTestId("activity-status")).toHaveAttribute("data-status", "InActive");
  const after = (await storedUser(other))!;
  expect(after.status).toBe("InActive");
  expect(after.lastLogout).toEqual(expect.any(String));
  expect(after.timestamp).toBe(after.lastLogout);
  expect(await other.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await watcher.close();

  // Signing in again goes back to the page asked for, Active again.
  await signIn(page, address);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
  await expect(
    page.getByTestId("toast").filter({ hasText: "Welcome back! You are signed in." }),
  ).toBeVisible();
  await expect(page.getByTestId("activity-status")).toHaveText("Signed in");
});

test("every guarded route sends a visitor to /user/login, and signing in returns to it", async ({
  page,
  request,
}) => {
  for (const path of ["/user/dashboard", "/user/orders", "/user/address"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers()["location"]).toBe(`/user/login?redirectTo=${encodeURIComponent(path)}`);
  }
  const user = await request.get("/user", { maxRedirects: 0 });
  expect(user.headers()["location"]).toBe("/user/dashboard");
  // Personal endpoints answer a visitor without data.
  expect((await request.post("/api/user/activity", { form: { status: "Active" } })).status()).toBe(401);
  expect(await (await request.get("/api/user/events")).text()).toContain("event: signed-out");

  const page2 = await newAccountPage(page.context().browser()!, "Grace Hopper", email("grace"));
  await page2.getByTestId("user-menu-toggle").click();
  await page2.getByTestId("sign-out").click();
  await expect(page2).toHaveURL(/\/user\/login$/);
  await page2.goto("/user/address");
  await expect(page2).toHaveURL(/redirectTo=%2Fuser%2Faddress$/);
  await signIn(page2, email("grace"));
  await expect(page2).toHaveURL(/\/user\/address$/);
  await expect(page2.getByTestId("address-book")).toBeVisible();
  await page2.context().close();
});

test.describe("bad inputs", () => {
  test("a wrong password and an unknown e-mail get the same answer; a short password is refused", async ({
    page,
  }) => {
    const address = email("known");
    const owner = await newAccountPage(page.context().browser()!, "Known User", address);
    await owner.context().close();

    await page.goto("/user/login");
    await signIn(page, address, "not the password");
    const wrong = await page.getByTestId("sign-in-form").getByTestId("form-error").textContent();
    expect(wrong).toBe(WRONG_CREDENTIALS);
    await signIn(page, email("nobody"), "not the password");
    await expect(page.getByTestId("sign-in-form").getByTestId("form-error")).toHaveText(wrong!);

    await signUp(page, "Shorty", email("shorty"), "1234567");
    await expect(page.getByTestId("sign-up-form").getByText("Use at least 8 characters")).toBeVisible();
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test("the server refuses a short password too, and ignores a forged role at sign-up", async ({
    request,
    baseURL,
  }) => {
    const short = await post(
      request,
      "/user/login",
      { intent: "sign-up", name: "S", email: email("short"), password: "short" },
      baseURL!,
    );
    expect(short.status()).toBe(400);
    expect(await short.text()).toContain("Use at least 8 characters");

    const forged = await post(
      request,
      "/user/login",
      { intent: "sign-up", name: "Mallory", email: email("mallory"), password: PASSWORD, role: "admin" },
      baseURL!,
    );
    expect(forged.status()).toBe(200);
    await request.get(await confirmationLink(baseURL!, email("mallory")), { maxRedirects: 0 });
    const session = await (await request.get("/api/auth/get-session")).json();
    expect(session.user.email).toBe(email("mallory"));
    expect(session.user.role).toBe("user");
    // better-auth's own endpoint refuses the field outright.
    const raw = await request.post("/api/auth/sign-up/email", {
      data: { name: "Eve", email: email("eve"), password: PASSWORD, role: "admin" },
      headers: { Origin: baseURL!, "X-Forwarded-For": freshAddress() },
    });
    expect(raw.status()).toBe(400);
  });

  test("a reset link works once", async ({ page, baseURL }) => {
    const address = email("forgetful");
    const owner = await newAccountPage(page.context().browser()!, "Forgetful", address);
    await owner.context().close();

    await page.goto("/user/login");
    await hydrated(page);
    await page.getByText("Forgot your password?").click();
    await page.getByTestId("forgot-form").getByLabel("E-mail address").fill(address);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByTestId("reset-sent")).toBeVisible();
    const mail = await waitForMail(baseURL!, (sent) => sent.to === address && /Reset/.test(sent.subject));
    const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/reset-password\/\S+/)![0];

    await page.goto(link);
    await hydrated(page);
    await expect(page).toHaveURL(/\/user\/reset-password\?token=/);
    await page.getByLabel("New password", { exact: true }).fill("a brand new secret");
    await page.getByLabel("Repeat the new password").fill("a brand new secret");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
    await expect(page.getByTestId("toast").filter({ hasText: "Your password is changed" })).toBeVisible();

    // The same link again: refused.
    await page.goto(link);
    await expect(page.getByRole("alert").first()).toContainText("expired or was already used");

    await page.goto("/user/login");
    await signIn(page, address, PASSWORD);
    await expect(page.getByTestId("sign-in-form").getByTestId("form-error")).toHaveText(WRONG_CREDENTIALS);
    await signIn(page, address, "a brand new secret");
    await expect(page).toHaveURL(/\/user\/dashboard$/);
  });

  test("another user's address id is not found, and changes nothing", async ({ browser }) => {
    const ada = await newAccountPage(browser, "Ada", email("ada.book"));
    await ada.goto("/user/address");
    await hydrated(ada);
    const form = ada.getByTestId("address-form");
    await form.getByLabel("Full name").fill("Ada");
    await form.getByLabel("Street address").fill("1 Private Lane");
    await form.getByLabel("City").fill("Boston");
    await form.getByLabel("Postal code").fill("02108");
    await form.getByRole("button", { name: "Save address" }).click();
    await expect(ada.getByTestId("saved-address")).toHaveCount(1);
    const id = (await ada.getByTestId("saved-address").getAttribute("id"))!.replace("address-", "");

    const bob = await newAccountPage(browser, "Bob", email("bob.book"));
    const origin = new URL(bob.url()).origin;
    for (const intent of ["delete", "default"]) {
      const response = await bob.request.post("/user/address", {
        form: { intent, id },
        headers: { Origin: origin },
        maxRedirects: 0,
      });
      expect(response.status(), intent).toBe(404);
      expect(await response.text()).toContain("Address not found");
    }
    const edit = await bob.request.post("/user/address", {
      form: {
        intent: "update",
        id,
        name: "Bob",
        line1: "Stolen",
        city: "X",
        postalCode: "12345",
        country: "US",
      },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(edit.status()).toBe(404);
    // Bob's own edit page does not open Ada's address either.
    await bob.goto(`/user/address?edit=${id}`);
    await expect(bob.getByTestId("address-form").getByLabel("Street address")).toHaveValue("");

    await ada.reload();
    await expect(ada.getByTestId("saved-address")).toContainText("1 Private Lane");
    await ada.context().close();
    await bob.context().close();
  });

  test("a cross-site form post is refused", async ({ browser, request }) => {
    const page = await newAccountPage(browser, "Victim", email("victim"));
    const evil = "https://evil.example";
    // With the victim's cookies: sign-out, address book, claims and sign-in, from another site.
    for (const [path, form] of [
      ["/user/logout", {}],
      ["/user/address", { intent: "delete", id: "1" }],
      ["/user/orders", { intent: "claim" }],
      ["/user/login", { intent: "sign-in", email: email("victim"), password: PASSWORD }],
    ] as const) {
      const response = await page.request.post(path, { form, headers: { Origin: evil }, maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
    }
    const hidden = await page.request.post("/user/logout", {
      headers: { "Sec-Fetch-Site": "cross-site" },
      maxRedirects: 0,
    });
    expect(hidden.status()).toBe(403);
    // better-auth's own endpoints check the origin too.
    const api = await request.post("/api/auth/sign-in/email", {
      data: { email: email("victim"), password: PASSWORD },
      headers: { Origin: evil, "X-Forwarded-For": freshAddress() },
    });
    expect(api.status()).toBe(403);
    // Still signed in.
    await page.goto("/user/dashboard");
    await expect(page.getByTestId("dashboard")).toBeVisible();
    await page.context().close();
  });

  test("too many sign-in attempts get 429", async ({ page, baseURL }) => {
    const from = freshAddress();
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": from });
    await page.goto("/user/login");
    const attempt = async (guess: string) => {
      const [response] = await Promise.all([
        page.waitForResponse((res) => res.request().method() === "POST" && res.url().includes("/user/login")),
        signIn(page, email("guesser"), guess),
      ]);
      return response;
    };
    for (let number = 1; number <= 3; number++) {
      expect((await attempt(`guess number ${number}`)).status()).toBe(401);
      await expect(page.getByTestId("sign-in-form").getByTestId("form-error")).toHaveText(WRONG_CREDENTIALS);
    }
    const response = await attempt("guess number 4");
    expect(response.status()).toBe(429);
    await expect(page.getByTestId("sign-in-form").getByTestId("form-error")).toContainText(
      "Too many attempts",
    );
    // better-auth's endpoint counts the same attempts.
    const api = await page.request.post("/api/auth/sign-in/email", {
      data: { email: email("guesser"), password: "guess number 5" },
      headers: { Origin: baseURL!, "X-Forwarded-For": from },
    });
    expect(api.status()).toBe(429);
  });

  test("an unknown activity status writes nothing and answers Internal Error", async ({ browser }) => {
    const page = await newAccountPage(browser, "Status Tester", email("status"));
    await expect.poll(async () => (await storedUser(page))?.status).toBe("Active");
    const before = (await storedUser(page))!;
    const reply = await page.evaluate(async () => {
      const response = await fetch("/api/user/activity", {
        method: "POST",
        body: new URLSearchParams({ status: "Away" }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(reply.status).toBe(400);
    expect(reply.body.toast).toEqual({ message: "Internal Error", kind: "warning" });
    await page.reload();
    await expect.poll(async () => (await storedUser(page))?.timestamp).toBe(before.timestamp);
    expect((await storedUser(page))!.status).toBe("Active");
    await page.context().close();
  });
});

test("a Japanese postal code typed without its hyphen is saved as the post writes it; a code of the wrong form is refused beside the field", async ({
  browser,
}) => {
  const page = await newAccountPage(browser, "Kenji Sato", email("kenji"));
  await page.goto("/user/address");
  await hydrated(page);
  const form = page.getByTestId("address-form");
  await form.getByLabel("Full name").fill("Kenji Sato");
  await form.getByLabel("Street address").fill("1-1 Chiyoda");
  await form.getByLabel("City").fill("Tokyo");
  await form.getByLabel("Country").selectOption("JP");
  await form.getByLabel("Postal code").fill("10000012");
  await form.getByRole("button", { name: "Save address" }).click();
  await expect(form.getByLabel("Postal code")).toHaveAccessibleDescription(
    "Enter a postal code used in Japan, like 100-0001",
  );
  await expect(form.getByLabel("Postal code")).toBeFocused();
  await form.getByLabel("Postal code").fill("1000001");
  await form.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByTestId("saved-address")).toContainText("100-0001");
  await expect(page.getByTestId("saved-address")).toContainText("Japan");
  await page.setViewportSize({ width: 360, height: 800 });
  // The saved form's page change shows the route spinner for a moment: the picture is of the page itself.
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, "address-book-japan-360");
  await page.context().close();
});

test("the login page, dashboard, orders and address book fit desktop and phone widths", async ({
  browser,
}) => {
  const page = await newAccountPage(browser, "Screenshot Person", email("shots"));
  await page.goto("/user/address");
  await hydrated(page);
  const form = page.getByTestId("address-form");
  await form.getByLabel("Full name").fill("Screenshot Person");
  await form.getByLabel("Street address").fill("500 Market Street");
  await form.getByLabel("City").fill("San Francisco");
  await form.getByLabel("State", { exact: true }).selectOption("CA");
  await form.getByLabel("Postal code").fill("94105");
  await form.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByTestId("saved-address")).toHaveCount(1);
  await page.goto("/antivirus/norton/360-deluxe");
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  await page.goto("/payment");
  await hydrated(page);
  await page.getByLabel(/I accept the/).check();
  await page.getByTestId("method-sandbox").check();
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);

  const visitor = await browser.newPage();
  for (const [width, height, label] of [
    [1280, 900, "desktop"],
    [360, 800, "phone"],
  ] as const) {
    await visitor.setViewportSize({ width, height });
    await visitor.goto("/user/login");
    expect(
      await visitor.evaluate(() => document.documentElement.scrollWidth),
      `login ${label}`,
    ).toBeLessThanOrEqual(width);
    await screenshot(visitor, `login-${label}`);
    await page.setViewportSize({ width, height });
    for (const name of ["dashboard", "orders", "address"]) {
      await page.goto(`/user/${name}`);
      await expect(page.getByTestId("user-menu")).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${name} ${label}`,
      ).toBeLessThanOrEqual(width);
      await screenshot(page, `account-${name}-${label}`);
    }
  }
  await visitor.close();
  await page.context().close();
});
