import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { seedSite } from "./seed-site";

type SeedProduct = { name: string; desc: string; route: string };
const catalogue = JSON.parse(readFileSync("app/modules/seed/data/catalogue.json", "utf8")) as {
  groups: { key: string; products: SeedProduct[] }[];
  brandContent: Record<string, { title: string; whyChoose: string }>;
};
const site = seedSite<{
  webInfo: { name: string };
  productMetadata: Record<string, { title: string; description: string; keywords: string }>;
  seo: { route: string; title?: string; description: string; keywords: string }[];
}>();
const STORE = site.webInfo.name;
const record = (route: string) => site.seo.find((entry) => entry.route === route)!;
const product = (route: string) =>
  catalogue.groups.flatMap((group) => group.products).find((entry) => entry.route === route)!;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** Title, description and canonical address as the server sends them (what crawlers and link previews read). */
function headOf(html: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const title = /<title>([^<]*)<\/title>/.exec(head)?.[1];
  const description = /<meta name="description" content="([^"]*)"/.exec(head)?.[1];
  const canonical = /<link rel="canonical" href="([^"]*)"/.exec(head)?.[1];
  return {
    title: title === undefined ? undefined : decode(title),
    description: description === undefined ? undefined : decode(description),
    canonical,
  };
}

async function expectMeta(
  page: Page,
  path: string,
  expected: { title: string; description?: string | RegExp; canonical?: string },
) {
  await page.goto(path);
  await expect(page, path).toHaveTitle(expected.title);
  const description = page.locator('meta[name="description"]');
  if (expected.description === undefined) await expect(description, path).toHaveAttribute("content", /\S/);
  else await expect(description, path).toHaveAttribute("content", expected.description);
  if (expected.canonical) {
    await expect(page.locator('link[rel="canonical"]'), path).toHaveAttribute(
      "href",
      new RegExp(`^http://[^/]+${escapeRegExp(expected.canonical)}$`),
    );
  }
}

test("every address in the sitemap has a title of its own, a description and a canonical address", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const xml = await (await request.get("/sitemap.xml")).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => {
    const url = new URL(decode(match[1]!));
    return url.pathname + url.search;
  });
  expect(paths.length).toBeGreaterThan(150);
  const untitled: string[] = [];
  const titles = new Map<string, string | undefined>();
  for (const path of paths) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const head = headOf(await response.text());
    if (!head.title || head.title === "Default Title") untitled.push(`${path}: ${head.title}`);
    titles.set(path, head.title);
    expect(head.description, `${path} has a description`).toMatch(/\S/);
    expect(head.canonical, `${path} has a canonical address`).toMatch(new RegExp(`^${baseURL}/`));
  }
  expect(untitled, "pages titled Default Title or not at all").toEqual([]);
  // A variant's page of its own is titled apart from its product's page and from the other variants'.
  const variantPages = paths.filter((path) => path.includes("?variant="));
  expect(variantPages.length).toBeGreaterThan(5);
  for (const path of variantPages) expect(titles.get(path)).not.toBe(titles.get(path.split("?")[0]!));
  expect(new Set(variantPages.map((path) => titles.get(path))).size).toBe(variantPages.length);
});

test.describe("the title, description and canonical address of a page come from the first that has them", () => {
  test("an SEO record with a title, used as its owner wrote it (any case, rendered on the server)", async ({
    page,
    request,
  }) => {
    const about = record("/about");
    await expectMeta(page, "/About/", {
      title: about.title!,
      description: about.description,
      canonical: "/about",
    });
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute("content", about.keywords);
    const head = headOf(await (await request.get("/user/login")).text());
    expect(head.title).toBe(record("/user/login").title);
  });

  test("a product page whose record has no title: the product's name with the store's", async ({ page }) => {
    const route = "/windows/windows7/professional";
    expect(record(route).title).toBeUndefined();
    await expectMeta(page, route, {
      title: `${product(route).name} | ${STORE}`,
      description: record(route).description,
      canonical: route,
    });
  });

  test("a product page without a record: the product's name and the start of its description", async ({
    page,
  }) => {
    const route = "/antivirus/kaspersky/plus";
    expect(site.seo.some((entry) => entry.route === route)).toBe(false);
    const { name, desc } = product(route);
    await expectMeta(page, "/Antivirus/Kaspersky/Plus", {
      title: `${name} | ${STORE}`,
      description: desc.length <= 160 ? desc : new RegExp(`^${escapeRegExp(desc.slice(0, 40))}.*…$`),
      canonical: route,
    });
  });

  test("a brand page with product metadata (mcafee, norton): the metadata", async ({ page }) => {
    for (const brand of ["mcafee", "norton"]) {
      const metadata = site.productMetadata[brand]!;
      await expectMeta(page, `/antivirus/${brand}`, {
        title: metadata.title,
        description: metadata.description,
        canonical: `/antivirus/${brand}`,
      });
      await expect(page.locator('meta[name="keywords"]')).toHaveAttribute("content", metadata.keywords);
    }
  });

  test("a brand page without: its support title and why-choose text", async ({ page }) => {
    const kaspersky = catalogue.brandContent.Kaspersky!;
    await expectMeta(page, "/antivirus/kaspersky", {
      title: `${kaspersky.title} | ${STORE}`,
      description: new RegExp(`^${escapeRegExp(kaspersky.whyChoose.slice(0, 40))}`),
      canonical: "/antivirus/kaspersky",
    });
    await expectMeta(page, "/router/cisco", { title: `Cisco Router Support | ${STORE}` });
    await expectMeta(page, "/windows/windows7", { title: `Microsoft Windows Support | ${STORE}` });
  });

  test("the store's own pages: their own names with the store's", async ({ page, baseURL }) => {
    for (const [path, title] of [
      ["/payment", "Checkout"],
      ["/search", "Search"],
      ["/search?q=norton", "Search results for “norton”"],
      ["/support/mcafee", "McAfee Antivirus Support"],
      ["/order/lookup", "Find your order"],
      ["/user/reset-password", "Choose a new password"],
    ] as const) {
      await expectMeta(page, path, { title: `${title} | ${STORE}` });
    }
    // The search page's address is the same whatever was searched.
    await page.goto("/search?q=norton");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/search$/);
    // The cart has a record of its own.
    await expectMeta(page, "/cart", { title: record("/cart").title! });

    await signInAsAdmin(page, baseURL!);
    for (const [path, title] of [
      ["/user/dashboard", "Your account"],
      ["/user/orders", "Your orders"],
      ["/user/licences", "My licences"],
      ["/user/address", "Your address book"],
    ] as const) {
      await expectMeta(page, path, { title: `${title} | ${STORE}` });
    }
  });

  test("a path the store knows nothing about keeps Default Title", async ({ page }) => {
    for (const path of ["/antivirus/future-brand", "/some/future-page"]) {
      await page.goto(path);
      await expect(page).toHaveTitle("Default Title");
      await expect(page.locator('meta[name="description"]')).toHaveCount(0);
    }
  });

  test("the title follows client navigation", async ({ page }) => {
    await page.goto("/antivirus/kaspersky");
    await hydrated(page);
    await page
      .getByTestId("brand-products")
      .getByRole("link", { name: /Kaspersky Plus/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/antivirus\/kaspersky\/plus$/);
    await expect(page).toHaveTitle(`Kaspersky Plus | ${STORE}`);
  });
});
