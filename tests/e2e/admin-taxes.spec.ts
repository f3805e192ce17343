import { expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Rules of their own (the e2e database is shared by the whole run, and may hold the demo store's rules).
const stamp = Date.now().toString(36).toUpperCase();
const PHONE = 360;

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, `admin-taxes-${name}-desktop`);
  await page.setViewportSize({ width: PHONE, height: 800 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${name} at ${PHONE} px`,
  ).toBeLessThanOrEqual(PHONE);
  await screenshot(page, `admin-taxes-${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const notice = (page: Page) => page.getByTestId("action-notice");
const ruleRow = (page: Page, name: string) =>
  page.locator(`[data-testid="tax-rule-row"][data-name="${name}"]`);
/** The names of this test's rules, in the order the page lists them. */
const ourRules = async (page: Page) =>
  (
    await page
      .getByTestId("tax-rule-row")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-name")))
  ).filter((name) => name?.endsWith(stamp));

async function addRule(
  page: Page,
  rule: { country: string; state: string; name: string; rate: string; shipping?: boolean },
) {
  await page.getByTestId("new-tax-rule").click();
  const form = page.getByTestId("tax-rule-form");
  await form.getByLabel("Country").selectOption({ label: rule.country });
  await form.getByLabel("State").selectOption({ label: rule.state });
  await form.getByLabel("Name").fill(rule.name);
  await form.getByLabel("Rate (%)").fill(rule.rate);
  if (rule.shipping) await form.getByLabel("Tax shipping at this rate too").check();
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(notice(page)).toHaveText("Tax rule added: checkout charges it on orders placed from now on.");
}

test.describe.configure({ mode: "serial" });

test("the owner adds tax rules by country and state, reorders, edits and deletes them; bad rates are refused beside the field", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/taxes");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Taxes", exact: true })).toBeVisible();
  const cgst = `CGST ${stamp}`;
  const sgst = `SGST ${stamp}`;
  await addRule(page, { country: "India", state: "KA · Karnataka", name: cgst, rate: "9" });
  await addRule(page, { country: "India", state: "KA · Karnataka", name: sgst, rate: "9", shipping: true });
  await expect(ruleRow(page, cgst)).toContainText("India · KA (Karnataka)");
  await expect(ruleRow(page, sgst).getByTestId("tax-rule-rate")).toHaveText("9%");
  await expect(ruleRow(page, sgst)).toContainText("Taxed");
  expect(await ourRules(page)).toEqual([cgst, sgst]);

  // The last of its state moves up; the first cannot move further up.
  await ruleRow(page, sgst)
    .getByRole("button", { name: `Move ${sgst} up` })
    .click();
  await expect(notice(page)).toHaveText("Tax rule moved.");
  expect(await ourRules(page)).toEqual([sgst, cgst]);

  // Bad rates: refused beside the field by the browser, and by the server without JavaScript's help.
  await page.getByTestId("new-tax-rule").click();
  const form = page.getByTestId("tax-rule-form");
  const rate = form.getByLabel("Rate (%)");
  await form.getByLabel("Country").selectOption({ label: "United States" });
  await form.getByLabel("State").selectOption({ label: "NY · New York" });
  await form.getByLabel("Name").fill(`NY sales tax ${stamp}`);
  for (const [typed, message] of [
    ["-1", "The rate cannot be negative"],
    ["1000", "The rate can be at most 100%"],
    ["8.875", "The store keeps rates to a hundredth of a percent: round 8.875 to 8.87 or 8.88"],
  ]) {
    await rate.fill(typed!);
    await form.getByRole("button", { name: "Add rule" }).click();
    await expect(rate).toHaveAccessibleDescription(message!);
  }
  await expectAccessible(page);
  await screenshots(page, "rule-refused");
  const forged = await page.request.post("/admin/taxes", {
    form: {
      intent: "rule-save",
      country: "US",
      region: "NY",
      productKind: "all",
      name: "Forged",
      rate: "1000",
    },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain("The rate can be at most 100%");
  await rate.fill("8.25");
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(notice(page)).toHaveText("Tax rule added: checkout charges it on orders placed from now on.");
  await expect(ruleRow(page, `NY sales tax ${stamp}`)).toContainText("United States · NY (New York)");
  await expect(ruleRow(page, `NY sales tax ${stamp}`).getByTestId("tax-rule-rate")).toHaveText("8.25%");
  await expect(ruleRow(page, "Forged")).toHaveCount(0);

  // Edit: another rate and what it taxes.
  await ruleRow(page, cgst)
    .getByRole("link", { name: `Edit ${cgst}` })
    .click();
  const edit = page.getByTestId("tax-rule-form");
  await expect(edit.getByLabel("Rate (%)")).toHaveValue("9");
  await expect(edit.getByLabel("State")).toHaveValue("KA");
  await edit.getByLabel("Rate (%)").fill("12.5");
  await edit.getByLabel("Taxes").selectOption({ label: "Software (licence keys)" });
  await edit.getByRole("button", { name: "Save rule" }).click();
  await expect(notice(page)).toHaveText(
    "Tax rule saved: orders placed from now on use it; placed orders keep what they were charged.",
  );
  await expect(ruleRow(page, cgst).getByTestId("tax-rule-rate")).toHaveText("12.5%");
  await expect(ruleRow(page, cgst)).toContainText("Software (licence keys)");
  await expectAccessible(page);
  await screenshots(page, "rules");

  // Delete, once confirmed.
  page.once("dialog", (dialog) => void dialog.accept());
  await ruleRow(page, sgst)
    .getByRole("button", { name: `Delete ${sgst}` })
    .click();
  await expect(notice(page)).toHaveText(
    "Tax rule deleted: orders placed with it keep what they were charged.",
  );
  expect(await ourRules(page)).toEqual([cgst, `NY sales tax ${stamp}`]);
  // The rest go too: checkout charges every rule, and other tests price orders in New York and India.
  for (const name of [cgst, `NY sales tax ${stamp}`]) {
    page.once("dialog", (dialog) => void dialog.accept());
    await ruleRow(page, name)
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    await expect(ruleRow(page, name)).toHaveCount(0);
  }
  expect(await ourRules(page)).toEqual([]);

  // The audit log has every change.
  await page.goto("/admin/audit?entity=tax_rule");
  await expect(page.getByText("tax_rule.move_up").first()).toBeVisible();
  await expect(page.getByText("tax_rule.delete").first()).toBeVisible();
});

test("the owner records the store's tax registrations and whether prices include tax", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page, baseURL!, "/admin/taxes");
  await hydrated(page);
  const registrations = page.getByTestId("tax-registrations");

  await registrations.getByTestId("new-tax-registration").click();
  const form = page.getByTestId("tax-registration-form");
  await form.getByLabel("Country").selectOption({ label: "India" });
  await form.getByLabel("Kind of number").fill("GSTIN");
  await form.getByLabel("Number", { exact: true }).fill("29ABCDE1234");
  await form.getByLabel("KA · Karnataka").check();
  await form.getByRole("button", { name: "Add registration" }).click();
  await expect(form.getByLabel("Number", { exact: true })).toHaveAccessibleDescription(
    "A GSTIN has 15 characters: the state's 2 digits, the PAN, then 3 more, like 29ABCDE1234F1Z5",
  );
  const gstin = `29ABCDE${String(Date.now() % 10_000).padStart(4, "0")}F1Z5`;
  await form.getByLabel("Number", { exact: true }).fill(gstin.toLowerCase());
  await form.getByRole("button", { name: "Add registration" }).click();
  await expect(notice(page)).toHaveText("Registration added: invoices print it from now on.");
  const row = registrations.locator(`[data-testid="tax-registration-row"][data-number="${gstin}"]`);
  await expect(row).toContainText("India");
  await expect(row).toContainText(`GSTIN ${gstin}`);
  await expect(row).toContainText("KA (Karnataka)");

  // Edit: the states it collects in.
  await row.getByRole("link", { name: `Edit ${gstin}` }).click();
  const edit = page.getByTestId("tax-registration-form");
  await expect(edit.getByLabel("KA · Karnataka")).toBeChecked();
  await edit.getByLabel("MH · Maharashtra").check();
  await expectAccessible(page);
  await screenshots(page, "registration-edit");
  await edit.getByRole("button", { name: "Save registration" }).click();
  await expect(notice(page)).toHaveText("Registration saved: invoices print it from now on.");
  await expect(row).toContainText("KA (Karnataka), MH (Maharashtra)");

  // A country without a state list takes region codes as text.
  await registrations.getByTestId("new-tax-registration").click();
  const canada = page.getByTestId("tax-registration-form");
  await canada.getByLabel("Country").selectOption({ label: "Canada" });
  await canada.getByLabel("Kind of number").fill("GST");
  await canada
    .getByLabel("Number", { exact: true })
    .fill(`123456789RT${String(Date.now() % 10_000).padStart(4, "0")}`);
  await canada.getByLabel("Regions it collects tax in (optional)").fill("bc, on");
  await canada.getByRole("button", { name: "Add registration" }).click();
  await expect(notice(page)).toHaveText("Registration added: invoices print it from now on.");
  await expect(registrations).toContainText("BC, ON");

  // Prices include tax: saved, and shown ticked again.
  const prices = page.getByTestId("tax-prices-form");
  const includes = prices.getByLabel("Catalogue prices include tax");
  const was = await includes.isChecked();
  await includes.setChecked(!was);
  await prices.getByRole("button", { name: "Save" }).click();
  await expect(notice(page)).toHaveText(
    "Saved: checkout works tax out this way for orders placed from now on.",
  );
  await expect(page.getByTestId("tax-prices-form").getByLabel("Catalogue prices include tax")).toBeChecked({
    checked: !was,
  });
  await screenshots(page, "page");
  // Put it back for the rest of the run. The notice of the save before reads the same: wait for this save's
  // answer, or the delete below is clicked while the page is still being answered and is lost.
  await page.getByTestId("tax-prices-form").getByLabel("Catalogue prices include tax").setChecked(was);
  const putBack = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/admin/taxes"),
  );
  await page.getByTestId("tax-prices-form").getByRole("button", { name: "Save" }).click();
  expect((await putBack).ok()).toBe(true);
  await expect(notice(page)).toHaveText(
    "Saved: checkout works tax out this way for orders placed from now on.",
  );
  await expect(page.getByTestId("tax-prices-form").getByLabel("Catalogue prices include tax")).toBeChecked({
    checked: was,
  });

  // Delete the registration, once confirmed.
  page.once("dialog", (dialog) => void dialog.accept());
  await registrations
    .locator(`[data-testid="tax-registration-row"][data-number="${gstin}"]`)
    .getByRole("button", { name: `Delete ${gstin}` })
    .click();
  await expect(notice(page)).toHaveText("Registration deleted.");
  await expect(registrations.locator(`[data-number="${gstin}"]`)).toHaveCount(0);
});
