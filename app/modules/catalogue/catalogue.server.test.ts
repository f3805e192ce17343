import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import {
  brandProducts,
  brandTiles,
  brandWithContent,
  productByRoute,
  productsWithTag,
  resolveCataloguePath,
  sectionHighlights,
} from "./catalogue.server";

describe.each(drivers)("catalogue lookups on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database?.close();
  });

  it("finds a product by its stored route, whatever the case of the path", async () => {
    const product = await productByRoute(database, "/Windows/Windows7/Professional");
    expect(product).toMatchObject({
      name: "Windows 7 Professional",
      route: "/windows/windows7/professional",
      groupKey: "Windows7",
      brand: { key: "Windows7", slug: "windows7", section: "windows", name: "Windows 7" },
    });
    expect(product!.externalId).toBeTruthy();
    expect(await productByRoute(database, "/WINDOWS/WINDOWS7/PROFESSIONAL")).toMatchObject({
      id: product!.id,
    });
    // The misspelt PC Matic prefix is kept as stored, and printers sit directly under /printer.
    expect((await productByRoute(database, "/antvirus/pcmatic/pro"))?.brand.key).toBe("PCMatic");
    expect((await productByRoute(database, "/printer/hp-laserjet-pro-m404n"))?.name).toBe(
      "HP LaserJet Pro M404n",
    );
    expect(await productByRoute(database, "/antivirus/pcmatic/pro")).toBeNull();
    expect(await productByRoute(database, "/windows/windows7")).toBeNull();
  });

  it("keeps the specifications in their stored order and prices in cents", async () => {
    const product = await productByRoute(database, "/antivirus/mcafee/total-protection");
    expect(product!.priceCents).toBe(7999);
    expect(product!.originalPriceCents).toBe(11999);
    expect(product!.specifications.map((spec) => spec.label)).toEqual([
      "Operating System",
      "Memory (RAM)",
      "Platform",
      "CPU",
      "Storage",
      "Internet Connection",
      "Identity Protection",
      "Secure VPN",
    ]);
    expect(product!.brand.officialWebsite).toBe("https://www.mcafee.com");
  });

  it("resolves a path to a product first, then to a brand page of that section, else nothing", async () => {
    const product = await resolveCataloguePath(database, "/printer/canon-imageclass-mf445dw/");
    expect(product?.kind).toBe("product");

    const mcafee = await resolveCataloguePath(database, "/Antivirus/McAfee");
    expect(mcafee?.kind).toBe("brand");
    if (mcafee?.kind !== "brand") throw new Error("not a brand page");
    expect(mcafee.brand).toMatchObject({ key: "McAfee", officialWebsite: "https://www.mcafee.com" });
    expect(mcafee.content.title).toBe("McAfee Antivirus Support");
    expect(mcafee.content.benefits).toHaveLength(3);
    expect(mcafee.content.sample).toBe(true);
    expect(mcafee.products.items.map((card) => card.name)).toContain("McAfee Total Protection");
    expect(mcafee.products).toMatchObject({ total: 5, page: 1, pageCount: 1 });
    expect(mcafee.products.items).toHaveLength(5);

    for (const path of ["/windows/windows7", "/printer/hp", "/router/cisco", "/antivirus/pcmatic"]) {
      expect((await resolveCataloguePath(database, path))?.kind, path).toBe("brand");
    }
    for (const path of [
      "/antivirus/nope",
      "/printer/nope",
      "/router/mcafee", // a brand of another section
      "/antivirus/mcafee/nope",
      "/digital/mcafee",
      "/mcafee",
    ]) {
      expect(await resolveCataloguePath(database, path), path).toBeNull();
    }
  });

  it("leads the section's spelling of a product's route to the route the product keeps", async () => {
    for (const path of ["/antivirus/pcmatic/pro", "/ANTIVIRUS/PCMatic/Pro/"]) {
      expect(await resolveCataloguePath(database, path), path).toEqual({
        kind: "moved",
        to: "/antvirus/pcmatic/pro",
      });
    }
    // The spec's own spelling is the product page, and the brand page stays where it is.
    expect((await resolveCataloguePath(database, "/antvirus/pcmatic/pro"))?.kind).toBe("product");
    expect((await resolveCataloguePath(database, "/antivirus/pcmatic"))?.kind).toBe("brand");
    for (const path of [
      "/antivirus/pcmatic/nope",
      "/router/pcmatic/pro", // another section
      "/antivirus/pcmatic/pro/more",
      "/antivirus/pro",
    ]) {
      expect(await resolveCataloguePath(database, path), path).toBeNull();
    }
  });

  it("shares the Windows content between the three Windows groups", async () => {
    const [seven, eight, xp] = await Promise.all(
      ["windows7", "Windows8", "windowsxp"].map((slug) => brandWithContent(database, slug)),
    );
    expect(seven!.brand.name).toBe("Windows 7");
    expect(eight!.brand.name).toBe("Windows 8");
    for (const found of [seven, eight, xp]) expect(found!.content.title).toBe("Microsoft Windows Support");
    expect(await brandWithContent(database, "windows7", "antivirus")).toBeNull();
    expect(await brandWithContent(database, "nope")).toBeNull();
  });

  it("lists brands with logos and product counts, and a section's best products", async () => {
    const all = await brandTiles(database);
    expect(all).toHaveLength(23);
    expect(all.reduce((sum, tile) => sum + tile.productCount, 0)).toBe(89);
    const routers = await brandTiles(database, "router");
    expect(routers.map((tile) => tile.key)).toEqual(["netgear", "tplink", "asus", "dlink", "cisco"]);
    expect(routers[0]!.logo).toMatch(/^\/placeholder\/logo\//);

    const highlights = await sectionHighlights(database, "printer");
    expect(highlights.length).toBeGreaterThan(0);
    for (const card of highlights) expect(card.route).toMatch(/^\/printer\//);
  });

  it("never shows a hidden product: not at its route, not in lists, counts or highlights", async () => {
    const route = "/antivirus/norton/360-deluxe";
    const before = await productByRoute(database, route);
    expect(before).not.toBeNull();
    await database.db.update(products).set({ hidden: true }).where(eq(products.id, before!.id));
    try {
      expect(await productByRoute(database, route)).toBeNull();
      expect(await resolveCataloguePath(database, route)).toBeNull();
      const norton = await brandProducts(database, "Norton", { limit: 24 });
      expect(norton.map((card) => card.route)).not.toContain(route);
      expect(norton).toHaveLength(4);
      const tiles = await brandTiles(database, "antivirus");
      expect(tiles.find((tile) => tile.key === "Norton")?.productCount).toBe(4);
      for (const tag of ["best-seller", "top-rated", "premium-security", "identity-protection"]) {
        expect((await productsWithTag(database, tag)).map((card) => card.route)).not.toContain(route);
      }
      expect((await sectionHighlights(database, "antivirus", 100)).map((card) => card.route)).not.toContain(
        route,
      );
    } finally {
      await database.db
        .update(products)
        .set({ hidden: false })
        .where(sql`${products.id} = ${before!.id}`);
    }
  });
});
