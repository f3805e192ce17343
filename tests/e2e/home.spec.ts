import { expect } from "@playwright/test";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

test("the home page is rendered on the server from the embedded database", async ({ page, request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok", database: { ok: true } });

  // Without JavaScript: what the server sent.
  const html = await (await request.get("/")).text();
  expect(html).toContain("(212) 555-0100");
  expect(html).toContain('href="tel:+12125550100"');

  await page.goto("/");
  await expect(page.getByTestId("banner")).toBeVisible();
  await expect(page.getByTestId("best-sellers").getByTestId("product-card").first()).toBeVisible();
  const phone = page.getByTestId("company-phone").first();
  await expect(phone).toHaveText("(212) 555-0100");
  await expect(phone).toHaveAttribute("href", "tel:+12125550100");
  await screenshot(page, "home-desktop");
});

test("/home is the same page", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByTestId("best-sellers")).toBeVisible();
});

test("generated placeholder images are served by the app", async ({ request }) => {
  const response = await request.get("/placeholder/product/mcafee-total-protection.svg");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("image/svg+xml");
  const svg = await response.text();
  expect(svg).toContain("MCAFEE");
  expect(svg).toContain("SAMPLE IMAGE");
  expect((await request.get("/placeholder/product/..%2Fsecret.svg")).status()).toBe(404);
});
