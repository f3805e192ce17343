import { randomInt } from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";
import {
  e2eAdminPassword as adminPassword,
  freshClientAddress as freshAdminAddress,
} from "../support/store-process";
import { hydrated } from "./hydrated";

export const ADMIN_EMAIL = "admin@example.com";

export {
  e2eAdminPassword as adminPassword,
  freshClientAddress as freshAdminAddress,
} from "../support/store-process";

/**
 * Signs the first admin in and opens `redirectTo` (the dashboard unless told), once React has taken it over. The
 * sign-in goes straight to the auth endpoint, as the sign-in form's own action does: signInWithTheForm and
 * admin-access.spec.ts test the form, and loading it before each test's own work would only cost time.
 */
export async function signInAsAdmin(page: Page, baseURL: string, redirectTo = "/admin") {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  const signedIn = await page.request.post("/api/auth/sign-in/email", {
    data: { email: ADMIN_EMAIL, password: adminPassword(baseURL) },
    headers: { Origin: baseURL },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  await page.goto(redirectTo);
  await expect(page.getByTestId("admin-shell")).toBeVisible();
  await hydrated(page);
}

/** Signs the first admin in through the sign-in form at /admin (redirectTo: where it sends them after). */
export async function signInWithTheForm(page: Page, baseURL: string, redirectTo = "/admin") {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  await page.goto(redirectTo === "/admin" ? "/admin" : `/admin?redirectTo=${encodeURIComponent(redirectTo)}`);
  await hydrated(page);
  await page.getByLabel("E-mail address").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(adminPassword(baseURL));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("admin-shell")).toBeVisible();
}

/**
 * Every page under /admin, read from the route table itself, so a page added later is checked too. Paths with a
 * parameter get a sample value, or are left out with `withParams: false`.
 */
export function adminPages({ withParams = true } = {}): string[] {
  const admin = (routes as RouteConfigEntry[]).find((entry) => entry.path === "admin");
  if (!admin?.children) throw new Error("app/routes.ts has no admin block");
  const sample: Record<string, string> = { number: "1001", id: "1", key: "windows7", slug: "about" };
  return admin.children
    .filter((child) => !child.index && child.path !== "logout" && (withParams || !child.path!.includes(":")))
    .map((child) => `/admin/${child.path!.replace(/:(\w+)/g, (_, name: string) => sample[name] ?? "1")}`);
}

/**
 * Adds `count` fresh licence keys to the pool of the product at `route`, as the admin does on /admin/keys, so a test
 * that needs keys in stock does not depend on how many earlier tests bought.
 */
export async function topUpKeys(
  browser: Browser,
  baseURL: string,
  route: string,
  count = 20,
  /** The SKU of the variant whose pool gets them (a product sold in variants has no pool of its own). */
  variant?: string,
) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAsAdmin(page, baseURL);
  await page.goto(`/admin/products?q=${encodeURIComponent(route)}`);
  const hrefs = await page
    .locator(`a[href^="/admin/products/"]`)
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  const productId = hrefs.map((href) => /^\/admin\/products\/(\d+)$/.exec(href)?.[1]).find(Boolean);
  if (!productId) throw new Error(`no product at ${route} in the admin's list`);
  const batch = randomInt(1, 2 ** 40)
    .toString(36)
    .toUpperCase();
  const keys = Array.from({ length: count }, (_, n) => `TOPUP-${batch}-${String(n).padStart(4, "0")}`);
  const response = await page.request.post("/admin/keys", {
    form: { product: productId, keys: keys.join("\n"), ...(variant ? { variant } : {}) },
    headers: { Origin: baseURL },
  });
  expect(response.status()).toBe(200);
  await context.close();
}
