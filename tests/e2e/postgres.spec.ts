import { expect } from "@playwright/test";
import { test } from "./fixtures";

// Runs against the server started with DATABASE_URL on a fresh PostgreSQL database (see playwright.config.ts).
test("the same migrations and demo data serve the home page from PostgreSQL", async ({ page, request }) => {
  const health = await (await request.get("/healthz")).json();
  expect(health).toMatchObject({
    status: "ok",
    database: { driver: "postgres", ok: true },
    listener: { ok: true },
  });
  await page.goto("/");
  await expect(page.getByTestId("best-sellers").getByTestId("product-card").first()).toBeVisible();
  await expect(page.getByTestId("company-phone").first()).toHaveText("(212) 555-0100");
});
