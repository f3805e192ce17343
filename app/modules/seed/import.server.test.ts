import { asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import {
  brandContent,
  brandGroups,
  companyDetails,
  productMetadata,
  productReviews,
  products,
  webInfo,
} from "~db/schema";
import { testCipher } from "../../../tests/support/seed";
import { importSeed, parseSeed, readDemoSeed, SeedValidationError } from "./import.server";

const GROUP_KEYS = [
  "McAfee",
  "Kaspersky",
  "Norton",
  "Webroot",
  "Avast",
  "AVG",
  "Bitdefender",
  "TotalAV",
  "Avira",
  "PCMatic",
  "TrendMicro",
  "BullGuard",
  "Windows7",
  "Windows8",
  "Windowsxp",
  "hp",
  "canon",
  "epson",
  "netgear",
  "tplink",
  "asus",
  "dlink",
  "cisco",
];
const SOFTWARE = ["Operating System", "Memory (RAM)", "Platform", "CPU", "Storage", "Internet Connection"];
const SOFTWARE_EXTRAS = ["Identity Protection", "Secure VPN", "Cloud Backup"];
const LABELS = {
  windows: [...SOFTWARE, "Graphics"],
  printer: ["Printing Technology", "Print Speed", "Resolution", "Connectivity", "Paper Capacity"],
  router: ["Wi-Fi Standard", "Speed", "Connectivity", "Coverage", "Security"],
  cisco: ["WAN Ports", "LAN Ports", "VPN", "Security", "Speed", "PoE Support", "Management"],
};

describe("the demo data file", () => {
  const seed = readDemoSeed();
  const groups = seed.groups ?? [];

  it("has all 23 brand groups in the spec's order, each with 3 to 5 products", () => {
    expect(groups.map((group) => group.key)).toEqual(GROUP_KEYS);
    for (const group of groups) {
      expect(group.products.length, group.key).toBeGreaterThanOrEqual(3);
      expect(group.products.length, group.key).toBeLessThanOrEqual(5);
    }
  });

  it("gives every product the spec's fields, prices and discountedPrice equal to price", () => {
    for (const group of groups) {
      for (const product of group.products) {
        expect(product.discountedPrice, product.name).toBe(product.price);
        expect(product.price).toMatch(/^\d+\.\d{2}$/);
        const price = Number(product.price);
        expect(price, product.name).toBeGreaterThanOrEqual(49.99);
        expect(price, product.name).toBeLessThanOrEqual(799.99);
        expect(Number(product.originalPrice), product.name).toBeGreaterThanOrEqual(price);
        for (const tag of product.category ?? []) {
          expect(["", "best-seller", "top-rated", "identity-protection", "premium-security"]).toContain(tag);
        }
      }
    }
    const all = groups.flatMap((group) => group.products);
    // Ids are unique within a group only: some repeat across groups, as in the spec.
    const ids = all.map((product) => product.id);
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(all.some((product) => product.category?.includes(""))).toBe(true);
  });

  it("uses the exact specification labels for each kind of product", () => {
    for (const group of groups) {
      for (const product of group.products) {
        const labels = Object.keys(product.specifications);
        if (group.section === "antivirus") {
          expect(labels.slice(0, SOFTWARE.length), product.name).toEqual(SOFTWARE);
          for (const extra of labels.slice(SOFTWARE.length))
            expect(SOFTWARE_EXTRAS, product.name).toContain(extra);
        } else if (group.key === "cisco") {
          expect(labels, product.name).toEqual(LABELS.cisco);
        } else {
          expect(labels, product.name).toEqual(LABELS[group.section]);
        }
      }
    }
  });

  it("keeps the spec's route shapes, including the misspelt PC Matic prefix and the Windows editions", () => {
    const routesOf = (key: string) =>
      groups.find((group) => group.key === key)!.products.map((product) => product.route);
    expect(routesOf("Windows7").sort()).toEqual(
      ["home-premium", "professional", "ultimate", "enterprise"].map((e) => `/windows/windows7/${e}`).sort(),
    );
    expect(routesOf("Windows8").sort()).toEqual(
      ["home", "pro", "enterprise", "professional"].map((e) => `/windows/windows8/${e}`).sort(),
    );
    expect(routesOf("Windowsxp").sort()).toEqual(
      ["home", "pro", "sp3"].map((e) => `/windows/windowsxp/${e}`).sort(),
    );
    for (const route of routesOf("PCMatic")) expect(route).toMatch(/^\/antvirus\/pcmatic\/[a-z0-9-]+$/);
    for (const group of groups) {
      for (const route of group.products.map((product) => product.route)) {
        if (group.section === "antivirus" && group.key !== "PCMatic") {
          expect(route).toMatch(new RegExp(`^/antivirus/${group.key.toLowerCase()}/[a-z0-9-]+$`));
        }
        if (group.section === "printer") {
          expect(route).toMatch(/^\/printer\/[a-z0-9-]+$/);
          expect(["/printer/hp", "/printer/canon", "/printer/epson"]).not.toContain(route);
        }
        if (group.section === "router")
          expect(route).toMatch(new RegExp(`^/router/${group.key}/[a-z0-9-]+$`));
      }
    }
  });

  it("has brand content for every key: 3 benefits, 10-14 features, 7-10 testimonials, Windows shared", () => {
    for (const group of groups) {
      const content = seed.brandContent?.[group.content];
      expect(content, group.key).toBeDefined();
      expect(content!.benefits).toHaveLength(3);
      expect(content!.features.length).toBeGreaterThanOrEqual(10);
      expect(content!.features.length).toBeLessThanOrEqual(14);
      expect(content!.testimonials.length).toBeGreaterThanOrEqual(7);
      expect(content!.testimonials.length).toBeLessThanOrEqual(10);
      expect(content!.backgroundImage).toBe("");
      expect(content!.sample).toBe(true);
      const expectedTitle =
        group.section === "windows"
          ? "Microsoft Windows Support"
          : group.section === "antivirus"
            ? `${group.name} Antivirus Support`
            : group.section === "printer"
              ? `${group.name} Printer Support`
              : `${group.name} Router Support`;
      expect(content!.title).toBe(expectedTitle);
      expect(content!.contact.supportPhone).toMatch(/^\+1 \(\d{3}\) 555-01\d{2}$/);
      expect(content!.contact.supportEmail).toMatch(/@example\.com$/);
    }
    const windows = groups.filter((group) => group.section === "windows").map((group) => group.content);
    expect(new Set(windows).size).toBe(1);
  });

  it("follows the sample-data rules: fictional phones, example.com addresses, generated images", () => {
    const text = JSON.stringify(seed);
    for (const phone of text.match(/555-\d{4}/g) ?? []) expect(phone).toMatch(/^555-01\d\d$/);
    for (const email of text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [])
      expect(email).toMatch(/@example\.com$/);
    for (const group of groups)
      for (const product of group.products) expect(product.img).toMatch(/^\/placeholder\/product\//);
    expect(seed.company!.phonecall).toMatch(/^\+1\d{10}$/);
    expect(seed.webInfo!.address).toMatch(/India$/);
    expect(seed.webInfo!.address2).toMatch(/USA$/);
  });
});

describe.each(drivers)("importing the catalogue on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("imports the sample reviews approved and marked as samples, once however often it runs", async () => {
    const seed = readDemoSeed();
    expect(seed.sampleReviews!.length).toBeGreaterThan(0);
    await importSeed(database.db, seed, "demo", { cipher: testCipher() });
    await importSeed(database.db, seed, "demo", { cipher: testCipher() });
    const stored = await database.db.select().from(productReviews);
    expect(stored).toHaveLength(seed.sampleReviews!.length);
    expect(stored.every((row) => row.sample && row.status === "approved" && row.userId === null)).toBe(true);
  });

  it("imports the demo store, and importing it again changes nothing", async () => {
    const cipher = testCipher();
    const first = await importSeed(database.db, readDemoSeed(), "demo", { cipher });
    const snapshot = await database.db.select().from(products).orderBy(asc(products.id));
    const second = await importSeed(database.db, readDemoSeed(), "demo", { cipher });
    expect(second).toEqual({ ...first, licenceKeys: 0 });
    expect(first.licenceKeys).toBe(readDemoSeed().licenceKeys!.reduce((n, pool) => n + pool.keys.length, 0));
    const again = await database.db.select().from(products).orderBy(asc(products.id));
    expect(again.map(({ updatedAt: _u, ...rest }) => rest)).toEqual(
      snapshot.map(({ updatedAt: _u, ...rest }) => rest),
    );

    const [groupCount] = await database.db.select({ n: count() }).from(brandGroups);
    expect(groupCount!.n).toBe(23);
    const perGroup = await database.db
      .select({ key: products.groupKey, n: count() })
      .from(products)
      .groupBy(products.groupKey);
    expect(perGroup).toHaveLength(23);
    for (const row of perGroup) expect(row.n).toBeGreaterThanOrEqual(3);
    for (const row of perGroup) expect(row.n).toBeLessThanOrEqual(5);
  });

  it("stores money in cents, specifications in order and drops empty category tags", async () => {
    const seed = readDemoSeed();
    const source = seed.groups!.flatMap((group) =>
      group.products.map((product) => ({ group: group.key, product })),
    );
    for (const { group, product } of source) {
      const [row] = await database.db
        .select()
        .from(products)
        .where(sql`${products.groupKey} = ${group} and ${products.externalId} = ${product.id}`);
      expect(row!.priceCents).toBe(Math.round(Number(product.price) * 100));
      expect(row!.originalPriceCents).toBe(Math.round(Number(product.originalPrice) * 100));
      expect(row!.specifications.map((spec) => spec.label)).toEqual(Object.keys(product.specifications));
      expect(row!.categories).not.toContain("");
    }
  });

  it("finds a product by its route case-insensitively with one index probe", async () => {
    const [row] = await database.db
      .select({ name: products.name })
      .from(products)
      .where(eq(sql`lower(${products.route})`, "/Windows/Windows7/Professional".toLowerCase()));
    expect(row?.name).toMatch(/Windows 7 Professional/);
    const plan = await database.db.execute(
      sql`explain select id from products where lower(route) = lower(${"/Windows/Windows7/Professional"})`,
    );
    const text = JSON.stringify(plan);
    // Small tables may be scanned anyway; with sequential scans off the index must be usable.
    if (!text.includes("products_route_lower_idx")) {
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const forced = await tx.execute(
          sql`explain select id from products where lower(route) = lower(${"/x"})`,
        );
        expect(JSON.stringify(forced)).toContain("products_route_lower_idx");
      });
    }
  });

  it("shares one Windows content entry and keeps product metadata for mcafee and norton only", async () => {
    const windows = await database.db
      .select({ contentKey: brandGroups.contentKey })
      .from(brandGroups)
      .where(eq(brandGroups.section, "windows"));
    expect(windows.map((row) => row.contentKey)).toEqual(["Windows", "Windows", "Windows"]);
    const [shared] = await database.db.select().from(brandContent).where(eq(brandContent.key, "Windows"));
    expect(shared!.title).toBe("Microsoft Windows Support");
    const metadata = await database.db
      .select({ key: productMetadata.key })
      .from(productMetadata)
      .orderBy(asc(productMetadata.key));
    expect(metadata.map((row) => row.key)).toEqual(["mcafee", "norton"]);
    const [company] = await database.db.select().from(companyDetails);
    expect(company!.phone).toBeTruthy();
    expect(company!.phonecall).toMatch(/^\+/);
    const [info] = await database.db.select().from(webInfo);
    expect(info!.address).toMatch(/India/);
    expect(info!.address2).toMatch(/USA/);
  });

  it("rejects a malformed file naming every bad field by its path, and imports nothing", async () => {
    const fresh = await createTestDatabase(driver);
    try {
      const seed = structuredClone(readDemoSeed()) as Record<string, unknown> & {
        groups: Array<Record<string, unknown>>;
      };
      const group = seed.groups[2] as { products: Array<Record<string, unknown>> };
      group.products[1]!.price = "12.5";
      group.products[0]!.discountedPrice = "1.00";
      delete (seed.groups[5] as Record<string, unknown>).section;
      let error: unknown;
      try {
        parseSeed(seed, "my-catalogue.json");
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(SeedValidationError);
      const problems = (error as SeedValidationError).problems;
      expect(problems).toContain(
        "groups[2].products[1].price: must be a decimal string with two places, like 49.99",
      );
      expect(problems).toContain("groups[2].products[0].discountedPrice: must equal price");
      expect(problems.some((p) => p.startsWith("groups[5].section:"))).toBe(true);
      const [n] = await fresh.db.select({ n: count() }).from(products);
      expect(n!.n).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it("carries stock: counts for the demo printers and routers, kept live on a second import, refused for software", async () => {
    const seed = readDemoSeed();
    const physical = seed.groups!.filter(
      (group) => group.section === "printer" || group.section === "router",
    );
    for (const group of physical)
      for (const product of group.products) expect(product.stock).toBeGreaterThanOrEqual(0);
    const [archer] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/router/tplink/archer-c80"));
    const given = physical.flatMap((group) => group.products).find((p) => p.route === archer!.route)!.stock;
    expect(archer!.stock).toBe(given);
    // Orders took some: importing the file again keeps the live count; a backorders flag in the file is applied.
    await database.db.update(products).set({ stock: 1 }).where(eq(products.id, archer!.id));
    const edited = structuredClone(seed);
    const tplink = edited.groups!.find((group) => group.key === "tplink")!;
    tplink.products.find((p) => p.route === archer!.route)!.backorders = false;
    await importSeed(database.db, { groups: [tplink] }, "edited.json", { cipher: testCipher() });
    const [after] = await database.db.select().from(products).where(eq(products.id, archer!.id));
    expect(after).toMatchObject({ stock: 1, waitingOrders: false });
    await database.db
      .update(products)
      .set({ stock: given, waitingOrders: true })
      .where(eq(products.id, archer!.id));

    const software = structuredClone(seed) as Record<string, unknown> & {
      groups: Array<{ products: Array<Record<string, unknown>> }>;
    };
    software.groups[0]!.products[0]!.stock = 4;
    software.groups[15]!.products[0]!.stock = -1;
    let error: unknown;
    try {
      parseSeed(software, "stock.json");
    } catch (caught) {
      error = caught;
    }
    expect((error as SeedValidationError).problems).toEqual([
      "groups[0].products[0].stock: only printers and routers have a stock count: software counts its licence keys",
      "groups[15].products[0].stock: cannot be negative",
    ]);
  });

  it("rolls back a whole import when a route belongs to another product, and says which", async () => {
    const fresh = await createTestDatabase(driver);
    try {
      const seed = readDemoSeed();
      await importSeed(fresh.db, { brandContent: seed.brandContent, groups: seed.groups!.slice(0, 1) });
      const mcafeeRoute = seed.groups![0]!.products[0]!.route;
      const clash = structuredClone(seed.groups![1]!);
      clash.products[1]!.route = mcafeeRoute.toUpperCase();
      await expect(importSeed(fresh.db, { groups: [clash] }, "clash.json")).rejects.toThrow(
        `groups[0].products[1].route: ${mcafeeRoute.toUpperCase()} already belongs to McAfee product`,
      );
      const rows = await fresh.db
        .select({ key: products.groupKey })
        .from(products)
        .groupBy(products.groupKey);
      expect(rows.map((row) => row.key)).toEqual(["McAfee"]);
    } finally {
      await fresh.close();
    }
  });
});
