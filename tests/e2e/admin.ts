import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

export const ADMIN_EMAIL = "admin@example.com";

/** The temporary password `npm run admin:create` printed for the first admin (see scripts/e2e-server.mjs). */
export function adminPassword(baseURL: string): string {
  const output = readFileSync(`test-results/admin-${new URL(baseURL).port}.txt`, "utf8");
  const match = /Temporary password \(shown only now\): (\S+)/.exec(output);
  if (!match) throw new Error(`admin:create printed no password:\n${output}`);
  return match[1]!;
}

let nextAddress = 10;
/** better-auth limits sign-ins per client address; each admin sign-in comes from an address of its own. */
export const freshAdminAddress = () => `198.51.100.${nextAddress++}`;

/** Signs the first admin in at /admin and waits for the dashboard. */
export async function signInAsAdmin(page: Page, baseURL: string, redirectTo = "/admin") {
  await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": freshAdminAddress() });
  await page.goto(redirectTo === "/admin" ? "/admin" : `/admin?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("E-mail address").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(adminPassword(baseURL));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("admin-shell")).toBeVisible();
}
