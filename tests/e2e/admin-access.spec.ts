import { type APIRequestContext, expect, request as playwrightRequest } from "@playwright/test";
import {
  ADMIN_EMAIL,
  adminPages,
  adminPassword,
  freshAdminAddress,
  signInAsAdmin,
  signInWithTheForm,
} from "./admin";
import { confirmationLink } from "./mail";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const pages = adminPages();

async function client(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL,
    maxRedirects: 0,
    extraHTTPHeaders: { Origin: baseURL, "X-Forwarded-For": freshAdminAddress() },
  });
}

/** A signed-in customer: signed up, then the confirmation link (which signs in). */
async function customer(baseURL: string): Promise<APIRequestContext> {
  const api = await client(baseURL);
  const email = `curious.${Date.now().toString(36)}@example.com`;
  const signUp = await api.post("/api/auth/sign-up/email", {
    data: { name: "Curious Customer", email, password: "correct horse battery" },
  });
  expect(signUp.status()).toBe(200);
  expect((await api.get(await confirmationLink(baseURL, email))).status()).toBe(302);
  return api;
}

async function admin(baseURL: string): Promise<APIRequestContext> {
  const api = await client(baseURL);
  const signIn = await api.post("/api/auth/sign-in/email", {
    data: { email: ADMIN_EMAIL, password: adminPassword(baseURL) },
  });
  expect(signIn.status()).toBe(200);
  return api;
}

test("the route table has the admin pages the store needs", () => {
  for (const path of [
    "/admin/orders",
    "/admin/products",
    "/admin/keys",
    "/admin/key-reports",
    "/admin/users",
    "/admin/seo",
    "/admin/audit",
  ]) {
    expect(pages).toContain(path);
  }
});

test("a visitor is sent to the admin sign-in from every admin page and action", async ({ baseURL }) => {
  const api = await client(baseURL!);
  for (const path of pages) {
    const page = await api.get(path);
    expect(page.status(), `GET ${path}`).toBe(302);
    expect(page.headers().location, `GET ${path}`).toBe(`/admin?redirectTo=${encodeURIComponent(path)}`);
    const post = await api.post(path, { form: { intent: "delete" } });
    expect([302, 405], `POST ${path}`).toContain(post.status());
    if (post.status() === 302) expect(post.headers().location).toMatch(/^\/admin\?redirectTo=/);
  }
  // The /admin page itself is the sign-in form, with nothing of the admin's data.
  const signIn = await api.get("/admin");
  expect(signIn.status()).toBe(200);
  const html = await signIn.text();
  expect(html).toContain("Admin sign-in");
  expect(html).not.toContain("Dashboard");
  await api.dispose();
});

test("a signed-in customer gets 403 on every admin page and action", async ({ baseURL }) => {
  const api = await customer(baseURL!);
  const boss = await admin(baseURL!);
  for (const path of pages) {
    const page = await api.get(path);
    expect(page.status(), `GET ${path}`).toBe(403);
    expect(await page.text()).toContain("This account has no access to the admin area");
    // The same page's data request (client-side navigation) is refused as well.
    expect((await api.get(`${path}.data`)).status(), `GET ${path}.data`).toBe(403);

    const post = await api.post(path, { form: { intent: "delete" } });
    const asAdmin = await boss.post(path, { form: { intent: "delete" } });
    if (asAdmin.status() === 405) {
      // The page has no action at all: nobody can post to it (the customer is refused by the page's loader first).
      expect([403, 405], `POST ${path}`).toContain(post.status());
    } else {
      // The admin's post reaches the action (and is refused for its content at most): the customer's 403 is the
      // role check, not the form.
      expect([302, 303, 403], `admin POST ${path}`).not.toContain(asAdmin.status());
      expect(post.status(), `POST ${path}`).toBe(403);
    }
  }
  const dashboard = await api.get("/admin");
  expect(dashboard.status()).toBe(403);
  expect(await dashboard.text()).not.toContain("Work queue");

  // better-auth's own admin endpoints check the role too.
  expect((await api.get("/api/auth/admin/list-users")).status()).toBeGreaterThanOrEqual(401);
  const promote = await api.post("/api/auth/admin/set-role", { data: { userId: "x", role: "admin" } });
  expect([401, 403]).toContain(promote.status());
  await api.dispose();
  await boss.dispose();
});

