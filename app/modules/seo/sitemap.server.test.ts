import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productVariants } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { SITEMAP_URL_LIMIT, sitemapPartXml, sitemapPaths, sitemapXml } from "./sitemap.server";

const ORIGIN = "https://shop.example.com";
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

describe("the sitemap of a store with more addresses than one file may list", () => {
  // 100,000 products and the store's own pages: the size the store is measured at.
  const paths = [
    "/",
    "/about",
    ...Array.from({ length: 100_153 }, (_, index) => `/antivirus/brand/product-${index}`),
    "/about",
  ];

  it("is an index of files of at most 50,000 addresses, which between them list each address once", () => {
    const index = sitemapXml(ORIGIN, paths);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(index).not.toContain("<urlset");
    expect(locs(index)).toEqual([1, 2, 3].map((part) => `${ORIGIN}/sitemaps/${part}.xml`));

    const files = [1, 2, 3].map((part) => sitemapPartXml(ORIGIN, paths, part)!);
    const listed = files.flatMap(locs);
    expect(files.map((file) => locs(file).length)).toEqual([SITEMAP_URL_LIMIT, SITEMAP_URL_LIMIT, 155]);
    expect(listed).toHaveLength(100_155);
    expect(new Set(listed).size).toBe(100_155);
    expect(listed[0]).toBe(`${ORIGIN}/`);
    expect(listed.at(-1)).toBe(`${ORIGIN}/antivirus/brand/product-100152`);
    for (const file of files)
      expect(file).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  });

  it("has no file past the last, nor a file 0 or a negative one", () => {
    for (const part of [0, -1, 4, 1.5]) expect(sitemapPartXml(ORIGIN, paths, part)).toBeNull();
  });

  it("stays one file while the addresses fit in one, with no numbered files beside it", () => {
    const fits = paths.slice(0, SITEMAP_URL_LIMIT);
    const xml = sitemapXml(ORIGIN, fits);
    expect(xml).toContain("<urlset");
    expect(locs(xml)).toHaveLength(SITEMAP_URL_LIMIT);
    expect(sitemapPartXml(ORIGIN, fits, 1)).toBeNull();
  });

  it("writes an address's markup characters as XML escapes", () => {
    expect(locs(sitemapXml(ORIGIN, ["/a?variant=X&y=<z>"]))).toEqual([
      `${ORIGIN}/a?variant=X&#38;y=&#60;z&#62;`,
    ]);
  });
});

describe.each(drivers)("the sitemap's addresses on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  it("lists each variant page on sale but the first, whose page is the product's own", async () => {
    const route = "/antivirus/bitdefender/total-security";
    await database.db
      .update(productVariants)
      .set({ hidden: true })
      .where(eq(productVariants.sku, "BD-TS-5D-2Y"));
    const paths = await sitemapPaths({ db: database.db });
    expect(paths).toContain(route);
    expect(paths.filter((path) => path.startsWith(`${route}?`))).toEqual(
      ["BD-TS-1D-2Y", "BD-TS-3D-1Y", "BD-TS-3D-2Y", "BD-TS-5D-1Y"].map((sku) => `${route}?variant=${sku}`),
    );
    expect(paths).toContain("/windows/windows8/pro?variant=WIN8-PRO-OEM");
    expect(paths).not.toContain("/windows/windows8/pro?variant=WIN8-PRO-RETAIL");
  });
});
