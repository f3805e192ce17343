import { type Browser, expect, type Page } from "@playwright/test";
import { savePhone, shownPhone, signIn } from "../support/store-process";
import { ADMIN_EMAIL, adminPassword } from "./admin";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";

// The full-page cache of the end-to-end server, in the browser (docs/decisions/0020-full-page-cache.md); what plain
// requests show of it is tested in tests/production/page-cache.test.ts.

const adminCookie = (baseURL: string) => signIn(baseURL, ADMIN_EMAIL, adminPassword(baseURL));

/** Every message the browser logs as an error, and every page error (a refused inline script is both). */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function adminPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await context.addCookies(
    (await adminCookie(baseURL)).split("; ").map((pair) => {
      const [name, value] = pair.split("=") as [string, string];
      return { name, value, url: baseURL };
    }),
  );
  return context;
}

test("a visitor's kept page runs its scripts under its policy and shows an admin's edit at once", async ({
  page,
  browser,
  baseURL,
}) => {
  const errors = watchErrors(page);
  const original = await shownPhone(baseURL!);
  await page.goto("/antivirus/kaspersky");
  const second = await page.goto("/antivirus/kaspersky");
  expect(second?.headers()["x-cache"]).toBe("hit");
  await hydrated(page);
  // React has taken over: a link navigates in the page, without loading another document.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const link = page.getByRole("navigation", { name: "Sections" }).getByRole("link").last();
  const href = (await link.getAttribute("href"))!;
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );

  const admin = await adminPage(browser, baseURL!);
  try {
    await savePhone(
      baseURL!,
      (await admin.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
      "(212) 555-0163",
      "+12125550163",
    );
    const reloaded = await page.goto("/antivirus/kaspersky");
    expect(reloaded?.headers()["x-cache"]).toBe("miss");
    await expect(page.getByTestId("site-header").getByTestId("company-phone").first()).toContainText(
      "(212) 555-0163",
    );
    await hydrated(page);
    const kept = await page.goto("/antivirus/kaspersky");
    expect(kept?.headers()["x-cache"]).toBe("hit");
    await hydrated(page);
  } finally {
    await savePhone(
      baseURL!,
      (await admin.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
      original.local,
      original.international,
    );
    await admin.close();
  }
  expect(errors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  expect(errors).toEqual([]);
});
