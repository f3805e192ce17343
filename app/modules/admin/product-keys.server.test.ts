import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { licenceKeys, products, productVariants } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { placeOrder, type OrdersContext } from "../orders/orders.server";
import { LOW_KEY_POOL } from "./dashboard.server";
import { importPoolKeys, keyPoolDetail, keyPoolQuery, listKeyPools } from "./product-keys.server";
import { createProduct } from "./products.server";
import { productFormSchema } from "./schemas";

const ADMIN = "owner@example.com";

describe.each(drivers)("licence key pools for the admin on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let emptyId: number;
  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    const created = await createProduct(
      database.db,
      productFormSchema.parse({
        groupKey: "Norton",
        externalId: "pool-test",
        name: "Norton Pool Test",
        description: "A product with no keys yet.",
        price: "10.00",
        img: "/placeholder/product/pool.svg",
        route: "/antivirus/norton/pool-test",
      }),
      ADMIN,
    );
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    emptyId = created.id;
  });

  it("lists software products only, with their counts, the empty and low pools first", async () => {
    const page = await listKeyPools(database.db, keyPoolQuery.parse({ pageSize: "100" }));
    expect(page.rows.length).toBeGreaterThan(10);
    expect(page.rows[0]).toMatchObject({ id: emptyId, available: 0, assigned: 0, low: true });
    const availability = page.rows.map((row) => row.available);
    expect(availability).toEqual([...availability].sort((a, b) => a - b));
    // Printers and routers have no pools.
    const [printer] = await database.db.select().from(products).where(eq(products.groupKey, "hp")).limit(1);
    expect(page.rows.some((row) => row.id === printer!.id)).toBe(false);
    expect(page.total).toBe(page.rows.length);

    const low = await listKeyPools(database.db, keyPoolQuery.parse({ low: "1", pageSize: "100" }));
    expect(low.rows.every((row) => row.available < LOW_KEY_POOL)).toBe(true);
    const found = await listKeyPools(database.db, keyPoolQuery.parse({ q: "POOL TEST" }));
    expect(found.rows.map((row) => row.name)).toEqual(["Norton Pool Test"]);
    const byName = await listKeyPools(
      database.db,
      keyPoolQuery.parse({ sort: "name", dir: "desc", pageSize: "5" }),
    );
    const names = byName.rows.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
  });

  it("imports keys into a pool, serves the orders that waited for them and shows only masked hints", async () => {
    const waiting = await placeOrder(
      ctx,
      checkout({ cart: [{ groupKey: "Norton", id: "pool-test", quantity: 2 }] }),
    );
    expect(waiting).toMatchObject({ ok: true, status: "paid" });
    expect(await keyPoolDetail(database.db, emptyId)).toMatchObject({ available: 0, waitingOrders: 1 });

    const result = await importPoolKeys(
      ctx,
      emptyId,
      ["POOL-AAAA-1111", "POOL-BBBB-2222", "POOL-CCCC-3333", "pool-aaaa-1111"],
      ADMIN,
    );
    expect(result).toMatchObject({ ok: true, added: 3, duplicates: 1, delivered: [expect.any(Number)] });

    const detail = await keyPoolDetail(database.db, emptyId);
    expect(detail).toMatchObject({
      available: 1,
      assigned: 2,
      waitingOrders: 0,
      product: { software: true },
    });
    expect(detail!.recent.map((key) => key.hint)).toEqual(["••••3333", "••••2222", "••••1111"]);
    expect(detail!.recent.filter((key) => key.orderNumber !== null)).toHaveLength(2);
    expect(JSON.stringify(detail)).not.toContain("POOL-");
  });

  it("refuses keys for a shipped product and for an unknown one", async () => {
    const [printer] = await database.db.select().from(products).where(eq(products.groupKey, "hp")).limit(1);
    expect(await importPoolKeys(ctx, printer!.id, ["PRINT-1234-5678"], ADMIN)).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await importPoolKeys(ctx, 999_999, ["NOPE-1234-5678"], ADMIN)).toMatchObject({
      ok: false,
      status: 404,
    });
    const stored = await database.db.select().from(licenceKeys).where(eq(licenceKeys.productId, printer!.id));
    expect(stored).toHaveLength(0);
    expect(await keyPoolDetail(database.db, 999_999)).toBeNull();
    expect((await keyPoolDetail(database.db, printer!.id))!.product.software).toBe(false);
  });

  it("takes a variant's keys into that variant's pool, and refuses keys of a product sold by variant without one", async () => {
    const [product] = await database.db
      .select()
      .from(products)
      .innerJoin(productVariants, eq(productVariants.productId, products.id))
      .where(eq(productVariants.sku, "BD-TS-3D-2Y"));
    const productId = product!.products.id;
    const before = await keyPoolDetail(database.db, productId);
    expect(before!.variants.map((variant) => variant.sku)).toEqual([
      "BD-TS-1D-1Y",
      "BD-TS-1D-2Y",
      "BD-TS-3D-1Y",
      "BD-TS-3D-2Y",
      "BD-TS-5D-1Y",
      "BD-TS-5D-2Y",
    ]);
    const availableOf = (detail: typeof before, sku: string) =>
      detail!.variants.find((variant) => variant.sku === sku)!.available;

    const without = await importPoolKeys(ctx, productId, ["VAR-NONE-0001"], ADMIN);
    expect(without).toEqual({
      ok: false,
      status: 400,
      error:
        "Bitdefender Total Security is sold by variant: choose the variant these keys are for (BD-TS-1D-1Y, BD-TS-1D-2Y, BD-TS-3D-1Y, BD-TS-3D-2Y, BD-TS-5D-1Y, BD-TS-5D-2Y)",
    });
    expect(await importPoolKeys(ctx, productId, ["VAR-NONE-0002"], ADMIN, "BD-TS-9D-1Y")).toMatchObject({
      ok: false,
      status: 400,
      error: expect.stringContaining("has no variant BD-TS-9D-1Y"),
    });
    const [other] = await database.db.select().from(products).where(eq(products.id, emptyId));
    expect(await importPoolKeys(ctx, other!.id, ["VAR-NONE-0003"], ADMIN, "BD-TS-3D-2Y")).toMatchObject({
      ok: false,
      status: 400,
      error: "Norton Pool Test has no variants: add its keys without one",
    });
    const refused = await database.db.select().from(licenceKeys).where(like(licenceKeys.keyHint, "%000_"));
    expect(refused.filter((key) => key.productId === productId || key.productId === emptyId)).toEqual([]);

    const added = await importPoolKeys(
      ctx,
      productId,
      ["VAR-3D2Y-0001", "VAR-3D2Y-0002"],
      ADMIN,
      "bd-ts-3d-2y",
    );
    expect(added).toMatchObject({ ok: true, added: 2, duplicates: 0 });
    const after = await keyPoolDetail(database.db, productId);
    expect(availableOf(after, "BD-TS-3D-2Y")).toBe(availableOf(before, "BD-TS-3D-2Y") + 2);
    expect(availableOf(after, "BD-TS-1D-1Y")).toBe(availableOf(before, "BD-TS-1D-1Y"));
    const variantIds = await database.db
      .select({ variant: productVariants.sku })
      .from(licenceKeys)
      .innerJoin(productVariants, eq(productVariants.id, licenceKeys.variantId))
      .where(eq(licenceKeys.keyHint, "••••0002"));
    expect(variantIds).toContainEqual({ variant: "BD-TS-3D-2Y" });
  });
});
