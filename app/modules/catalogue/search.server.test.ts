import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "~db/schema";
import { seedDemo } from "../../../tests/support/seed";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { searchProducts, searchQuery } from "./search.server";

describe.each(drivers)("product search on %s", (driver) => {
  let database: TestDatabase;
  const names = async (query: string) => (await searchProducts(database, query)).map((card) => card.name);

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("forgives typos in brand names", async () => {
    const norton = await names("nortn");
    expect(norton).toHaveLength(5);
    for (const name of norton) expect(name).toMatch(/^Norton /);

    const kaspersky = await names("kasperski");
    expect(kaspersky).toHaveLength(4);
    for (const name of kaspersky) expect(name).toMatch(/^Kaspersky /);

    expect((await names("bitdefnder"))[0]).toMatch(/^Bitdefender /);
  });

  it("ranks the products whose names carry the words first", async () => {
    const laserjet = await names("laserjet");
    expect(laserjet.slice(0, 2).sort()).toEqual([
      "HP Color LaserJet Pro MFP M479fdw",
      "HP LaserJet Pro M404n",
    ]);
    expect((await names("windows 7 professional"))[0]).toBe("Windows 7 Professional");
    expect(await names("norton deluxe")).toEqual(["Norton 360 Deluxe"]);
    // A rare brand word outweighs a word half the catalogue has.
    const kasperskyAntivirus = await names("kasperski antivirus");
    expect(kasperskyAntivirus.slice(0, 4).every((name) => name.startsWith("Kaspersky"))).toBe(true);
    // Names first, then full text finds the word in descriptions: not only the products named "Router".
    const routers = await names("router");
    for (const name of routers.slice(0, 4)) expect(name).toMatch(/ Router/);
    expect(routers).toContain("Netgear Nighthawk R7000");
  });

  it("finds products by brand name", async () => {
    const tpLink = await searchProducts(database, "tp-link");
    expect(tpLink.length).toBeGreaterThan(0);
    for (const card of tpLink) expect(card.brandName).toBe("TP-Link");
  });

  it("answers empty, odd and over-long queries with no error", async () => {
    expect(await names("")).toEqual([]);
    expect(await names("   ")).toEqual([]);
    expect(await names("& | ! :*")).toEqual([]);
    expect(await names("xyzzyqwv")).toEqual([]);
    expect(await names("norton ".repeat(200))).toHaveLength(5);
    expect(await names("norton) | (x:* & !'")).toHaveLength(5);
  });

  it("never finds a hidden product", async () => {
    const [deluxe] = await database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.route, "/antivirus/norton/360-deluxe"));
    await database.db.update(products).set({ hidden: true }).where(eq(products.id, deluxe!.id));
    try {
      expect(await names("norton deluxe")).not.toContain("Norton 360 Deluxe");
      expect(await names("nortn")).toHaveLength(4);
    } finally {
      await database.db.update(products).set({ hidden: false }).where(eq(products.id, deluxe!.id));
    }
  });

  it("uses the full-text and trigram indexes", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = JSON.stringify(await tx.execute(sql`explain ${searchQuery(tx, ["nortn"])}`));
      expect(plan).toContain("products_search_vector_idx");
      expect(plan).toContain("products_name_trgm_idx");
      expect(plan).toContain("brand_groups_name_trgm_idx");
    });
    // With several words the indexes are combined (BitmapOr); on these small tables a full scan of the primary
    // key index costs about the same, so that is turned off too.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_indexscan = off`);
      const plan = JSON.stringify(
        await tx.execute(sql`explain ${searchQuery(tx, ["kasperski", "laserjet"])}`),
      );
      expect(plan).toContain("products_search_vector_idx");
      expect(plan).toContain("products_name_trgm_idx");
      expect(plan).toContain("brand_groups_name_trgm_idx");
    });
  });
});
