import { expect } from "@playwright/test";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

// The demo store has 25 best sellers: two pages of 24 and 1.
test("a listing comes a page at a time, with links people and crawlers can follow", async ({
  page,
  request,
}) => {
  expect((await page.goto("/best-sellers"))?.status()).toBe(200);
  await hydrated(page);
  await expect(page.getByTestId("result-count")).toHaveText("25 products");
  const firstPage = await page.getByTestId("product-card").getByRole("heading").allTextContents();
  expect(firstPage).toHaveLength(24);
  const pager = page.getByTestId("pager");
  await expect(pager).toContainText("Page 1 of 2");
  await expect(page.getByTestId("pager-previous")).toHaveCount(0);
  // A plain link to the next page, in the server's HTML.
  await expect(page.getByTestId("pager-next")).toHaveAttribute("href", "/best-sellers?page=2");
  expect(await (await request.get("/best-sellers")).text()).toContain('href="/best-sellers?page=2"');

  await page.getByTestId("pager-next").click();
  await expect(page).toHaveURL(/\/best-sellers\?page=2$/);
  await expect(pager).toContainText("Page 2 of 2");
  const secondPage = await page.getByTestId("product-card").getByRole("heading").allTextContents();
  expect(secondPage).toHaveLength(1);
  expect(firstPage).not.toContain(secondPage[0]);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/best-sellers\?page=2$/);

  await page.getByTestId("pager-previous").click();
  await expect(page).toHaveURL(/\/best-sellers$/);
  await expect(page.getByTestId("product-card")).toHaveCount(24);
});

test("a page past the last, or one that is not a page number, is not found", async ({ request }) => {
  for (const path of [
    "/best-sellers?page=3",
    "/best-sellers?page=0",
    "/best-sellers?page=abc",
    "/best-sellers?page=01",
    "/antivirus/mcafee?page=2",
    "/antivirus/mcafee/total-protection?page=2",
    "/search?q=norton&page=2",
    "/search?q=norton&page=-1",
  ]) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
  for (const path of [
    "/best-sellers?page=1",
    "/best-sellers?page=2",
    "/antivirus/mcafee?page=1",
    "/search?q=norton",
  ]) {
    expect((await request.get(path)).status(), path).toBe(200);
  }
});

test("search results come a page at a time, ranked the same on every page", async ({ page }) => {
  expect((await page.goto("/search?q=security"))?.status()).toBe(200);
  await hydrated(page);
  const count = await page.getByTestId("result-count").textContent();
  const total = Number(/^(\d+) products found$/.exec(count ?? "")?.[1]);
  expect(total).toBeGreaterThan(24);
  expect(total).toBeLessThanOrEqual(48);
  const cards = page.getByTestId("search-results").getByTestId("product-card");
  await expect(cards).toHaveCount(24);
  const firstPage = await cards.getByRole("heading").allTextContents();
  await expect(page.getByTestId("pager")).toContainText("Page 1 of 2");
  await expect(page.getByTestId("pager-next")).toHaveAttribute("href", "/search?q=security&page=2");

  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByTestId("pager-next").click();
  await expect(page).toHaveURL(/\/search\?q=security&page=2$/);
  await expect(page.getByTestId("pager")).toContainText("Page 2 of 2");
  await expect(page.getByTestId("result-count")).toHaveText(`${total} products found`);
  await expect(cards).toHaveCount(total - 24);
  const secondPage = await cards.getByRole("heading").allTextContents();
  for (const name of secondPage) expect(firstPage).not.toContain(name);
  await screenshot(page, "search-page-2-360");

  expect((await page.goto("/search?q=security&page=3"))?.status()).toBe(404);
});
