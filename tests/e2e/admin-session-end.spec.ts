import { expect, type Page, request as playwrightRequest } from "@playwright/test";
import { ADMIN_EMAIL, adminPassword, freshAdminAddress, signInAsAdmin } from "./admin";
import { test } from "./fixtures";

// The admin's session can end without the logout button: it expires, the admin is banned, or every session is
// signed out from another browser. The page must then forget the admin and the cached lists, as logout does.

const CACHED = ["admin", "_user", "_orders", "_blogs", "banners", "seo_metadata"];
const cachedKeys = (page: Page) =>
  page.evaluate((names) => names.filter((key) => localStorage.getItem(key) !== null), CACHED);

/** Another browser signs the admin in and signs out every session of the account ("sign out everywhere"). */
async function signOutEverywhere(baseURL: string) {
  const elsewhere = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL, "X-Forwarded-For": freshAdminAddress() },
  });
  const signIn = await elsewhere.post("/api/auth/sign-in/email", {
    data: { email: ADMIN_EMAIL, password: adminPassword(baseURL) },
  });
  expect(signIn.status()).toBe(200);
  expect((await elsewhere.post("/api/auth/revoke-sessions", { data: {} })).status()).toBe(200);
  await elsewhere.dispose();
}

async function adminWithCachedLists(page: Page, baseURL: string) {
  await signInAsAdmin(page, baseURL, "/admin/orders");
  await expect.poll(() => cachedKeys(page)).toEqual(CACHED);
}

/** Local storage's size; while the page is on its way to the sign-in there is no page to ask, so ask again. */
const storedCount = (page: Page) => page.evaluate(() => localStorage.length).catch(() => -1);

test("the next page the admin opens after the session ended elsewhere clears the cached lists", async ({
  page,
  baseURL,
}) => {
  await adminWithCachedLists(page, baseURL!);
  await signOutEverywhere(baseURL!);
  // Nothing has told the page yet.
  expect(await cachedKeys(page)).toEqual(CACHED);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\?redirectTo=%2Fadmin%2Fusers$/);
  await expect.poll(() => storedCount(page)).toBe(0);
  await expect(page.getByTestId("admin-shell")).toHaveCount(0);
});

test("coming back to the tab after the session ended clears the cached lists at once", async ({
  page,
  baseURL,
}) => {
  await adminWithCachedLists(page, baseURL!);
  await signOutEverywhere(baseURL!);
  expect(await cachedKeys(page)).toEqual(CACHED);

  // The admin switches back to this tab.
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect.poll(() => storedCount(page)).toBe(0);
  await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
});
