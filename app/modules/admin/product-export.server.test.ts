import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { PRODUCT_CSV_EXAMPLE } from "./product-import";
import { productsCsv } from "./product-export.server";
import { importProductCsv, parseProductCsv } from "./product-import.server";
import { listProducts, productListQuery, productsForExport } from "./products.server";

const ADMIN = "owner@example.com";
const query = (params: Record<string, string> = {}) => productListQuery.parse(params);

describe.each(drivers)("the CSV product export on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  const product = async (route: string) =>
    (await database.db.select().from(products).where(eq(products.route, route)))[0]!;

  it("exports in the import's format: importing the export changes nothing", async () => {
    // Values that test the quoting: a quote, a comma and a line break; a hidden product; stock and backorders;
    // a text a spreadsheet would run as a formula, written with an apostrophe and read back without it.
    await database.db
      .update(products)
      .set({
        name: 'Archer "C80", dual band',
        description: '=HYPERLINK("http://evil.example")\n- fast',
        stock: 3,
        waitingOrders: false,
      })
      .where(eq(products.route, "/router/tplink/archer-c80"));
    await database.db
      .update(products)
      .set({ hidden: true, description: "Line one\nLine two" })
      .where(eq(products.route, "/antivirus/norton/360-deluxe"));
    const all = await productsForExport(database.db, query());
    const csv = productsCsv(all);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")\n- fast"`);
    const parsed = parseProductCsv(csv);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.rows).toHaveLength(all.length);
    expect(parsed.columns.map((column) => column.header)).toContain("stock");
    expect(parsed.columns.map((column) => column.header)).toContain("backorders");

    const report = await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN });
    expect(report).toMatchObject({
      ok: true,
      imported: true,
      counts: { create: 0, update: 0, error: 0, unchanged: all.length },
    });
    const router = await product("/router/tplink/archer-c80");
    expect(router).toMatchObject({
      name: 'Archer "C80", dual band',
      description: '=HYPERLINK("http://evil.example")\n- fast',
      stock: 3,
      waitingOrders: false,
    });
  });

  it("carries stock and backorders: an edited export sets them, and software refuses a stock count", async () => {
    const csv = productsCsv(await productsForExport(database.db, query({ q: "/router/tplink/archer-c80" })));
    const edited = csv.replace(/,3,no\r\n$/, ",12,yes\r\n");
    expect(edited).not.toBe(csv);
    const report = await importProductCsv(database.db, edited, { mode: "import", admin: ADMIN });
    expect(report).toMatchObject({ ok: true, imported: true, counts: { update: 1 } });
    expect(await product("/router/tplink/archer-c80")).toMatchObject({ stock: 12, waitingOrders: true });

    const software = productsCsv(
      await productsForExport(database.db, query({ q: "/antivirus/norton/360-deluxe" })),
    ).replace(/,,yes\r\n$/, ",5,yes\r\n");
    const refused = await importProductCsv(database.db, software, { mode: "import", admin: ADMIN });
    expect(refused).toMatchObject({ ok: true, imported: false, counts: { error: 1 } });
    if (!refused.ok) throw new Error("no report");
    expect(refused.rows[0]!.errors).toEqual({
      stock: "Software counts its licence keys: leave the stock empty",
    });

    const bad = await importProductCsv(database.db, edited.replace(/,12,yes\r\n$/, ",-1,maybe\r\n"), {
      mode: "check",
      admin: ADMIN,
    });
    if (!bad.ok) throw new Error("no report");
    expect(bad.rows[0]!.errors).toEqual({ backorders: "Use yes or no" });
  });

  it("exports what the list shows: its filters and its sort by stock", async () => {
    await database.db
      .update(products)
      .set({ stock: 0 })
      .where(eq(products.route, "/router/tplink/archer-c80"));
    const out = await productsForExport(database.db, query({ stock: "out" }));
    expect(out.map((row) => row.route)).toContain("/router/tplink/archer-c80");
    expect(out.every((row) => row.stock === 0 || row.stock === null)).toBe(true);
    const listed = await listProducts(database.db, query({ stock: "out", pageSize: "100" }));
    expect(listed.total).toBe(out.length);

    // Low: at or below the lowStockThreshold setting (5 by default), not out.
    await database.db
      .update(products)
      .set({ stock: 4 })
      .where(eq(products.route, "/router/tplink/archer-c80"));
    const low = await productsForExport(database.db, query({ stock: "low" }));
    expect(low.map((row) => row.route)).toContain("/router/tplink/archer-c80");
    expect(low.every((row) => row.stock === null || (row.stock > 0 && row.stock <= 5))).toBe(true);
    expect((await listProducts(database.db, query({ stock: "low" }))).rows.length).toBeGreaterThan(0);

    const sorted = await productsForExport(
      database.db,
      query({ group: "tplink", sort: "stock", dir: "desc" }),
    );
    const counts = sorted.map((row) => row.stock);
    const numbers = counts.filter((n) => n !== null);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    // Products without a count come last.
    expect(counts.slice(numbers.length).every((n) => n === null)).toBe(true);
  });

  it("the import page's example shows the stock and backorders columns and passes a check", async () => {
    const parsed = parseProductCsv(PRODUCT_CSV_EXAMPLE);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.columns.map((column) => column.header)).toEqual(
      expect.arrayContaining(["stock", "backorders"]),
    );
    expect(parsed.rows[1]!.values).toMatchObject({ stock: "12", waitingOrders: "no" });
    const report = await importProductCsv(database.db, PRODUCT_CSV_EXAMPLE, { mode: "check", admin: ADMIN });
    expect(report).toMatchObject({ ok: true, imported: false, counts: { error: 0 } });
  });
});
