import { expect, type Page } from "@playwright/test";
import { freshAdminAddress, signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { waitForMail } from "./mail";
import { screenshot } from "./screenshots";

const PASSWORD = "a clerk's own secret";

async function expectFitsPhone(page: Page, label: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
  await screenshot(page, `${label}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const menu = (page: Page) => page.getByRole("navigation", { name: "Admin" });

test("the owner invites an orders clerk, who sees and may use only the orders' pages; a new role, then removal", async ({
  page,
  browser,
  baseURL,
}) => {
  const clerkEmail = `clerk.${Date.now().toString(36)}@example.com`;
  await signInAsAdmin(page, baseURL!, "/admin/staff");
  await expect(page.getByRole("heading", { name: "Staff", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle("Staff · Store admin");
  await expectAccessible(page, "staff page");
  await expectFitsPhone(page, "admin-staff");

  // The invitation: an e-mail with a link to choose a password.
  const invite = page.getByTestId("staff-invite-form");
  await invite.getByLabel("E-mail address").fill(clerkEmail);
  await invite.getByLabel("Role").selectOption("orders");
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`${clerkEmail} is invited as orders staff`);
  const row = page.locator(`[data-testid=staff-row][data-email="${clerkEmail}"]`);
  await expect(row.getByTestId("staff-role")).toHaveText("Orders");
  await expect(row).toContainText("Has not chosen a password yet");
  await expect(invite.getByLabel("E-mail address")).toHaveValue("");
  await screenshot(page, "admin-staff");
  const mail = await waitForMail(
    baseURL!,
    (sent) => sent.to === clerkEmail && /staff account/.test(sent.subject),
  );
  expect(mail.text).toContain("with the role Orders");
  const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/reset-password\/\S+/)![0];

  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": freshAdminAddress() },
  });
  const clerk = await context.newPage();
  await clerk.goto(link);
  await hydrated(clerk);
  await clerk.getByLabel("New password", { exact: true }).fill(PASSWORD);
  await clerk.getByLabel("Repeat the new password").fill(PASSWORD);
  await clerk.getByRole("button", { name: "Save the new password" }).click();
  await expect(clerk).toHaveURL(/\/user\/login$/);

  await clerk.goto("/admin");
  await hydrated(clerk);
  await clerk.getByLabel("E-mail address").fill(clerkEmail);
  await clerk.getByLabel("Password").fill(PASSWORD);
  await clerk.getByRole("button", { name: "Sign in" }).click();
  await expect(clerk.getByTestId("admin-shell")).toBeVisible();
  // The menu shows what the role may use, and the dashboard its figures (sales, for the orders role).
  await expect(menu(clerk).getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(menu(clerk).getByRole("link", { name: "Messages" })).toBeVisible();
  for (const name of ["Settings", "SEO records", "Staff", "Products", "Audit log", "Licence keys"])
    await expect(menu(clerk).getByRole("link", { name, exact: true })).toHaveCount(0);
  await expect(clerk.getByTestId("sales-summary")).toBeVisible();
  // The test-payments warning links to the settings for the owner only.
  await expect(clerk.getByTestId("sandbox-banner").getByRole("link")).toHaveCount(0);
  await expectAccessible(clerk, "orders clerk's dashboard");
  await screenshot(clerk, "admin-dashboard-orders-role");

  // The server refuses the rest: pages, their data, posts, exports and better-auth's admin endpoints.
  const origin = { Origin: baseURL! };
  for (const path of ["/admin/settings", "/admin/seo", "/admin/staff", "/admin/export/keys.csv"]) {
    expect((await clerk.request.get(path, { maxRedirects: 0 })).status(), `GET ${path}`).toBe(403);
    expect((await clerk.request.get(`${path}.data`, { maxRedirects: 0 })).status(), `GET ${path}.data`).toBe(
      403,
    );
  }
  for (const path of ["/admin/settings", "/admin/seo", "/admin/staff"]) {
    const post = await clerk.request.post(path, {
      form: { intent: "invite", email: "x@example.com", role: "owner" },
      headers: origin,
      maxRedirects: 0,
    });
    expect(post.status(), `POST ${path}`).toBe(403);
  }
  expect((await clerk.request.get("/api/auth/admin/list-users")).status()).toBeGreaterThanOrEqual(401);
  expect((await clerk.request.get("/admin/orders")).status()).toBe(200);
  await clerk.goto("/admin/settings");
  await expect(clerk.getByRole("heading", { name: "No access" })).toBeVisible();

  // The owner gives the clerk the content role: the menu follows at the next page.
  await page.reload();
  await row.getByLabel("Role").selectOption("content");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`${clerkEmail} is now content staff`);
  await expect(row.getByTestId("staff-role")).toHaveText("Content");
  await clerk.goto("/admin");
  await expect(menu(clerk).getByRole("link", { name: "SEO records" })).toBeVisible();
  await expect(menu(clerk).getByRole("link", { name: "Orders", exact: true })).toHaveCount(0);
  await expect(clerk.getByTestId("sales-summary")).toHaveCount(0);
  await screenshot(clerk, "admin-dashboard-content-role");
  expect((await clerk.request.get("/admin/orders", { maxRedirects: 0 })).status()).toBe(403);

  // Removed from the staff: the clerk's session is over.
  await row.getByRole("button", { name: "Remove from staff" }).click();
  await expect(page.getByTestId("action-notice")).toContainText(`${clerkEmail} is no longer on the staff`);
  await expect(row).toHaveCount(0);
  await clerk.goto("/admin/seo");
  await expect(clerk.getByRole("heading", { name: "Admin sign-in" })).toBeVisible();
  await context.close();
});
