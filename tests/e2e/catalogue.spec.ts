import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";
import { animationsDone, axeOf } from "./axe";
import { test } from "./fixtures";
import { seedSite } from "./seed-site";
import { screenshot } from "./screenshots";

type SeedProduct = {
  id: string;
  name: string;
  price: string;
  originalPrice: string;
  route: string;
  specifications: Record<string, string>;
};
type SeedGroup = {
  key: string;
  name: string;
  section: string;
  officialWebsite: string;
  owner?: string;
  products: SeedProduct[];
};

const catalogue = JSON.parse(readFileSync("app/modules/seed/data/catalogue.json", "utf8")) as {
  groups: SeedGroup[];
};
const site = seedSite<{
  webInfo: { name: string };
  productMetadata: Record<string, { title: string }>;
}>();
const STORE = site.webInfo.name;
const SECTIONS = ["antivirus", "windows", "printer", "router"] as const;
const productsByRoute = new Map(
  catalogue.groups.flatMap((group) =>
    group.products.map((product) => [product.route.toLowerCase(), { group, product }] as const),
  ),
);

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The text of the first element with this data-testid in server-rendered HTML. */
function testIdText(html: string, testId: string, tag = "[a-z0-9]+"): string | null {
  const match = new RegExp(`<(${tag})[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match ? decode(match[2]!).trim() : null;
}

/** Label/value rows of the specifications table, in page order. */
function specificationRows(html: string): Array<[string, string]> {
  const table = /<table[^>]*data-testid="specifications"[^>]*>([\s\S]*?)<\/table>/.exec(html)?.[1] ?? "";
  return [...table.matchAll(/<th[^>]*>([\s\S]*?)<\/th><td[^>]*>([\s\S]*?)<\/td>/g)].map(
    (row) => [decode(row[1]!), decode(row[2]!)] as [string, string],
  );
}

async function expectResellerNotice(page: Page, brand: string, website: string) {
  const notice = page.getByTestId("reseller-notice");
  await expect(notice).toBeVisible();
  await expect(notice.getByTestId("reseller-notice-text")).toHaveText(
    `${STORE} is an independent reseller. We are not affiliated with or endorsed by ${brand}.`,
  );
  const official = notice.getByTestId("official-website");
  await expect(official).toHaveAttribute("href", website);
  await expect(official).toHaveAttribute("rel", "noopener noreferrer");
  await expect(official).toHaveAttribute("target", "_blank");
}

test("section, listing and categories pages answer 200 with their content", async ({ page }) => {
  for (const section of SECTIONS) {
    const response = await page.goto(`/${section}`);
    expect(response?.status(), section).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const brands = catalogue.groups.filter((group) => group.section === section);
    await expect(page.getByTestId("brand-tile")).toHaveCount(brands.length);
    for (const brand of brands) await expect(page.getByTestId("brand-tiles")).toContainText(brand.name);
    await expect(page.getByTestId("product-card").first()).toBeVisible();
  }
  // The section comes from the path, whatever its case.
  expect((await page.goto("/Antivirus"))?.status()).toBe(200);
  await expect(page.getByTestId("brand-tile")).toHaveCount(12);

  for (const [path, tag] of [
    ["/best-sellers", "best-seller"],
    ["/top-rated", "top-rated"],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    const expected = catalogue.groups.flatMap((group) =>
      group.products.filter((product) => (product as { category?: string[] }).category?.includes(tag)),
    );
    // A page of 24 at most; the count is of them all.
    await expect(page.getByTestId("product-card")).toHaveCount(Math.min(expected.length, 24));
    await expect(page.getByTestId("result-count")).toHaveText(`${expected.length} products`);
  }

  const response = await page.goto("/categories");
  await hydrated(page);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("category-section")).toHaveCount(5);
  await expect(page.getByTestId("category-brand")).toHaveCount(23);
  await expect(page.getByTestId("category-brand").filter({ hasText: "McAfee" })).toContainText("5 products");
  await page.getByTestId("digital-services-link").click();
  await expect(page).toHaveURL(/\/digital$/);
});

test("every brand page, clicked from its section, and every product on it", async ({ page, request }) => {
  test.setTimeout(300_000);
  const brandsSeen = new Set<string>();
  const productsSeen = new Set<string>();

  for (const section of SECTIONS) {
    await page.goto(`/${section}`);
    const tileCount = await page.getByTestId("brand-tile").count();
    await hydrated(page);
    for (let index = 0; index < tileCount; index++) {
      // Back from the brand's first product to the section, as a shopper goes back to pick the next brand.
      if (index > 0) {
        await page.goBack();
        await page.goBack();
        await expect(page).toHaveURL(new RegExp(`/${section}$`));
      }
      const tile = page.getByTestId("brand-tile").nth(index);
      const href = (await tile.getAttribute("href"))!;
      await tile.click();
      await expect(page).toHaveURL(href);
      const group = catalogue.groups.find(
        (candidate) => `/${section}/${candidate.key.toLowerCase()}` === href,
      );
      expect(group, href).toBeDefined();
      brandsSeen.add(group!.key);

      await expect(page.getByTestId("brand-title")).toBeVisible();
      await expectResellerNotice(page, group!.owner ?? group!.name, group!.officialWebsite);
      const cards = page.getByTestId("brand-products").getByTestId("product-card");
      await expect(cards.first()).toBeVisible();
      const shown = await cards
        .getByRole("heading")
        .getByRole("link")
        .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href")!));
      // Tests running meanwhile add a product of their own to a brand for a while (back-in-stock's to Norton):
      // every product of the seed is on its brand's page once, whatever else is.
      const links = shown.filter((link) => productsByRoute.has(link.toLowerCase()));
      expect(links, href).toHaveLength(group!.products.length);
      expect(new Set(links.map((link) => link.toLowerCase())).size, href).toBe(group!.products.length);

      // The bulk: every product of the brand at request level, against the seed file.
      for (const link of links) {
        const expected = productsByRoute.get(link.toLowerCase());
        expect(expected, link).toBeDefined();
        const { product } = expected!;
        const response = await request.get(link);
        expect(response.status(), link).toBe(200);
        const html = await response.text();
        expect(testIdText(html, "product-name", "h1"), link).toBe(product.name);
        expect(testIdText(html, "product-price", "p"), link).toBe(`Price: $${product.price}`);
        const discounted = Number(product.originalPrice) > Number(product.price);
        expect(testIdText(html, "product-original-price", "s"), link).toBe(
          discounted ? `$${product.originalPrice}` : null,
        );
        expect(specificationRows(html), link).toEqual(Object.entries(product.specifications));
        expect(html, link).toContain('data-testid="reseller-notice"');
        productsSeen.add(link.toLowerCase());
      }

      // And the brand's first product of the seed by a real click.
      const first = cards.getByRole("heading").locator(`a[href="${links[0]!}"]`);
      const name = (await first.textContent())!;
      await first.click();
      await expect(page).toHaveURL(links[0]!);
      await expect(page.getByTestId("product-name")).toHaveText(name);
      await expect(page.getByTestId("specifications").getByRole("row")).toHaveCount(
        Object.keys(productsByRoute.get(links[0]!.toLowerCase())!.product.specifications).length,
      );
      await expectResellerNotice(page, group!.owner ?? group!.name, group!.officialWebsite);
      await expect(page.getByTestId("product-brand")).toHaveAttribute("href", href);
    }
  }
  expect(brandsSeen.size).toBe(23);
  expect(productsSeen.size).toBe(89);
});

test("a product route in any case shows the product and selects it", async ({ page }) => {
  const response = await page.goto("/Windows/Windows7/Professional");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("product-name")).toHaveText("Windows 7 Professional");
  await expect(page.getByTestId("product-price")).toContainText("$119.99");
  await expect(page.getByTestId("add-to-cart")).toBeVisible();
  const image = page.getByTestId("product-image");
  await expect(image).toHaveAttribute("width", "600");
  await expect(image).toHaveAttribute("height", "600");

  const app = page.getByTestId("app");
  await expect(app).toHaveAttribute("data-selected-product", "/windows/windows7/professional");
  await expect(app).toHaveAttribute("data-selected-category", "Windows7");
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("selectedProduct") ?? "null"));
  expect(stored).toMatchObject({
    groupKey: "Windows7",
    name: "Windows 7 Professional",
    route: "/windows/windows7/professional",
  });

  await expectResellerNotice(page, "Microsoft", "https://www.microsoft.com/windows");
  await expect(page.getByTestId("breadcrumbs")).toContainText("Windows 7");
  // The other Windows 7 editions, not this one again.
  const related = page.getByTestId("related-products").getByTestId("product-card");
  await expect(related).toHaveCount(3);
  await expect(related.filter({ hasText: "Windows 7 Professional" })).toHaveCount(0);

  // Meta: canonical at the stored route, Product JSON-LD.
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    "href",
    /\/windows\/windows7\/professional$/,
  );
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(jsonLd).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Product",
    name: "Windows 7 Professional",
    brand: { name: "Windows 7" },
    offers: { price: "119.99", priceCurrency: "USD", availability: "https://schema.org/InStock" },
  });
  expect(jsonLd.image).toMatch(/^http:\/\/.+\/placeholder\/product\//);
  expect(jsonLd.offers.url).toMatch(/^http:\/\/.+\/windows\/windows7\/professional$/);

  // The brand link leads to the brand page; the misspelt PC Matic prefix works too.
  await page.getByTestId("product-brand").click();
  await expect(page).toHaveURL(/\/windows\/windows7$/);
  expect((await page.goto("/antvirus/pcmatic/pro"))?.status()).toBe(200);
  await expect(page.getByTestId("product-name")).toHaveText("PC Matic Pro");
  expect((await page.goto("/printer/hp-laserjet-pro-m404n"))?.status()).toBe(200);
  await expect(page.getByTestId("product-name")).toHaveText("HP LaserJet Pro M404n");
});

test("brand pages show the brand content around the products", async ({ page }) => {
  await page.goto("/antivirus/mcafee");
  await expect(page).toHaveTitle(site.productMetadata.mcafee!.title);
  await expect(page.getByTestId("brand-title")).toHaveText("McAfee Antivirus Support");
  const banner = page.getByTestId("brand-banner");
  await expect(banner).toHaveAttribute("width", "1600");
  await expect(banner).toHaveAttribute("height", "500");
  await expect(page.getByTestId("brand-logo")).toBeVisible();
  await expect(page.getByTestId("why-choose")).toContainText("McAfee");
  const contact = page.getByTestId("brand-contact");
  await expect(contact.getByTestId("support-phone")).toHaveAttribute("href", "tel:+12125550114");
  await expect(contact.getByTestId("support-email")).toHaveAttribute(
    "href",
    "mailto:mcafee-support@example.com",
  );
  await expect(contact.getByTestId("support-website")).toHaveAttribute("rel", "noopener noreferrer");
  await expect(page.getByTestId("brand-benefit")).toHaveCount(3);
  expect(await page.getByTestId("brand-features").getByRole("listitem").count()).toBeGreaterThanOrEqual(10);
  expect(await page.getByTestId("testimonial").count()).toBeGreaterThanOrEqual(7);
  await expect(page.getByTestId("sample-reviews")).toHaveText("Sample reviews");
  await expect(page.getByTestId("brand-products").getByTestId("product-card")).toHaveCount(5);
  await expectResellerNotice(page, "McAfee", "https://www.mcafee.com");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/antivirus\/mcafee$/);

  await page.goto("/windows/windows8");
  await expect(page.getByTestId("brand-title")).toHaveText("Microsoft Windows Support");
  await expect(page.getByTestId("brand-benefit")).toHaveCount(3);
  await expect(page.getByTestId("brand-products").getByTestId("product-card")).toHaveCount(4);
  await expectResellerNotice(page, "Microsoft", "https://www.microsoft.com/windows");

  // Case-insensitive, and brands without product metadata are titled with their support title.
  expect((await page.goto("/Router/Cisco"))?.status()).toBe(200);
  await expect(page.getByTestId("brand-products")).toBeVisible();
  await page.goto("/antivirus/kaspersky");
  await expect(page).toHaveTitle(`Kaspersky Antivirus Support | ${STORE}`);
});

test("the support page shows the brand content without products", async ({ page }) => {
  const response = await page.goto("/support/mcafee");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("brand-title")).toHaveText("McAfee Antivirus Support");
  await expect(page.getByTestId("brand-contact")).toBeVisible();
  await expect(page.getByTestId("brand-benefit")).toHaveCount(3);
  await expect(page.getByTestId("testimonial").first()).toBeVisible();
  await expect(page.getByTestId("brand-products")).toHaveCount(0);
  await expect(page.getByTestId("product-card")).toHaveCount(0);
  await expectResellerNotice(page, "McAfee", "https://www.mcafee.com");

  await page.goto("/support/windows7");
  await expect(page.getByTestId("brand-title")).toHaveText("Microsoft Windows Support");
  expect((await page.goto("/support/nope"))?.status()).toBe(404);
});

test("search forgives typos and says so when nothing matches", async ({ page }) => {
  const response = await page.goto("/search?q=nortn");
  await hydrated(page);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("search-input")).toHaveValue("nortn");
  const results = page.getByTestId("search-results").getByTestId("product-card");
  await expect(results).toHaveCount(5);
  for (const card of await results.all()) await expect(card).toContainText("Norton");

  // Searching from the page's own box.
  await page.getByTestId("search-input").fill("kasperski");
  await page.getByTestId("search-input").press("Enter");
  await expect(page).toHaveURL(/\/search\?q=kasperski$/);
  await expect(page.getByTestId("search-input")).toHaveValue("kasperski");
  await expect(results).toHaveCount(4);
  await expect(results.first()).toContainText("Kaspersky");

  await page.goto("/search?q=laserjet");
  await expect(results.first()).toContainText("LaserJet");

  await page.goto("/search?q=qwxzzv");
  await expect(page.getByTestId("no-results")).toBeVisible();
  await expect(page.getByTestId("no-results").getByRole("link", { name: "All categories" })).toBeVisible();

  expect((await page.goto("/search"))?.status()).toBe(200);
  await expect(page.getByTestId("search-input")).toHaveValue("");
  expect((await page.goto(`/search?q=${encodeURIComponent("norton ".repeat(60))}`))?.status()).toBe(200);
  await expect(page.getByTestId("search-truncated")).toBeVisible();
  await expect(results.first()).toContainText("Norton");
  expect((await page.goto("/search?q=%26%7C!%3A*%27"))?.status()).toBe(200);
});

test("unknown brands and products are 404 with the site around them", async ({ page }) => {
  for (const path of ["/antivirus/nope", "/printer/nope", "/router/mcafee", "/antivirus/mcafee/nope"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    await expect(page.getByTestId("site-header")).toBeVisible();
  }
});

test("catalogue pages have no accessibility violations", async ({ page }) => {
  for (const path of [
    "/antivirus",
    "/categories",
    "/best-sellers",
    "/antivirus/norton",
    "/antivirus/norton/360-deluxe",
    "/support/mcafee",
    "/search?q=nortn",
    "/search?q=qwxzzv",
  ]) {
    await page.goto(path);
    await animationsDone(page);
    const { violations } = await axeOf(page)
      .include("#main")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(
      violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`,
      ),
      path,
    ).toEqual([]);
  }
});

