import { expect, test } from "@playwright/test";
import { ADMIN_EMAIL, signInAsAdmin } from "./admin";

test("the first admin, made by admin:create, signs in at /admin and sees the dashboard", async ({
  page,
  baseURL,
}) => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
  // The admin area has no public header, and the admin footer.
  await expect(page.getByTestId("admin-footer")).toBeVisible();
  await expect(page.getByRole("search", { name: /products/i })).toHaveCount(0);

  await signInAsAdmin(page, baseURL!);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByTestId("sales-summary")).toContainText("Last 30 days");
  await expect(page.getByTestId("sales-chart")).toBeVisible();
  await expect(page.getByTestId("work-queue")).toContainText("Orders awaiting payment");
  await expect(page.getByTestId("admin-email")).toHaveText(ADMIN_EMAIL);
  await page.screenshot({ path: "test-results/screens/admin-dashboard.png", fullPage: true });
});
