import type { Page } from "@playwright/test";

/** The page answers clicks and typing with JavaScript (React has taken over the server's HTML). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
}