test("a brand page, a product page and search fit desktop and phone widths", async ({ page }) => {
  test.setTimeout(120_000);
  const shots = [
    ["brand-norton", "/antivirus/norton"],
    ["product-norton-360-deluxe", "/antivirus/norton/360-deluxe"],
    ["search-nortn", "/search?q=nortn"],
  ] as const;
  for (const [width, height, device] of [
    [1280, 900, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const [name, path] of shots) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      // Nothing may stick out sideways on any screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} at ${width}px`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-${device}`);
    }
  }
});

test("PC Matic products typed with the correct spelling lead to the spec's /antvirus/pcmatic/ routes for good", async ({
  page,
  request,
}) => {
  for (const [typed, route] of [
    ["/antivirus/pcmatic/pro", "/antvirus/pcmatic/pro"],
    [
      "/Antivirus/PCMatic/Home-Security/?utm_source=mail&x=1",
      "/antvirus/pcmatic/home-security?utm_source=mail&x=1",
    ],
  ] as const) {
    const response = await request.get(typed, { maxRedirects: 0 });
    expect(response.status(), typed).toBe(301);
    expect(response.headers()["location"], typed).toBe(route);
  }
  await page.goto("/antivirus/pcmatic/business-endpoint-protection");
  await expect(page).toHaveURL(/\/antvirus\/pcmatic\/business-endpoint-protection$/);
  await expect(page.getByTestId("product-name")).toHaveText("PC Matic Business Endpoint Protection");
  // A product that does not exist is still not found.
  expect((await request.get("/antivirus/pcmatic/nope", { maxRedirects: 0 })).status()).toBe(404);
});
