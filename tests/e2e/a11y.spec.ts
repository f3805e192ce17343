import { expect } from "@playwright/test";
import { hydrated } from "./hydrated";
import { expectAccessible } from "./axe";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// Whole pages, header and footer included: no serious or critical accessibility violations.
for (const [name, path] of [
  ["home", "/"],
  ["brand page", "/antivirus/mcafee"],
  ["product page", "/windows/windows7/professional"],
  ["search", "/search?q=nortn"],
  ["contact", "/contact"],
  ["404 page", "/no/such/page"],
  // The valid link's pages are checked in renewal-reminders.postgres.spec.ts, which has a real link.
  ["renewal reminders' page for a broken unsubscribe link", "/reminders/unsubscribe?token=broken"],
] as const) {
  test(`axe finds no serious or critical violations on the ${name}`, async ({ page }) => {
    await page.goto(path);
    await expectAccessible(page, name);
  });
}

test("axe finds no serious or critical violations in the cart and checkout", async ({ page }) => {
  await page.goto("/router/tplink/archer-c80");
  await hydrated(page);
  await page.getByTestId("add-to-cart").click();
  for (const path of ["/cart", "/payment"]) {
    await page.goto(path);
    await expect(page.getByTestId(path === "/cart" ? "cart-line" : "summary-line").first()).toBeVisible();
    await expectAccessible(page, path);
  }
});

test("home, a brand page and a product page fit phone and desktop widths", async ({ page }) => {
  for (const [width, height, label] of [
    [390, 844, "phone"],
    [1280, 900, "desktop"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const [name, path] of [
      ["home", "/"],
      ["brand", "/antivirus/mcafee"],
      ["product", "/windows/windows7/professional"],
    ] as const) {
      await page.goto(path);
      // Nothing may scroll sideways on a phone.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${name} ${label}`,
      ).toBeLessThanOrEqual(width);
      await screenshot(page, `${name}-${label}`);
    }
  }
});
