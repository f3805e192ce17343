import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";
import { hydrated } from "./hydrated";

export const ADMIN_EMAIL = "admin@example.com";

/** The temporary password `npm run admin:create` printed for the first admin (see scripts/e2e-server.mjs). */
export function adminPassword(baseURL: string): string {
  const output = readFileSync(`test-results/admin-${new URL(baseURL).port}.txt`, "utf8");
  const match = /Temporary password \(shown only now\): (\S+)/.exec(output);
  if (!match) throw new Error(`admin:create printed no password:\n${output}`);
  return match[1]!;
}

/**
 * better-auth limits sign-ins per client address, counting on while attempts keep coming: each admin sign-in comes
 * from an address of its own, drawn at random (a counter would start again in every test file and every repeat).
 */
export const freshAdminAddress = () => {
  const n = randomInt(1, 2 ** 24 - 1);
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
};

/** Signs the first admin in at /admin and waits for the dashboard. */
export async function signInAsAdmin(page: Page, baseURL: string, redirectTo = "/admin") {
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
export async function topUpKeys(browser: Browser, baseURL: string, route: string, count = 20) {
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
    form: { product: productId, keys: keys.join("\n") },
    headers: { Origin: baseURL },
  });
  expect(response.status()).toBe(200);
  await context.close();
}
