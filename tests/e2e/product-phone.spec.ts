import { expect } from "@playwright/test";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

/** A common phone's screen, in CSS pixels. */
const PHONE = { width: 390, height: 844 };

const PRODUCTS = [
  "/antivirus/norton/360-deluxe",
  // The longest names, which take two or three lines on a phone.
  "/antivirus/norton/360-with-lifelock-select",
  "/printer/hp-color-laserjet-pro-mfp-m479fdw",
];

for (const path of PRODUCTS) {
  test(`on a ${PHONE.width}x${PHONE.height} phone the price and Add to cart of ${path} are on screen without scrolling, under the header and the demo banner`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(path);
      await hydrated(page);
      await expect(page.getByTestId("sandbox-banner")).toBeVisible();
      await expect(page.getByTestId("site-header")).toBeVisible();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      for (const id of ["product-name", "product-price", "add-to-cart"]) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect(box, id).not.toBeNull();
        expect(box.y, id).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height, id).toBeLessThanOrEqual(PHONE.height);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await screenshot(page, `product-phone-${path.split("/").pop()}`, { settle: true });
    } finally {
      await context.close();
    }
  });
}

test("on a wide screen the product's image keeps the left column, beside its name, price and Add to cart", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(PRODUCTS[0]!);
    await hydrated(page);
    const image = (await page.getByTestId("product-image").boundingBox())!;
    for (const id of ["product-name", "add-to-cart", "product-description"]) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.x, id).toBeGreaterThan(image.x + image.width);
    }
    const name = (await page.getByTestId("product-name").boundingBox())!;
    expect(Math.abs(name.y - image.y)).toBeLessThan(60);
    const addToCart = (await page.getByTestId("add-to-cart").boundingBox())!;
    expect(addToCart.y + addToCart.height).toBeLessThanOrEqual(800);
    await screenshot(page, "product-wide", { settle: true });
  } finally {
    await context.close();
  }
});
