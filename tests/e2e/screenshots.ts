import type { Locator, Page } from "@playwright/test";

/**
 * Pictures of screens for a person to look at are taken only with E2E_SCREENSHOTS=1 (a run after changing a page);
 * a failing test keeps one of its page whatever this says (playwright.config.ts).
 */
export const keepingScreenshots = process.env.E2E_SCREENSHOTS === "1";

/**
 * A picture of the whole page (or of one element) in test-results/screenshots/NAME.png. With `settle`, taken once
 * the page has stopped loading and its images have arrived.
 */
export async function screenshot(target: Page | Locator, name: string, { settle = false } = {}) {
  if (!keepingScreenshots) return;
  const path = `test-results/screenshots/${name}.png`;
  if ("goto" in target) {
    if (settle) {
      await target.waitForLoadState("networkidle");
      await target.waitForFunction(() => [...document.images].every((image) => image.complete));
    }
    await target.screenshot({ path, fullPage: true });
  } else {
    await target.screenshot({ path });
  }
}
