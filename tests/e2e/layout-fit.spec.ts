import { expect, type Locator, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { addToCart } from "./cart";
import { fillCheckout } from "./checkout-form";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

const PHONE = 390;
const DESKTOP = 1280;
const run = Date.now().toString(36);

/**
 * Whether a piece of text is shown whole: nothing of it overflows its own box, and its box lies inside the box that
 * could cut it (a tile, a scrolling table, the page), to the half pixel.
 */
async function clipping(text: Locator, container: Locator) {
  return text.evaluate(
    (element, outer) => {
      const inner = element.getBoundingClientRect();
      const bounds = outer!.getBoundingClientRect();
      return {
        text: element.textContent?.trim() ?? "",
        overflows: element.scrollWidth > element.clientWidth + 0.5,
        outside:
          inner.left < bounds.left - 0.5 ||
          inner.right > bounds.right + 0.5 ||
          inner.top < bounds.top - 0.5 ||
          inner.bottom > bounds.bottom + 0.5,
      };
    },
    await container.elementHandle(),
  );
}

async function expectWhole(text: Locator, container: Locator, where: string) {
  const seen = await clipping(text, container);
  expect(seen, `"${seen.text}" is cut ${where}`).toMatchObject({ overflows: false, outside: false });
}

/** Whether an element's text takes one line: its height is less than one and a half of its line height. */
async function expectOneLine(text: Locator, where: string) {
  const seen = await text.evaluate((element) => ({
    text: element.textContent?.trim() ?? "",
    height: element.getBoundingClientRect().height,
    line: parseFloat(getComputedStyle(element).lineHeight),
  }));
  expect(seen.height, `"${seen.text}" takes more than one line ${where}`).toBeLessThan(seen.line * 1.5);
}

async function settled(page: Page) {
  await expect(page.getByTestId("route-spinner")).toHaveCount(0);
}

test("brand tiles show their whole name and product count at 390 and 1280 px", async ({ page }) => {
  for (const section of ["/antivirus", "/windows", "/printer", "/router"]) {
    for (const width of [PHONE, DESKTOP]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(section);
      const tiles = page.getByTestId("brand-tile");
      expect(await tiles.count()).toBeGreaterThan(0);
      for (const tile of await tiles.all()) {
        await expectWhole(tile.getByTestId("brand-tile-name"), tile, `on ${section} at ${width} px`);
        const count = tile.getByTestId("brand-tile-count");
        await expect(count).toHaveText(/^\d+ products?$/);
        await expectWhole(count, tile, `on ${section} at ${width} px`);
      }
      await settled(page);
      const grid = page.getByTestId("brand-tiles");
      await grid.scrollIntoViewIfNeeded();
      await expect
        .poll(() =>
          grid
            .locator("img")
            .evaluateAll((images) => images.every((image) => (image as HTMLImageElement).complete)),
        )
        .toBe(true);
      await screenshot(grid, `brand-tiles${section.replace("/", "-")}-${width}`);
    }
  }
});

test("each brand logo's name fits beside its circle, inside the logo", async ({ page }) => {
  const logos = new Set<string>();
  for (const section of ["/antivirus", "/windows", "/printer", "/router"]) {
    await page.goto(section);
    for (const src of await page
      .getByTestId("brand-tile")
      .locator("img")
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).getAttribute("src") ?? "")))
      logos.add(src);
  }
  expect(logos.size).toBeGreaterThanOrEqual(20);
  for (const logo of logos) {
    // The drawing as the browser renders it: the name's box against the circle's and the logo's edges.
    await page.goto(logo);
    const box = await page.evaluate(() => {
      const svg = document.querySelector("svg")!;
      const circle = document.querySelector("circle")!;
      const text = document.querySelector("text")!;
      const ring = circle.getBBox();
      const stroke = Number(circle.getAttribute("stroke-width") ?? 0);
      const name = text.getBBox();
      return {
        ringRight: ring.x + ring.width + stroke / 2,
        nameLeft: name.x,
        nameRight: name.x + name.width,
        width: svg.viewBox.baseVal.width,
      };
    });
    expect(box.nameLeft, `${logo}: the name runs into the circle`).toBeGreaterThanOrEqual(box.ringRight + 8);
    expect(box.nameRight, `${logo}: the name runs off the logo`).toBeLessThanOrEqual(box.width - 12);
  }
});

test("an order's lines read whole at 1280 and 390 px: the admin's Total column and each line's GST", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // Long names, two taxes a line (CGST and SGST in Uttar Pradesh).
  await addToCart(page, "/antivirus/norton/360-with-lifelock-select", 2);
  await addToCart(page, "/antvirus/pcmatic/business-endpoint-protection");
  await page.goto("/payment");
  await hydrated(page);
  await fillCheckout(page, {
    email: `layout.${run}@example.com`,
    city: "Lucknow",
    postalCode: "226001",
    country: "IN",
    state: "UP",
    method: "sandbox",
  });
  // The checkout's summary lays its lines out the same way.
  for (const width of [DESKTOP, PHONE]) {
    await page.setViewportSize({ width, height: 900 });
    const taxes = page.getByTestId("summary-line-tax");
    await expect(taxes).toHaveCount(4);
    for (const tax of await taxes.all()) await expectOneLine(tax, `in the checkout's summary at ${width} px`);
    await screenshot(page.getByTestId("summary-line").first().locator(".."), `checkout-gst-${width}`);
  }
  await page.getByTestId("place-order").click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  const number = /\/order\/(\d+)/.exec(page.url())![1]!;
  await hydrated(page);

  for (const width of [DESKTOP, PHONE]) {
    await page.setViewportSize({ width, height: 900 });
    const taxes = page.getByTestId("order-line-tax");
    await expect(taxes).toHaveCount(4);
    for (const tax of await taxes.all()) {
      await expectOneLine(tax, `on the order page at ${width} px`);
      await expectWhole(tax, page.getByTestId("order-line").first().locator(".."), `at ${width} px`);
    }
    await settled(page);
    await screenshot(page.getByRole("region", { name: "Items" }), `order-gst-${width}`);
  }

  const admin = await browser.newPage();
  await signInAsAdmin(admin, baseURL!);
  await admin.goto(`/admin/orders/${number}`);
  await hydrated(admin);
  for (const width of [DESKTOP, PHONE]) {
    await admin.setViewportSize({ width, height: 900 });
    const items = admin.getByTestId("admin-order-items");
    const totals = admin.getByTestId("admin-order-line-total");
    await expect(totals).toHaveCount(2);
    for (const total of await totals.all())
      await expectWhole(total, items, `in the admin's order at ${width} px`);
    await expectWhole(admin.getByRole("columnheader", { name: "Total" }), items, `at ${width} px`);
    const taxes = admin.getByTestId("admin-order-line-tax");
    await expect(taxes).toHaveCount(4);
    for (const tax of await taxes.all()) {
      await expectWhole(tax, items, `in the admin's order at ${width} px`);
      if (width === DESKTOP) await expectOneLine(tax, `in the admin's order at ${width} px`);
    }
    await settled(admin);
    await screenshot(items.locator(".."), `admin-order-lines-${width}`);
  }
  await admin.context().close();
});
