import { parseKeyImport } from "./key-import.server";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, brandContent, products } from "~db/schema";
import { seoForPath } from "~/modules/seo/seo.server";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, testEnv, useDemoStore } from "../../../tests/support/orders";
import { placeOrder, type OrdersContext } from "../orders/orders.server";
import { saveBrandContent, saveSeoRecord } from "./content.server";
import {
  createProduct,
  deleteProduct,
  importKeys,
  listProducts,
  productListQuery,
  updateProduct,
} from "./products.server";
import { brandContentFormSchema, productFormSchema } from "./schemas";

const ADMIN = "owner@example.com";
const form = (overrides: Record<string, string> = {}) =>
  productFormSchema.parse({
    groupKey: "Norton",
    externalId: "new-1",
    name: "Norton Test Suite",
    description: "A suite for tests.",
    price: "59.99",
    originalPrice: "79.99",
    categories: "best-seller, Top-Rated",
    img: "/placeholder/product/norton-test-suite.svg",
    route: "/antivirus/norton/test-suite",
    specifications: "Operating System: Windows 11\nMemory (RAM): 4 GB",
    ...overrides,
  });

describe.each(drivers)("the admin's catalogue and content tools on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  useDemoStore(driver, (store) => ({ database, ctx } = store));

  it("creates a product with prices in cents and ordered specifications, refusing a taken id or route", async () => {
    const created = await createProduct(database.db, form(), ADMIN);
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    const [row] = await database.db.select().from(products).where(eq(products.id, created.id));
    expect(row).toMatchObject({
      priceCents: 5999,
      originalPriceCents: 7999,
      categories: ["best-seller", "top-rated"],
    });
    expect(row!.specifications.map((spec) => spec.label)).toEqual(["Operating System", "Memory (RAM)"]);
    expect(
      await createProduct(
        database.db,
        form({ route: "/ANTIVIRUS/NORTON/TEST-SUITE", externalId: "new-2" }),
        ADMIN,
      ),
    ).toMatchObject({
      ok: false,
      errors: { route: "This address belongs to Norton Test Suite" },
    });
    expect(await createProduct(database.db, form({ route: "/antivirus/norton/other" }), ADMIN)).toMatchObject(
      { ok: false, errors: { externalId: expect.any(String) } },
    );
    expect(
      await createProduct(database.db, form({ groupKey: "Nope", externalId: "x", route: "/x/y" }), ADMIN),
    ).toMatchObject({ ok: false, errors: { groupKey: expect.any(String) } });
    expect(
      await updateProduct(database.db, created.id, form({ price: "49.99", originalPrice: "" }), ADMIN),
    ).toEqual({ ok: true, id: created.id });
    const listed = await listProducts(database.db, productListQuery.parse({ q: "test suite" }));
    expect(listed.rows.map((product) => product.name)).toEqual(["Norton Test Suite"]);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(created.id)));
    expect(audit.map((entry) => entry.action)).toEqual(["product.create", "product.update"]);
  });

  it("refuses bad product forms with a message per field", () => {
    const result = productFormSchema.safeParse({
      groupKey: "",
      price: "12.345",
      originalPrice: "1.00",
      img: "javascript:alert(1)",
      route: "no-slash",
      specifications: "nonsense",
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(
      expect.arrayContaining(["groupKey", "externalId", "name", "price", "img", "route", "specifications"]),
    );
    const huge = productFormSchema.safeParse({ price: "999999999999.99", originalPrice: "1000000" });
    expect(huge.error!.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ["price"], message: "The price can be at most 999999.99" }),
        expect.objectContaining({
          path: ["originalPrice"],
          message: "The original price can be at most 999999.99",
        }),
      ]),
    );
    const broken = productFormSchema.safeParse({ name: "Norton 360\r\nDeluxe" });
    expect(broken.error!.issues).toContainEqual(
      expect.objectContaining({ path: ["name"], message: "Keep it on one line: no line breaks or tabs" }),
    );
  });

  it("imports keys (pasted or CSV), skips duplicates, and deletes only products without keys", async () => {
    const [product] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/antivirus/norton/test-suite"));
    const parsed = parseKeyImport('key\n"AAAAA-11111"\nBBBBB-22222,first\n\nAAAAA-11111\n', {});
    if (!parsed.ok) throw new Error(parsed.message);
    const keys = parsed.value;
    expect(keys.map((entry) => (typeof entry === "string" ? entry : entry.key))).toEqual([
      "AAAAA-11111",
      "BBBBB-22222",
      "AAAAA-11111",
    ]);
    expect(await importKeys(ctx, product!.id, keys, ADMIN)).toMatchObject({
      added: 2,
      duplicates: 1,
      delivered: [],
    });
    expect(await deleteProduct(database.db, product!.id, ADMIN)).toMatchObject({ ok: false });
    const sold = await placeOrder(
      ctx,
      checkout({ cart: [{ groupKey: "Norton", id: "new-1", quantity: 1 }] }),
    );
    expect(sold).toMatchObject({ ok: true, status: "fulfilled" });
  });

  it("changes an SEO record and the page's title follows at once", async () => {
    const env = testEnv();
    const before = await seoForPath({ db: database.db, env }, "/about");
    const record = (await database.db.query.seoRecords.findFirst({
      where: (table, { eq: equals }) => equals(table.route, "/about"),
    }))!;
    expect(
      await saveSeoRecord(
        database.db,
        { route: "/about", title: "About the store, renewed", description: "d", keywords: "k" },
        ADMIN,
        record.id,
      ),
    ).toEqual({ ok: true });
    const after = await seoForPath({ db: database.db, env }, "/about");
    expect(before.title).not.toBe("About the store, renewed");
    expect(after.title).toBe("About the store, renewed");
    expect(
      await saveSeoRecord(
        database.db,
        { route: "/About", title: null, description: "", keywords: "" },
        ADMIN,
      ),
    ).toMatchObject({ ok: false, errors: { route: expect.any(String) } });
  });

  it("edits the shared Windows content once for all three Windows editions", async () => {
    const parsed = brandContentFormSchema.parse({
      title: "Microsoft Windows Support",
      bannerImg: "/placeholder/banner/windows.svg",
      logo: "/placeholder/logo/windows.svg",
      whyChoose: "Edited once, shown on every Windows page.",
      supportPhone: "+1 (212) 555-0150",
      supportEmail: "windows-support@example.com",
      website: "https://www.example.com/support/windows",
      benefits: [1, 2, 3].map((n) => ({
        title: `Benefit ${n}`,
        desc: "Good.",
        icon: "/placeholder/icon/check.svg",
      })),
      features: "One\nTwo",
      testimonials: "Great help | Sam P.\nQuick keys | Ana R.",
    });
    expect(await saveBrandContent(database.db, "Windows", parsed, ADMIN)).toBe(true);
    const [row] = await database.db.select().from(brandContent).where(eq(brandContent.key, "Windows"));
    expect(row).toMatchObject({
      whyChoose: "Edited once, shown on every Windows page.",
      features: ["One", "Two"],
      testimonials: [
        { quote: "Great help", author: "Sam P." },
        { quote: "Quick keys", author: "Ana R." },
      ],
    });
    expect(
      brandContentFormSchema.safeParse({ ...parsed, benefits: [], testimonials: "no author here" }).success,
    ).toBe(false);
  });
});
