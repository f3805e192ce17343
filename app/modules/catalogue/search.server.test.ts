import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandGroups, products, searchIndexChanges } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { searchPage, searchProducts } from "./search.server";
import { currentSearchIndex } from "./search-index.server";

describe.each(drivers)("product search on %s", (driver) => {
  let database: TestDatabase;
  const names = async (query: string) => (await searchProducts(database, query)).map((card) => card.name);

  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
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

  it("matches prefixes and ignores case and accents", async () => {
    expect((await names("kasp")).every((name) => name.startsWith("Kaspersky"))).toBe(true);
    expect(await names("kasp")).toEqual(await names("kaspersky"));
    expect(await names("NÓRTON DÉLUXE")).toEqual(["Norton 360 Deluxe"]);
    // Plurals meet their singular.
    expect((await names("routers")).slice(0, 4)).toEqual((await names("router")).slice(0, 4));
  });

  it("pages results, with an exact total and no page past the last", async () => {
    // Page 2 of a longer search: paging.server.test.ts and search-scale.server.test.ts.
    const all = await searchProducts(database, "antivirus");
    expect(all.length).toBeGreaterThan(10);
    const first = (await searchPage(database, "antivirus", 1))!;
    expect(first).toMatchObject({ total: all.length, page: 1, pageCount: 1 });
    expect(first.items.map((card) => card.id)).toEqual(all.map((card) => card.id));
    expect(await searchPage(database, "antivirus", 2)).toBeNull();
    expect(await searchPage(database, "xyzzyqwv", 1)).toEqual({ items: [], total: 0, page: 1, pageCount: 1 });
  });

  it("sees a change to names, new products and brands at the next search", async () => {
    const [deluxe] = await database.db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(eq(products.route, "/antivirus/norton/360-deluxe"));
    await database.db
      .update(products)
      .set({ name: "Norton 360 Zanzibar" })
      .where(eq(products.id, deluxe!.id));
    try {
      expect(await names("zanzibar")).toEqual(["Norton 360 Zanzibar"]);
      expect(await names("norton deluxe")).not.toContain("Norton 360 Deluxe");
    } finally {
      await database.db.update(products).set({ name: deluxe!.name }).where(eq(products.id, deluxe!.id));
    }
    expect(await names("zanzibar")).toEqual([]);

    await database.db.update(brandGroups).set({ name: "Nortonia" }).where(eq(brandGroups.key, "Norton"));
    try {
      expect((await names("nortonia")).length).toBeGreaterThanOrEqual(5);
    } finally {
      await database.db.update(brandGroups).set({ name: "Norton" }).where(eq(brandGroups.key, "Norton"));
    }
  });

  it("keeps its index through price and stock writes, and shows their new values", async () => {
    const before = await currentSearchIndex(database.db);
    const [router] = await searchProducts(database, "nighthawk");
    await database.db
      .update(products)
      .set({ priceCents: sql`${products.priceCents} + 100`, stock: 3 })
      .where(eq(products.id, router!.id));
    const [after] = await searchProducts(database, "nighthawk");
    expect(after).toMatchObject({ id: router!.id, priceCents: router!.priceCents + 100, stock: 3 });
    expect(await currentSearchIndex(database.db)).toBe(before);
  });

  it("updates its index for the products a write changed, and reads the catalogue again after a brand change", async () => {
    const before = await currentSearchIndex(database.db);
    const [deluxe] = await database.db
      .select({ id: products.id, name: products.name, position: products.position })
      .from(products)
      .where(eq(products.route, "/antivirus/norton/360-deluxe"));
    const [{ latest }] = (await database.db
      .select({ latest: sql<number>`coalesce(max(${searchIndexChanges.version}), 0)`.mapWith(Number) })
      .from(searchIndexChanges)) as [{ latest: number }];
    const logged = async () =>
      (await database.db.select().from(searchIndexChanges)).filter((change) => change.version > latest);
    // A write that changes nothing the index holds logs nothing.
    await database.db.update(products).set({ name: deluxe!.name }).where(eq(products.id, deluxe!.id));
    expect(await logged()).toEqual([]);

    await database.db
      .update(products)
      .set({ name: "Norton 360 Quokka", position: deluxe!.position + 1000 })
      .where(eq(products.id, deluxe!.id));
    try {
      expect(await logged()).toEqual([expect.objectContaining({ productId: deluxe!.id })]);
      expect(await names("quokka")).toEqual(["Norton 360 Quokka"]);
      const updated = await currentSearchIndex(database.db);
      // Updated, not read whole again: the old name's words are still in its vocabulary, matching no product.
      expect(updated.vocabulary).toContain("quokka");
      expect(updated.vocabulary).toContain("deluxe");
      expect(updated.ids.length).toBe(before.ids.length);
      // Moved to the end of its brand, as catalogue order has it.
      const norton = updated.brands.get("Norton")!.products;
      expect(updated.ids[norton[norton.length - 1]!]).toBe(deluxe!.id);
    } finally {
      await database.db
        .update(products)
        .set({ name: deluxe!.name, position: deluxe!.position })
        .where(eq(products.id, deluxe!.id));
    }
    expect(await names("quokka")).toEqual([]);

    await database.db.update(brandGroups).set({ position: 99 }).where(eq(brandGroups.key, "HP"));
    expect((await logged()).at(-1)).toMatchObject({ productId: null });
    const rebuilt = await currentSearchIndex(database.db);
    expect(rebuilt.vocabulary).not.toContain("quokka");
  });
});
