import { asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandGroups, products } from "~db/schema";
import { growCatalogue } from "../../../scripts/bench-web/catalogue";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { PAGE_SIZE } from "./pagination";
import { SEARCH_RESULT_LIMIT, searchPage, searchProducts } from "./search.server";

/** The benchmark's large catalogue, smaller: the demo products copied under new names ("... Family 1234"). */
const TOTAL = 20_000;

describe.each(drivers)("search in a catalogue of 20,000 products on %s", (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    expect(await growCatalogue(database.db, TOTAL)).toBe(TOTAL);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("finds the products with every word, in catalogue order, a page at a time", async () => {
    // Every edition of Norton 360 Deluxe scores alike: they come in catalogue order.
    const expected = await database.db
      .select({ id: products.id })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .where(like(products.name, "Norton 360 Deluxe%"))
      .orderBy(asc(brandGroups.position), asc(products.position), asc(products.id))
      .limit(SEARCH_RESULT_LIMIT);
    expect(expected.length).toBeGreaterThan(2 * PAGE_SIZE);
    const found = await searchProducts(database, "norton deluxe");
    expect(found.map((card) => card.id)).toEqual(expected.map((row) => row.id));

    const second = (await searchPage(database, "norton deluxe", 2))!;
    expect(second.total).toBe(expected.length);
    expect(second.items.map((card) => card.id)).toEqual(
      expected.slice(PAGE_SIZE, 2 * PAGE_SIZE).map((row) => row.id),
    );
    expect(await searchPage(database, "norton deluxe", second.pageCount + 1)).toBeNull();
  });

  it("puts the one product every word names first, and keeps the best 240 of a common word", async () => {
    // growCatalogue names copy i "<name> <edition i % 10> <i>": copy 123 of Norton 360 Deluxe is its "Lite" one.
    const [first] = await searchProducts(database, "norton deluxe lite 123");
    expect(first?.name).toBe("Norton 360 Deluxe Lite 123");

    const kaspersky = await searchProducts(database, "kasperski");
    expect(kaspersky).toHaveLength(SEARCH_RESULT_LIMIT);
    expect(kaspersky.every((card) => card.brandName === "Kaspersky")).toBe(true);
    expect((await searchPage(database, "antivirus", 10))?.items).toHaveLength(PAGE_SIZE);
    expect(await searchPage(database, "antivirus", 11)).toBeNull();
  });

  it("never finds a hidden product", async () => {
    const [hidden] = await database.db
      .update(products)
      .set({ hidden: true })
      .where(eq(products.name, "Norton 360 Deluxe Lite 123"))
      .returning({ id: products.id });
    try {
      const found = await searchProducts(database, "norton deluxe lite 123");
      expect(found.map((card) => card.id)).not.toContain(hidden!.id);
    } finally {
      await database.db.update(products).set({ hidden: false }).where(eq(products.id, hidden!.id));
    }
  });
});
