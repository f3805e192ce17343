import { expect } from "@playwright/test";
import { adminPages, signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { watchProblems } from "./problems";
import { screenshot } from "./screenshots";

/** The lists whose first record of its kind is checked too, and the paths of their records. */
const RECORDS: Record<string, RegExp> = {
  "/admin/orders": /^\/admin\/orders\/\d+$/,
  "/admin/users": /^\/admin\/users\/[^/]+$/,
  "/admin/products": /^\/admin\/products\/\d+$/,
  "/admin/brand-content": /^\/admin\/brand-content\/[^/]+$/,
  "/admin/pages": /^\/admin\/pages\/[^/]+$/,
};

// Every admin page without a parameter, plus the dashboard and the sign-in, loaded once each: no serious or critical
// accessibility violations, a title like "Orders · Store admin", and nothing Chromium reports (an issue, a CSP
// violation, a console error); then a record of each kind that exists, for what Chromium reports there too
// (phone-width.spec.ts checks every admin page at 360 px).
test("admin pages pass axe and raise no issue in Chromium, CSP violation or console error", async ({
  page,
  baseURL,
}) => {
  // One more page each time the admin grows (the settings page made 180 s too short on a busy machine).
  test.setTimeout(300_000);
  const { problems, visit } = await watchProblems(page);
  await visit("/admin");
  await expectAccessible(page, "the admin's sign-in");

  await signInAsAdmin(page, baseURL!);
  const records: string[] = [];
  for (const path of ["/admin", ...adminPages({ withParams: false })]) {
    const response = await visit(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByTestId("admin-shell")).toBeVisible();
    // Every title names the page, then the admin, the same way.
    await expect(page, path).toHaveTitle(path === "/admin" ? "Store admin" : /^\S.* · Store admin$/);
    await expectAccessible(page, path);
    await screenshot(page, `admin-${path.replace(/^\/admin\/?/, "") || "dashboard"}-desktop`);
    const recordPath = RECORDS[path];
    if (recordPath) {
      const hrefs = await page
        .locator("a[href^='/admin/']")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
      const record = hrefs.find((href) => recordPath.test(href));
      if (record) records.push(record);
    }
  }
  // A record of each kind that exists (an order, once a test has placed one), opened from its list.
  for (const record of records) await visit(record);
  expect(problems).toEqual([]);
});
