import { expect, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";

/** Puts `quantity` of the product at `path` in the browser's cart, as a shopper does on its page. */
export async function addToCart(page: Page, path: string, quantity = 1) {
  await page.goto(path);
  await hydrated(page);
  if (quantity !== 1) await page.getByTestId("add-quantity").fill(String(quantity));
  await page.getByTestId("add-to-cart").click();
  await expect(page.getByTestId("toast").last()).toContainText("added to your cart");
}
