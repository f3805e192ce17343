import { asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, products, productVariants } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { variantsCsv } from "./product-export.server";
import { VARIANT_CSV_COLUMNS, VARIANT_CSV_EXAMPLE } from "./product-import";
import { importKindOf, parseCatalogueCsv } from "./product-import.server";
import { importVariantCsv } from "./variant-import.server";

const ADMIN = "owner@example.com";
const BITDEFENDER = "/antivirus/bitdefender/total-security";

describe.each(drivers)("the variants CSV on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  const variant = async (sku: string) =>
    (await database.db.select().from(productVariants).where(eq(productVariants.sku, sku)))[0];
  const variantCount = async () => (await database.db.select({ n: count() }).from(productVariants))[0]!.n;
  const product = async (route: string) =>
    (await database.db.select().from(products).where(eq(products.route, route)))[0]!;
  const audits = async (action: string) =>
    (await database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, action)))[0]!.n;

  it("exports every variant in the import's format: importing the export changes nothing", async () => {
    // Values that test the quoting and the formula guard, a hidden variant and a perpetual one.
    await database.db
      .update(productVariants)
      .set({ label: '=3 devices, "2" years', hidden: true })
      .where(eq(productVariants.sku, "BD-TS-3D-2Y"));
    await database.db
      .update(productVariants)
      .set({ inrPriceCents: 399_900 })
      .where(eq(productVariants.sku, "BD-TS-1D-1Y"));
    const all = await variantCount();
    expect(all).toBeGreaterThan(3);
    const csv = await variantsCsv(database.db);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("route,sku,label,price,originalPrice,inrPrice,term,stock,hidden,position");
    expect(lines).toContain(`${BITDEFENDER},BD-TS-1D-1Y,"1 device, 1 year",49.99,69.99,3999.00,12,,false,0`);
    expect(lines).toContain(
      `${BITDEFENDER},BD-TS-3D-2Y,"'=3 devices, ""2"" years",119.99,179.99,,24,,true,3`,
    );
    expect(lines.some((line) => /,WIN8-PRO-OEM,OEM,79\.99,109\.99,,,,false,\d+$/.test(line))).toBe(true);
    expect(importKindOf(`\uFEFF${csv}`)).toBe("variants");

    const before = await audits("variant.update");
    const report = await importVariantCsv(database.db, csv, { mode: "import", admin: ADMIN });
    expect(report).toMatchObject({
      ok: true,
      kind: "variants",
      imported: true,
      counts: { create: 0, update: 0, error: 0, unchanged: all },
    });
    expect(await variantCount()).toBe(all);
    expect(await audits("variant.update")).toBe(before);
    expect(await variant("BD-TS-3D-2Y")).toMatchObject({ label: '=3 devices, "2" years', hidden: true });
  });

  it("creates a variant last in its product's order and updates one by its SKU in any case, audited", async () => {
    const norton = await product("/antivirus/norton/360-deluxe");
    const bitdefender = await product(BITDEFENDER);
    const oneYear = (await variant("BD-TS-1D-1Y"))!;
    const lastPosition = (
      await database.db
        .select({ position: productVariants.position })
        .from(productVariants)
        .where(eq(productVariants.productId, bitdefender.id))
        .orderBy(asc(productVariants.position))
    ).at(-1)!.position;
    // Without the term, stock, hidden and position columns: the updated variant keeps its own.
    const csv = [
      "route,sku,label,price,originalPrice",
      `${norton.route},NT-360D-5D-1Y,"5 devices, 1 year",59.99,79.99`,
      `${norton.route},NT-360D-10D-1Y,"10 devices, 1 year",69.99,`,
      `${BITDEFENDER.toUpperCase()},bd-ts-1d-1y,"1 device, 1 year",44.99,69.99`,
      `${BITDEFENDER},BD-TS-5D-NEW,"5 devices, for good",199.99,`,
    ].join("\n");
    const count = await variantCount();
    const check = await importVariantCsv(database.db, csv, { mode: "check", admin: ADMIN });
    expect(check).toMatchObject({ ok: true, imported: false, counts: { create: 3, update: 1, error: 0 } });
    expect(await variantCount()).toBe(count);
    expect((await variant("BD-TS-1D-1Y"))!.priceCents).toBe(4999);

    const createsBefore = await audits("variant.create");
    const updatesBefore = await audits("variant.update");
    const importsBefore = await audits("variant.import");
    const done = await importVariantCsv(database.db, csv, { mode: "import", admin: ADMIN });
    if (!done.ok) throw new Error(done.error);
    expect(done.rows.map((row) => [row.row, row.status, row.sku, row.productId])).toEqual([
      [2, "create", "NT-360D-5D-1Y", norton.id],
      [3, "create", "NT-360D-10D-1Y", norton.id],
      [4, "update", "bd-ts-1d-1y", bitdefender.id],
      [5, "create", "BD-TS-5D-NEW", bitdefender.id],
    ]);
    expect(await variantCount()).toBe(count + 3);
    expect(await variant("NT-360D-5D-1Y")).toMatchObject({
      productId: norton.id,
      label: "5 devices, 1 year",
      priceCents: 5999,
      originalPriceCents: 7999,
      termMonths: null,
      stock: null,
      hidden: false,
      position: 0,
    });
    expect(await variant("NT-360D-10D-1Y")).toMatchObject({ position: 1, originalPriceCents: 6999 });
    expect(await variant("BD-TS-5D-NEW")).toMatchObject({ position: lastPosition + 1, termMonths: null });
    // The same variant (its keys and orders stay with it), its SKU now as the file spells it.
    expect(await variant("bd-ts-1d-1y")).toMatchObject({
      id: oneYear.id,
      priceCents: 4499,
      originalPriceCents: 6999,
      termMonths: 12,
      position: oneYear.position,
      hidden: false,
    });
    expect(await audits("variant.create")).toBe(createsBefore + 3);
    expect(await audits("variant.update")).toBe(updatesBefore + 1);
    expect(await audits("variant.import")).toBe(importsBefore + 1);
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "variant.import"))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(entry).toMatchObject({ actor: ADMIN, after: { create: 3, update: 1, unchanged: 0, error: 0 } });

    // Variants the file leaves out are kept, never deleted.
    expect(await variant("BD-TS-1D-2Y")).toBeDefined();
  });

  it("reports each bad row by row and column and writes nothing", async () => {
    const router = await product("/router/tplink/archer-c80");
    const before = await database.db.select().from(productVariants).orderBy(asc(productVariants.id));
    const csv = [
      "route,sku,label,price,originalPrice,term,stock,hidden,position",
      `/antivirus/norton/no-such-product,NT-GHOST-1Y,Ghost,9.99,,12,,false,`,
      `/antivirus/norton/360-deluxe,win8-pro-oem,Taken,9.99,,12,,false,`,
      `${BITDEFENDER},BD-TS-STOCK,With stock,9.99,,12,5,false,`,
      `${BITDEFENDER},BD-TS-CHEAP,Cheap,cheap,,12,,false,`,
      `${BITDEFENDER},BD-TS-LONG,Too long,9.99,,121,,false,`,
      `${BITDEFENDER},BD-TS-GOOD,Good,9.99,19.99,12,,maybe,`,
      `${BITDEFENDER},BD-TS-DUP,First,9.99,,12,,false,`,
      `${BITDEFENDER},bd-ts-dup,Second,9.99,,12,,false,-1`,
      `${router.route},TPL-C80-BUNDLE,Bundle,99.99,89.99,,4,false,`,
      `${router.route},TPL-C80-OK,Router,99.99,,,4,false,`,
    ].join("\n");
    const report = await importVariantCsv(database.db, csv, { mode: "import", admin: ADMIN });
    if (!report.ok) throw new Error(report.error);
    expect(report).toMatchObject({ imported: false, counts: { error: 8, create: 2 } });
    const errors = Object.fromEntries(report.rows.map((row) => [row.row, row.errors]));
    expect(errors).toEqual({
      2: { route: "There is no product at /antivirus/norton/no-such-product" },
      3: { sku: "The SKU WIN8-PRO-OEM is already used by Windows 8 Pro" },
      4: { stock: "Software counts its licence keys: leave the stock empty" },
      5: { price: "Enter the price like 49.99" },
      6: { term: "Enter a term from 1 to 120 months, or leave it empty for a perpetual licence" },
      7: { hidden: "Use true or false" },
      8: undefined,
      9: {
        sku: "Row 8 has the same SKU",
        position: "Enter a whole number from 0 to 999999, or leave it empty (last, for a new variant)",
      },
      10: { originalPrice: "The original price cannot be below the price" },
      11: undefined,
    });
    expect(report.rows.find((row) => row.row === 11)).toMatchObject({ status: "create" });
    expect(await database.db.select().from(productVariants).orderBy(asc(productVariants.id))).toEqual(before);

    // A file that is not a variants file at all is refused as a whole, saying why.
    expect(
      await importVariantCsv(database.db, "sku,label\nX-1,One", { mode: "check", admin: ADMIN }),
    ).toEqual({
      ok: false,
      error: 'The header row lacks the columns "route", "price". The first row must name the columns.',
    });
  });

  it("the import page's example is a variants file that passes a check", async () => {
    expect(importKindOf(VARIANT_CSV_EXAMPLE)).toBe("variants");
    expect(importKindOf("group;id;name;route;price\n")).toBe("products");
    const parsed = parseCatalogueCsv(VARIANT_CSV_EXAMPLE, VARIANT_CSV_COLUMNS, "variant");
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.columns.map((column) => column.header)).toEqual(
      VARIANT_CSV_COLUMNS.map((column) => column.header),
    );
    const report = await importVariantCsv(database.db, VARIANT_CSV_EXAMPLE, { mode: "check", admin: ADMIN });
    expect(report).toMatchObject({ ok: true, imported: false, counts: { error: 0 } });
  });
});
