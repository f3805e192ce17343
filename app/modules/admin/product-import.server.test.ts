import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, products } from "~db/schema";
import { resolveCataloguePath } from "~/modules/catalogue/catalogue.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from "./product-import";
import { importProductCsv, parseProductCsv } from "./product-import.server";

const ADMIN = "owner@example.com";
const HEADER = "group,id,name,route,price,originalPrice,description,image,categories,specifications,hidden";

const productCount = async (db: TestDatabase["db"]) => (await db.select({ n: count() }).from(products))[0]!.n;

describe.each(drivers)("the CSV product import on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  it("imports a good file: creates new products, updates known ones, leaves identical ones alone", async () => {
    const [deluxe] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/antivirus/norton/360-deluxe"));
    const csv = [
      HEADER,
      'Norton,csv-1,Norton CSV One,/antivirus/norton/csv-one,19.99,29.99,"First, with a comma",/placeholder/product/a.svg,"best-seller, top-rated","Operating System: Windows 11\nMemory (RAM): 4 GB",',
      "Norton,,Norton CSV Two,/antivirus/norton/csv-two,9.50,,Second,/placeholder/product/b.svg,,,yes",
      `Norton,${deluxe!.externalId},Norton 360 Deluxe (renamed),${deluxe!.route},${(deluxe!.priceCents / 100).toFixed(2)},,${deluxe!.description.replace(/"/g, '""').replace(/^|$/g, '"')},${deluxe!.img},,,`,
    ].join("\n");
    const before = await productCount(database.db);

    const check = await importProductCsv(database.db, csv, { mode: "check", admin: ADMIN });
    expect(check).toMatchObject({ ok: true, imported: false, counts: { create: 2, update: 1, error: 0 } });
    expect(await productCount(database.db)).toBe(before);

    const done = await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN });
    if (!done.ok) throw new Error(done.error);
    expect(done.imported).toBe(true);
    expect(done.rows.map((row) => [row.row, row.status])).toEqual([
      [2, "create"],
      [3, "create"],
      [4, "update"],
    ]);
    expect(await productCount(database.db)).toBe(before + 2);
    const [one] = await database.db.select().from(products).where(eq(products.externalId, "csv-1"));
    expect(one).toMatchObject({
      name: "Norton CSV One",
      description: "First, with a comma",
      priceCents: 1999,
      originalPriceCents: 2999,
      categories: ["best-seller", "top-rated"],
      specifications: [
        { label: "Operating System", value: "Windows 11" },
        { label: "Memory (RAM)", value: "4 GB" },
      ],
      hidden: false,
    });
    // No id in the file: a new id from the route.
    const [two] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/antivirus/norton/csv-two"));
    expect(two).toMatchObject({ externalId: "csv-two", hidden: true, originalPriceCents: 950 });
    const [renamed] = await database.db.select().from(products).where(eq(products.id, deluxe!.id));
    expect(renamed!.name).toBe("Norton 360 Deluxe (renamed)");
    // On the storefront at once; the hidden one is not.
    expect(await resolveCataloguePath(database, "/antivirus/norton/csv-one")).toMatchObject({
      kind: "product",
      product: { name: "Norton CSV One" },
    });
    expect(await resolveCataloguePath(database, "/antivirus/norton/csv-two")).toBeNull();
    const audit = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(sql`${auditLog.action} like 'product.%'`);
    expect(audit.map((entry) => entry.action).sort()).toEqual(
      ["product.create", "product.create", "product.update", "product.import"].sort(),
    );

    // The same file again changes nothing.
    const again = await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN });

    expect(again).toMatchObject({ ok: true, imported: true, counts: { create: 0, update: 0, unchanged: 3 } });
  });

  it("keeps the values of columns the file does not have when it updates a product", async () => {
    const csv = [
      "name,group,route,price,description,image",
      "Norton CSV Two v2,Norton,/antivirus/norton/csv-two,9.50,Second,/placeholder/product/b.svg",
      "Norton CSV One v2,Norton,/antivirus/norton/csv-one,19.99,First,/placeholder/product/a.svg",
    ].join("\r\n");
    expect(await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN })).toMatchObject({
      ok: true,
      imported: true,
      counts: { update: 2 },
    });
    const [one] = await database.db.select().from(products).where(eq(products.externalId, "csv-1"));
    expect(one).toMatchObject({
      name: "Norton CSV One v2",
      originalPriceCents: 2999,
      categories: ["best-seller", "top-rated"],
      specifications: [
        { label: "Operating System", value: "Windows 11" },
        { label: "Memory (RAM)", value: "4 GB" },
      ],
    });
    const [two] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/antivirus/norton/csv-two"));
    expect(two).toMatchObject({ name: "Norton CSV Two v2", hidden: true, externalId: "csv-two" });
  });

  it("imports nothing when a row is bad, and reports every row with the column's message", async () => {
    const before = await productCount(database.db);
    const csv = [
      HEADER,
      "Norton,ok-1,Fine Product,/antivirus/norton/fine,10.00,,Fine,/placeholder/product/f.svg,,,",
      "Nope,bad-1,,no-slash,12.345,1.00,Bad,javascript:alert(1),Not A Tag!,nonsense,maybe",
      "Norton,bad-2,Cheaper Before,/antivirus/norton/cheap,20.00,10.00,Bad,/placeholder/product/c.svg,,,",
      "Norton,short-row,Too few cells",
    ].join("\n");
    const result = await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN });
    if (!result.ok) throw new Error(result.error);
    expect(result.imported).toBe(false);
    expect(result.counts).toEqual({ create: 1, update: 0, unchanged: 0, error: 3 });
    expect(result.rows[0]).toMatchObject({ row: 2, status: "create" });
    expect(result.rows[1]).toMatchObject({
      row: 3,
      status: "error",
      errors: { hidden: "Use true or false" },
    });
    expect(result.rows[2]).toMatchObject({
      row: 4,
      status: "error",
      errors: { originalPrice: "The original price cannot be below the price" },
    });
    expect(result.rows[3]!.errors!.row).toMatch(/3 cells; the header has 11/);
    expect(await productCount(database.db)).toBe(before);

    // With the hidden cell fixed, every other field of row 3 is reported by its column.
    const fields = await importProductCsv(
      database.db,
      [HEADER, "Nope,bad-1,,no-slash,12.345,1.00,Bad,javascript:alert(1),Not A Tag!,nonsense,no"].join("\n"),
      { mode: "check", admin: ADMIN },
    );
    if (!fields.ok) throw new Error(fields.error);
    expect(Object.keys(fields.rows[0]!.errors!).sort()).toEqual(
      ["group", "name", "route", "price", "image", "categories", "specifications"].sort(),
    );
    expect(fields.rows[0]!.errors!.group).toBe('There is no brand group "Nope"');
  });

  it("refuses duplicate routes: in the file, of other products, and the store's own pages", async () => {
    const csv = [
      HEADER,
      "Norton,dup-1,Dup One,/antivirus/norton/dup,10.00,,D,/placeholder/product/d.svg,,,",
      "Norton,dup-2,Dup Two,/ANTIVIRUS/NORTON/DUP,10.00,,D,/placeholder/product/d.svg,,,",
      "Norton,dup-3,Taken,/antivirus/norton/360-deluxe,10.00,,D,/placeholder/product/d.svg,,,",
      "Norton,dup-1,Same id,/antivirus/norton/dup-again,10.00,,D,/placeholder/product/d.svg,,,",
      "Norton,dup-5,Cart,/cart/thing,10.00,,D,/placeholder/product/d.svg,,,",
      "Norton,dup-6,Brand,/antivirus/norton,10.00,,D,/placeholder/product/d.svg,,,",
      "McAfee,csv-1,Other group id,/antivirus/mcafee/csv-1,10.00,,D,/placeholder/product/d.svg,,,",
    ].join("\n");
    const result = await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN });
    if (!result.ok) throw new Error(result.error);
    expect(result.imported).toBe(false);
    expect(result.rows.map((row) => [row.status, row.errors])).toEqual([
      ["create", undefined],
      ["error", { route: "Row 2 has the same address" }],
      ["error", { route: expect.stringMatching(/^This address belongs to Norton 360 Deluxe/) }],
      ["error", { id: "Row 2 is the same product" }],
      ["error", { route: "Addresses under /cart belong to the store's own pages" }],
      ["error", { route: expect.stringMatching(/brand page/) }],
      // The same id in another group is another product.
      ["create", undefined],
    ]);
  });

  it("says what is wrong with an empty file, a wrong header, a huge file or too many rows", async () => {
    const check = (text: string) => importProductCsv(database.db, text, { mode: "import", admin: ADMIN });
    expect(await check("")).toEqual({ ok: false, error: expect.stringMatching(/empty/) });
    expect(await check("\n\n  \n")).toEqual({ ok: false, error: expect.stringMatching(/empty/) });
    expect(await check(`${HEADER}\n`)).toEqual({
      ok: false,
      error: expect.stringMatching(/no product rows/),
    });
    expect(
      await check("group,name,route,price,description,image,colour\nNorton,a,/a/b,1.00,d,/i.png,red"),
    ).toEqual({
      ok: false,
      error: expect.stringMatching(/columns the import does not know: "colour"/),
    });
    expect(await check("Norton,Norton Antivirus,/antivirus/norton/x,1.00,Great,/i.png\n")).toEqual({
      ok: false,
      error: expect.stringMatching(/^The first row must name the columns/),
    });
    expect(await check("group,name,price\nNorton,x,1.00")).toEqual({
      ok: false,
      error: expect.stringMatching(/lacks the columns "route", "description", "image"/),
    });
    expect(await check("group,group,name,route,price,description,image\n")).toEqual({
      ok: false,
      error: expect.stringMatching(/two columns for the same field/),
    });
    expect(await check('group,name\n"Norton,unclosed')).toEqual({
      ok: false,
      error: expect.stringMatching(/not valid CSV/),
    });
    const huge = `${HEADER}\n${"x".repeat(IMPORT_MAX_BYTES)}`;
    expect(await check(huge)).toEqual({
      ok: false,
      error: "The file is 1.1 MiB: the import takes at most 1 MiB. Split it into smaller files.",
    });
    const many = [
      "group,name,route,price,description,image",
      ...Array.from(
        { length: IMPORT_MAX_ROWS + 1 },
        (_, n) => `Norton,P${n},/antivirus/norton/p${n},1.00,d,/i.png`,
      ),
    ].join("\n");
    expect(await check(many)).toEqual({
      ok: false,
      error: expect.stringMatching(/more than 5,000 product rows/),
    });
  });

  it("reads a semicolon-separated export with a byte order mark and other header spellings", () => {
    const parsed = parseProductCsv(
      "\uFEFFGroup Key;Product Name;Path;Price;Desc;Img\nNorton;A, B;/antivirus/norton/ab;1.00;d;/i.png\n",
    );
    expect(parsed).toMatchObject({
      ok: true,
      rows: [{ row: 2, values: { groupKey: "Norton", name: "A, B", route: "/antivirus/norton/ab" } }],
    });
  });

  it("imports 5,000 rows in one go", async () => {
    const rows = Array.from(
      { length: IMPORT_MAX_ROWS },
      (_, n) =>
        `hp,bulk-${n},HP Bulk ${n},/printer/hp/bulk-${n},${(100 + n / 100).toFixed(2)},,Printer ${n},/i.png`,
    );
    const csv = ["group,id,name,route,price,originalPrice,description,image", ...rows].join("\n");
    expect(Buffer.byteLength(csv)).toBeLessThan(IMPORT_MAX_BYTES);
    const started = performance.now();
    const result = await importProductCsv(database.db, csv, { mode: "import", admin: ADMIN });
    const created = performance.now() - started;
    expect(result).toMatchObject({ ok: true, imported: true, counts: { create: IMPORT_MAX_ROWS } });
    const updateStarted = performance.now();
    const updated = await importProductCsv(database.db, csv.replaceAll("Printer ", "Laser printer "), {
      mode: "import",
      admin: ADMIN,
    });
    const updateMs = performance.now() - updateStarted;
    expect(updated).toMatchObject({ ok: true, counts: { update: IMPORT_MAX_ROWS } });
    console.info(
      `${driver}: 5,000 rows created in ${Math.round(created)} ms, updated in ${Math.round(updateMs)} ms`,
    );
  }, 120_000);
});
