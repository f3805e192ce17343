import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { confirmationLink } from "./mail";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";

// Runs against the server on PostgreSQL (see playwright.config.ts): this test writes to the server's database
// itself, from outside the browser and the server, as another process or an admin in psql would.

const PASSWORD = "correct horse battery";
const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null") as Record<string, unknown> | null);

test("the open page follows the user record live; a failed activity write shows a toast; deleting the record signs the page out", async ({
  page,
  baseURL,
}) => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/storefront_e2e_${new URL(baseURL!).port}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const email = `live.${Date.now().toString(36)}@example.com`;
  try {
    await page.context().setExtraHTTPHeaders({ "X-Forwarded-For": "203.0.113.200" });
    await page.goto("/user/login?redirectTo=%2Fuser%2Fdashboard");
    await hydrated(page);
    const form = page.getByTestId("sign-up-form");
    await form.getByLabel("Your name").fill("Ada Lovelace");
    await form.getByLabel("E-mail address").fill(email);
    await form.getByLabel("Choose a password").fill(PASSWORD);
    await form.getByRole("button", { name: "Create my account" }).click();
    await expect(page.getByTestId("sign-up-sent")).toBeVisible();
    await page.goto(await confirmationLink(baseURL!, email));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Ada");
    await expect.poll(async () => (await storedUser(page))?.name).toBe("Ada Lovelace");
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // Changed in the database: the page and its local copy follow, without a reload.
    await db.query(`update "user" set name = 'Augusta Ada King' where email = $1`, [email]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hello, Augusta");
    await expect.poll(async () => (await storedUser(page))?.name).toBe("Augusta Ada King");
    await expect(page.getByTestId("user-menu-name")).toHaveText("Augusta");
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );

    // The database refuses the InActive write: signing out still works, and says the activity was not saved.
    await db.query(
      `alter table "user" add constraint e2e_refuse_logout check (last_logout is null) not valid`,
    );
    try {
      await page.getByTestId("user-menu-toggle").click();
      await page.getByTestId("sign-out").click();
      await expect(page).toHaveURL(/\/user\/login$/);
      await expect(
        page.getByTestId("toast").filter({ hasText: "Error while updating activity" }),
      ).toBeVisible();
    } finally {
      await db.query(`alter table "user" drop constraint if exists e2e_refuse_logout`);
    }
    const [row] = (await db.query(`select status, last_logout from "user" where email = $1`, [email])).rows;
    expect(row).toEqual({ status: "Active", last_logout: null });

    // Signed in again; then the record is deleted: the page is signed out and sent to /user/login.
    const signIn = page.getByTestId("sign-in-form");
    await signIn.getByLabel("E-mail address").fill(email);
    await signIn.getByLabel("Password").fill(PASSWORD);
    // The page follows the record once its event stream is open; a record deleted before that is only a session
    // that no longer signs in, which the stream reports as signed out.
    const following = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/user/events" && response.ok(),
    );
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await expect.poll(async () => (await storedUser(page))?.status).toBe("Active");
    await following;
    await db.query(`delete from "user" where email = $1`, [email]);
    await expect(page).toHaveURL(/\/user\/login$/);
    await expect.poll(() => storedUser(page)).toBeNull();
    await expect(page.getByTestId("sign-in-link")).toBeVisible();
  } finally {
    await db.end();
  }
});
