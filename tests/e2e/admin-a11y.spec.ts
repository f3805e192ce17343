import { expect } from "@playwright/test";
import { adminPages, signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Every admin page without a parameter, plus the dashboard and the sign-in: no serious or critical accessibility
// violations, nothing scrolling sideways on a phone, a title like "Orders · Store admin", and a screenshot of each
// at both widths.
test("admin pages pass axe and fit a phone", async ({ page, baseURL }) => {
  // One more page each time the admin grows (the settings page made 180 s too short on a busy machine).
  test.setTimeout(300_000);
  await page.goto("/admin");
  await expectAccessible(page, "the admin's sign-in");

  await signInAsAdmin(page, baseURL!);
  for (const path of ["/admin", ...adminPages({ withParams: false })]) {
    for (const [width, label] of [
      [1280, "desktop"],
      [390, "phone"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByTestId("admin-shell")).toBeVisible();
      if (label === "desktop") {
        // Every title names the page, then the admin, the same way.
        await expect(page, path).toHaveTitle(path === "/admin" ? "Store admin" : /^\S.* · Store admin$/);
        await expectAccessible(page, path);
      } else {
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${path} on a phone`,
        ).toBeLessThanOrEqual(width);
      }
      const name = path.replace(/^\/admin\/?/, "") || "dashboard";
      await screenshot(page, `admin-${name}-${label}`);
    }
  }
});