test("the admin hint in local storage grants nothing", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() =>
    localStorage.setItem("admin", JSON.stringify({ id: "x", email: "boss@example.com" })),
  );
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Forders$/);
  const signIn = page.getByRole("heading", { name: "Admin sign-in" });
  await expect(signIn).toBeVisible();
  // With no admin session, the hint is what an ended one left behind: the page forgets it and loads again without
  // it (once: the test ends on a settled page, not during that reload).
  await expect.poll(() => loads).toBe(2);
  await hydrated(page);
  expect(await page.evaluate(() => localStorage.getItem("admin"))).toBeNull();
  await expect(signIn).toBeVisible();
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Forders$/);
});

test("the first admin, made by admin:create, signs in at /admin and sees the dashboard", async ({
  page,
  baseURL,
}) => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
  // The admin area has no public header, and the admin footer.
  await expect(page.getByTestId("admin-footer")).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);

  await signInWithTheForm(page, baseURL!);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByTestId("sales-summary")).toContainText("Last 30 days");
  await expect(page.getByTestId("sales-chart")).toBeVisible();
  await expect(page.getByTestId("work-queue")).toContainText("Orders awaiting payment");
  await page
    .getByTestId("work-queue")
    .getByRole("link", { name: /E-mails that failed/ })
    .click();
  await expect(page).toHaveURL(/\/admin\/emails\?status=failed$/);
  await expect(page.getByRole("link", { name: /^Failed/ })).toHaveAttribute("aria-current", "page");
  await page.goBack();
  await expect(page.getByTestId("admin-email")).toHaveText(ADMIN_EMAIL);
  await screenshot(page, "admin-dashboard");
});

test("the sign-in form sends the admin on to the page that asked them to sign in", async ({
  page,
  baseURL,
}) => {
  await page.goto("/admin/orders");
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Forders$/);
  await signInWithTheForm(page, baseURL!, "/admin/orders");
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
});

test("entering the admin area caches the five lists; admin logout clears them and local storage", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  await page.evaluate(() => localStorage.setItem("cart", "[]"));
  await signInAsAdmin(page, baseURL!);
  const keys = ["admin", "_user", "_orders", "_blogs", "banners", "seo_metadata"];
  // Written once the page has loaded all five lists.
  await expect
    .poll(() => page.evaluate((names) => names.filter((key) => localStorage.getItem(key) !== null), keys))
    .toEqual(keys);
  const stored = await page.evaluate((names) => names.map((key) => localStorage.getItem(key)!), keys);
  expect(JSON.parse(stored[0]!)).toMatchObject({ email: ADMIN_EMAIL });
  const [users, , blogs, banners, seo] = stored.slice(1).map((list) => JSON.parse(list) as unknown[]);
  expect(users!.some((user) => (user as { email?: string }).email === ADMIN_EMAIL)).toBe(true);
  for (const list of [blogs, banners, seo]) expect(list!.length).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  // The session is over: the admin pages send the browser back to the sign-in.
  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
});

test("a customer signing in at /admin is told the account has no admin access", async ({ page, baseURL }) => {
  const api = await customer(baseURL!);
  const state = await api.storageState();
  await page.context().addCookies(state.cookies);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("alert")).toContainText("This account has no access to the admin area");
  await api.dispose();
});

test("admin sign-in with a wrong password says so and lets nobody in", async ({ page }) => {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  await page.goto("/admin");
  await hydrated(page);
  await page.getByLabel("E-mail address").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toContainText("Wrong e-mail address or password.");
  await expect(page.getByTestId("admin-shell")).toHaveCount(0);
});

test("every admin list answers a search with control characters in it, instead of failing", async ({
  baseURL,
}) => {
  const boss = await admin(baseURL!);
  for (const path of adminPages({ withParams: false })) {
    for (const query of ["q=a%00b", "q=%1B%5B31m", "actor=%00&group=%00&sort=%00"]) {
      const response = await boss.get(`${path}?${query}`);
      expect(response.status(), `${path}?${query}`).toBe(200);
    }
  }
  await boss.dispose();
});

test("a NUL character posted in a form is dropped, not a failed write", async ({ baseURL }) => {
  const boss = await admin(baseURL!);
  const slug = `nul-${Date.now().toString(36)}`;
  const created = await boss.post("/admin/blogs", {
    form: {
      intent: "create",
      slug,
      title: `E2E NUL a\u0000b ${slug}`,
      excerpt: "An excerpt\u0000.",
      image: "/placeholder/blog/nul.svg",
      publishedAt: "2001-01-01",
    },
  });
  expect(created.status()).toBe(302);
  const list = await boss.get(`/admin/blogs?q=${slug}`);
  expect(await list.text()).toContain(`E2E NUL ab ${slug}`);
  await boss.dispose();
});
