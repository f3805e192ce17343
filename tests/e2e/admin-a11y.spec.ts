import { expect } from "@playwright/test";
import { adminPages, signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Every admin page without a parameter, plus the dashboard and the sign-in: no serious or critical accessibility
// violations and a title like "Orders · Store admin" (phone-width.spec.ts checks every admin page at 360 px).
test("admin pages pass axe", async ({ page, baseURL }) => {
  // One more page each time the admin grows (the settings page made 180 s too short on a busy machine).
  test.setTimeout(300_000);
  await page.goto("/admin");
  await expectAccessible(page, "the admin's sign-in");

  await signInAsAdmin(page, baseURL!);
  for (const path of ["/admin", ...adminPages({ withParams: false })]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByTestId("admin-shell")).toBeVisible();
    // Every title names the page, then the admin, the same way.
    await expect(page, path).toHaveTitle(path === "/admin" ? "Store admin" : /^\S.* · Store admin$/);
    await expectAccessible(page, path);
    await screenshot(page, `admin-${path.replace(/^\/admin\/?/, "") || "dashboard"}-desktop`);
  }
});
