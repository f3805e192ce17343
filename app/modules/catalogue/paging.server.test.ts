import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { brandProductsPage, productsWithTagPage, resolveCataloguePath } from "./catalogue.server";
import { PAGE_SIZE } from "./pagination";
import { searchPage, searchProducts } from "./search.server";

describe.each(drivers)("lists a page at a time on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    // 55 more McAfee products, all at one catalogue position: their order must still be one and the same.
    await database.db.execute(sql`
      insert into products (group_key, external_id, name, description, price_cents, original_price_cents,
                            categories, img, route, position)
      select 'McAfee', 'extra-' || i, 'McAfee Extra ' || i, 'Another McAfee suite.', 4999, 5999,
             array['best-seller'], '/placeholder/product/x.svg', '/antivirus/mcafee/extra-' || i, 100
      from generate_series(1, 55) as i`);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("pages a brand's products: the next page has the next ones, none twice, the last page the rest", async () => {
    const first = await brandProductsPage(database, "McAfee", 1);
    const second = await brandProductsPage(database, "McAfee", 2);
    const third = await brandProductsPage(database, "McAfee", 3);
    expect(first).toMatchObject({ total: 60, page: 1, pageCount: 3 });
    expect(first!.items).toHaveLength(PAGE_SIZE);
    expect(second!.items).toHaveLength(PAGE_SIZE);
    expect(third!.items).toHaveLength(60 - 2 * PAGE_SIZE);
    const ids = [...first!.items, ...second!.items, ...third!.items].map((card) => card.id);
    expect(new Set(ids).size).toBe(60);
    // Asked again, a page holds the same products in the same order.
    expect((await brandProductsPage(database, "McAfee", 2))!.items.map((card) => card.id)).toEqual(
      second!.items.map((card) => card.id),
    );
    expect(await brandProductsPage(database, "McAfee", 4)).toBeNull();
  });

  it("has a first page for a brand with nothing on sale, and no second", async () => {
    await database.db.execute(sql`update products set hidden = true where group_key = 'Avast'`);
    try {
      expect(await brandProductsPage(database, "Avast", 1)).toMatchObject({
        items: [],
        total: 0,
        pageCount: 1,
      });
      expect(await brandProductsPage(database, "Avast", 2)).toBeNull();
    } finally {
      await database.db.execute(sql`update products set hidden = false where group_key = 'Avast'`);
    }
  });

  it("pages a brand page and a listing, and has no page past the last", async () => {
    const page = await resolveCataloguePath(database, "/antivirus/mcafee", 3);
    expect(page?.kind === "brand" && page.products.items.length).toBe(12);
    expect(await resolveCataloguePath(database, "/antivirus/mcafee", 4)).toBeNull();

    const listing = await productsWithTagPage(database, "best-seller", 1);
    const total = listing!.total;
    expect(total).toBeGreaterThan(55);
    const last = await productsWithTagPage(database, "best-seller", listing!.pageCount);
    expect(last!.items).toHaveLength(total - (listing!.pageCount - 1) * PAGE_SIZE);
    expect(await productsWithTagPage(database, "best-seller", listing!.pageCount + 1)).toBeNull();
  });

  it("pages search results", async () => {
    const results = await searchProducts(database, "mcafee");
    expect(results.length).toBeGreaterThan(PAGE_SIZE);
    const second = (await searchPage(database, "mcafee", 2))!;
    expect(second.items.map((card) => card.id)).toEqual(
      results.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((card) => card.id),
    );
    expect(second.total).toBe(results.length);
    expect(await searchPage(database, "mcafee", second.pageCount + 1)).toBeNull();
    expect(await searchPage(database, "xyzzyqwv", 1)).toMatchObject({ items: [], total: 0, pageCount: 1 });
    expect(await searchPage(database, "xyzzyqwv", 2)).toBeNull();
  });
});
