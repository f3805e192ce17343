import { expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Codes of their own (the e2e database is shared by the whole run).
const stamp = Date.now().toString(36).toUpperCase();
const PHONE = 360;

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, `admin-promotions-${name}-desktop`);
  await page.setViewportSize({ width: PHONE, height: 800 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${name} at ${PHONE} px`,
  ).toBeLessThanOrEqual(PHONE);
  await screenshot(page, `admin-promotions-${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const rowOf = (page: Page, code: string) =>
  page.locator(`[data-testid="promotion-row"][data-code="${code}"]`);
const notice = (page: Page) => page.getByTestId("action-notice");

async function openNewForm(page: Page) {
  await page.goto("/admin/promotions");
  await hydrated(page);
  await page.getByTestId("new-promotion").click();
  await expect(page.getByRole("heading", { name: "New discount code" })).toBeVisible();
  return page.getByTestId("promotion-form");
}

test.describe.configure({ mode: "serial" });

test("the owner adds a code, finds it in the list, edits, pauses, resumes and deletes it", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/promotions");
  const code = `E2E-${stamp}`;
  const form = await openNewForm(page);
  await form.getByLabel("Code", { exact: true }).fill(code);
  await form.getByLabel("Description (optional)").fill("Security week");
  await form.getByLabel("Fixed amount off").check();
  await form.getByLabel("Amount off (USD)").fill("5");
  await form.getByLabel("Discount shipping too").check();
  await form.getByLabel("Brands").check();
  const brands = form.getByTestId("scope-brands");
  await brands.getByLabel("Norton").check();
  await brands.getByLabel("McAfee").check();
  await expect(brands).toContainText("2 ticked");
  await form.getByLabel("Minimum subtotal (USD)").fill("50");
  await expectAccessible(page);
  await screenshots(page, "new");
  await form.getByRole("button", { name: "Add discount code" }).click();

  await expect(notice(page)).toHaveText("Discount code added.");
  const row = rowOf(page, code);
  await expect(row.getByTestId("promotion-terms")).toContainText(
    "$5.00 off McAfee and Norton, shipping too, on orders from $50.00",
  );
  await expect(row.getByTestId("promotion-status")).toHaveText("Active");
  await expect(row.getByTestId("promotion-uses")).toHaveText("0 (no limit)");
  await expect(row.getByTestId("promotion-revenue")).toContainText("$0.00");
  await expect(row).toContainText("Security week");
  // Found by a search in another case, and by the Active filter.
  await page.getByLabel("Search codes").fill(code.toLowerCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("promotion-row")).toHaveCount(1);
  await page.getByRole("link", { name: /^Active/ }).click();
  await expect(page).toHaveURL(/status=active/);
  await expect(rowOf(page, code)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "list");

  // Edit: a percentage on two products picked by searching the list, with limits and an end.
  await rowOf(page, code).getByRole("link", { name: code, exact: true }).click();
  await expect(page.getByRole("heading", { name: `Discount code ${code}` })).toBeVisible();
  await hydrated(page);
  const edit = page.getByTestId("promotion-form");
  await expect(edit.getByLabel("Amount off (USD)")).toHaveValue("5.00");
  await expect(page.getByTestId("promotion-figures")).toContainText("Active");
  await edit.getByLabel("Percentage off", { exact: true }).check();
  await edit.getByLabel("Percentage off (%)").fill("12.5");
  await edit.getByLabel("Products").check();
  const products = edit.getByTestId("scope-products");
  await products.getByLabel("Find a product").fill("norton 360 deluxe");
  await products.getByLabel("Norton 360 Deluxe", { exact: true }).check();
  await products.getByLabel("Find a product").fill("archer");
  // Enter in the search box filters; it does not send the form.
  await products.getByLabel("Find a product").press("Enter");
  await expect(page).toHaveURL(/\/admin\/promotions\/\d+$/);
  await expect(page.getByTestId("form-error")).toHaveCount(0);
  await products.getByRole("checkbox").first().check();
  await expect(products).toContainText("2 ticked");
  await edit.getByLabel("Ends (UTC)").fill("2099-12-31T23:59");
  await edit.getByLabel("Total uses").fill("5");
  await edit.getByLabel("Uses per customer").fill("1");
  await edit.getByLabel("Discount shipping too").uncheck();
  await screenshots(page, "edit");
  await edit.getByRole("button", { name: "Save discount code" }).click();
  await expect(notice(page)).toHaveText("Discount code saved.");
  const saved = rowOf(page, code);
  await expect(saved.getByTestId("promotion-terms")).toContainText(
    /^12\.5% off Norton 360 Deluxe and TP-Link Archer /,
  );
  await expect(saved.getByTestId("promotion-terms")).toContainText("Once per customer");
  await expect(saved.getByTestId("promotion-uses")).toHaveText("0 of 5");
  await expect(saved).toContainText("31 Dec 2099");

  // Pause, then resume, from the list.
  await saved.getByRole("button", { name: `Pause ${code}` }).click();
  await expect(notice(page)).toHaveText("Code paused: checkout refuses it until you resume it.");
  await expect(rowOf(page, code).getByTestId("promotion-status")).toHaveText("Paused");
  await page.getByRole("link", { name: /^Paused/ }).click();
  // The row is on the list before too: resumed from there, it would stay on it.
  await expect(page).toHaveURL(/[?&]status=paused(&|$)/);
  await expect(rowOf(page, code)).toBeVisible();
  await rowOf(page, code)
    .getByRole("button", { name: `Resume ${code}` })
    .click();
  await expect(notice(page)).toHaveText(
    "Code resumed: checkout takes it again while its dates and limits allow.",
  );
  await expect(rowOf(page, code)).toHaveCount(0); // no longer paused: the filter hides it
  await page.goto(`/admin/promotions?q=${code}`);
  await expect(rowOf(page, code).getByTestId("promotion-status")).toHaveText("Active");

  // Delete, once confirmed.
  await hydrated(page);
  page.once("dialog", (dialog) => void dialog.accept());
  await rowOf(page, code)
    .getByRole("button", { name: `Delete ${code}` })
    .click();
  await expect(notice(page)).toHaveText("Discount code deleted.");
  await expect(rowOf(page, code)).toHaveCount(0);
  await expect(page.getByTestId("list-range")).toHaveText("Nothing found");
});

test("each bad input shows its message beside its field, and nothing is saved", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/promotions");
  const taken = `TAKEN-${stamp}`;
  const first = await openNewForm(page);
  await first.getByLabel("Code", { exact: true }).fill(taken);
  await first.getByLabel("Percentage off (%)").fill("10");
  await first.getByRole("button", { name: "Add discount code" }).click();
  await expect(notice(page)).toHaveText("Discount code added.");

  // The browser checks with the action's own schema: every message at once, the first field focused.
  const form = await openNewForm(page);
  const code = form.getByLabel("Code", { exact: true });
  // The field takes no more than the schema's 40 characters (the server refuses a longer one: promotions.server.test).
  await code.fill("X".repeat(10_000));
  await expect(code).toHaveValue("X".repeat(40));
  await code.fill("SAVE 10");
  await form.getByLabel("Fixed amount off").check();
  const amount = form.getByLabel("Amount off (USD)");
  await amount.fill("-5");
  await form.getByLabel("Starts (UTC)").fill("2026-12-01T10:00");
  const ends = form.getByLabel("Ends (UTC)");
  await ends.fill("2026-11-01T10:00");
  await form.getByLabel("Total uses").fill("0");
  await form.getByRole("button", { name: "Add discount code" }).click();
  await expect(code).toHaveAccessibleDescription("Use only letters, digits, - and _ (no spaces)");
  await expect(code).toBeFocused();
  await expect(amount).toHaveAccessibleDescription("The amount must be more than $0.00");
  await expect(ends).toHaveAccessibleDescription("The end must be after the start");
  await expect(form.getByLabel("Total uses")).toHaveAccessibleDescription(
    "Enter a whole number from 1 to 1,000,000, or leave it empty for no limit",
  );
  await form.getByLabel("Percentage off", { exact: true }).check();
  const percent = form.getByLabel("Percentage off (%)");
  await percent.fill("150");
  await form.getByRole("button", { name: "Add discount code" }).click();
  await expect(percent).toHaveAccessibleDescription("The percentage can be at most 100%");
  await form.getByLabel("Sections").check();
  await form.getByRole("button", { name: "Add discount code" }).click();
  await expect(form.getByTestId("scope-sections")).toContainText("Tick at least one section");
  await expectAccessible(page);
  await screenshots(page, "refused");

  // Fixed, all but the code's text, which another code has in another case: the server says so beside it.
  await code.fill(taken.toLowerCase());
  await percent.fill("10");
  await form.getByTestId("scope-sections").getByLabel("Antivirus").check();
  await form.getByLabel("Starts (UTC)").fill("");
  await ends.fill("");
  await form.getByLabel("Total uses").fill("");
  await form.getByRole("button", { name: "Add discount code" }).click();
  await expect(page.getByTestId("form-error")).toHaveText(
    "Some fields need a fix: see the messages next to them.",
  );
  await expect(page.getByLabel("Code", { exact: true })).toHaveAccessibleDescription(
    `The code ${taken.toLowerCase()} is taken: another discount code has it (in any case)`,
  );
  // Only the server could tell: its answer takes the admin to the field, as the browser's check does.
  await expect(page.getByLabel("Code", { exact: true })).toBeFocused();
  // What was typed is still there to fix.
  await expect(page.getByLabel("Percentage off (%)")).toHaveValue("10");
  await expect(page.getByTestId("scope-sections").getByLabel("Antivirus")).toBeChecked();

  // Without JavaScript the server gives the same messages, beside the same fields.
  const plain = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await noScript.context().addCookies(await page.context().cookies());
  await noScript.goto("/admin/promotions/new");
  await noScript.getByLabel("Code", { exact: true }).fill("Y Y");
  await noScript.getByLabel("Percentage off (%)").fill("1000");
  await noScript.getByLabel("Starts (UTC)").fill("2026-12-01T10:00");
  await noScript.getByLabel("Ends (UTC)").fill("2026-11-30T10:00");
  await noScript.getByRole("button", { name: "Add discount code" }).click();
  await expect(noScript.getByLabel("Code", { exact: true })).toHaveAccessibleDescription(
    "Use only letters, digits, - and _ (no spaces)",
  );
  await expect(noScript.getByLabel("Percentage off (%)")).toHaveAccessibleDescription(
    "The percentage can be at most 100%",
  );
  await expect(noScript.getByLabel("Ends (UTC)")).toHaveAccessibleDescription(
    "The end must be after the start",
  );
  await plain.close();

  // Nothing was stored but the first code.
  await page.goto(`/admin/promotions?q=${encodeURIComponent(stamp)}`);
  await expect(page.getByTestId("promotion-row")).toHaveCount(1);
  await expect(rowOf(page, taken)).toBeVisible();
});

test("an end date in the past is refused beside the field, on a new code and on an edited one", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/promotions");
  const code = `PAST-${stamp}`;
  // The date-and-time fields take UTC, to the minute.
  const fieldTime = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);
  const day = 24 * 60 * 60 * 1000;

  const form = await openNewForm(page);
  await form.getByLabel("Code", { exact: true }).fill(code);
  await form.getByLabel("Percentage off (%)").fill("10");
  const ends = form.getByLabel("Ends (UTC)");
  await ends.fill(fieldTime(-day));
  await form.getByRole("button", { name: "Add discount code" }).click();
  await expect(page.getByLabel("Ends (UTC)")).toHaveAccessibleDescription(
    "The end date is in the past: the code would never work",
  );
  await expect(page.getByLabel("Ends (UTC)")).toBeFocused();
  await expectAccessible(page);
  await screenshots(page, "ends-in-past");

  await page.getByLabel("Ends (UTC)").fill(fieldTime(2 * day));
  await page.getByRole("button", { name: "Add discount code" }).click();
  await expect(notice(page)).toHaveText("Discount code added.");
  await expect(rowOf(page, code).getByTestId("promotion-status")).toHaveText("Active");

  // Moving the end of a running code into the past is refused too...
  await rowOf(page, code).getByRole("link", { name: code, exact: true }).click();
  await expect(page.getByRole("heading", { name: `Discount code ${code}` })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Ends (UTC)").fill(fieldTime(-day));
  await page.getByRole("button", { name: "Save discount code" }).click();
  await expect(page.getByLabel("Ends (UTC)")).toHaveAccessibleDescription(
    "The end date is in the past: to end the code now, pause it or set the end to the current time",
  );
  // ...while ending it now, at the current minute, ends it.
  await page.getByLabel("Ends (UTC)").fill(fieldTime(0));
  await page.getByRole("button", { name: "Save discount code" }).click();
  await expect(notice(page)).toHaveText("Discount code saved.");
  await expect(rowOf(page, code).getByTestId("promotion-status")).toHaveText("Expired");
});
