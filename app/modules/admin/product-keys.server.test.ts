import { and, eq, inArray, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, licenceKeys, orders, products, productVariants } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { placeOrder, type OrdersContext } from "../orders/orders.server";
import { adminOrderView } from "../orders/order-view";
import { keyEconomics, LOW_KEY_POOL } from "./dashboard.server";
import { parseKeyImport } from "./key-import.server";
import { adminOrder } from "./orders.server";
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

  it("keeps each key's supplier, cost and batch, values the unsold keys, and gives each order its margin over its keys' cost", async () => {
    const created = await createProduct(
      database.db,
      productFormSchema.parse({
        groupKey: "Norton",
        externalId: "margin-test",
        name: "Norton Margin Test",
        description: "Keys bought at a known cost.",
        price: "25.00",
        img: "/placeholder/product/margin.svg",
        route: "/antivirus/norton/margin-test",
      }),
      ADMIN,
    );
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    const economicsBefore = await keyEconomics(database.db);
    const file = parseKeyImport(
      "key,cost,supplier,batch\nMARGIN-0001,12.00,,B-7\nMARGIN-0002,7.5,Other Keys Ltd,\nMARGIN-0003,,,\n",
      { supplier: "Acme Keys", batch: "B-8" },
    );
    if (!file.ok) throw new Error(file.message);
    expect(await importPoolKeys(ctx, created.id, file.value, ADMIN)).toMatchObject({ ok: true, added: 3 });
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "keys.import"), eq(auditLog.entityId, String(created.id))));
    expect(audit!.after).toMatchObject({
      added: 3,
      suppliers: ["Acme Keys", "Other Keys Ltd"],
      batches: ["B-7", "B-8"],
    });
    expect(JSON.stringify(audit)).not.toContain("MARGIN-000");

    const pool = (await keyPoolDetail(database.db, created.id))!;
    expect(pool).toMatchObject({ available: 3, valueCents: 1950, uncosted: 1 });
    expect(
      pool.recent.map(({ hint, supplier, costCents, batch }) => ({ hint, supplier, costCents, batch })),
    ).toEqual([
      { hint: "••••0003", supplier: "Acme Keys", costCents: null, batch: "B-8" },
      { hint: "••••0002", supplier: "Other Keys Ltd", costCents: 750, batch: "B-8" },
      { hint: "••••0001", supplier: "Acme Keys", costCents: 1200, batch: "B-7" },
    ]);
    expect((await keyEconomics(database.db)).pool).toEqual({
      valueCents: economicsBefore.pool.valueCents + 1950,
      uncosted: economicsBefore.pool.uncosted + 1,
    });

    // Two keys at $12.00 and $7.50 on a line of 2 x $25.00 (no tax for this address): $30.50 earned.
    const cart = [{ groupKey: "Norton", id: "margin-test", quantity: 2 }];
    const costed = await placeOrder(ctx, checkout({ email: "margin@example.com", cart }));
    if (!costed.ok) throw new Error(JSON.stringify(costed.errors));
    const view = async (number: number) => {
      const order = (await adminOrder(database.db, number))!;
      return adminOrderView({ ...order, documents: [] });
    };
    const first = await view(costed.number);
    expect(first.lines[0]!.margin).toEqual({ known: true, costCents: 1950, marginCents: 3050 });
    expect(first.margin).toEqual({ known: true, costCents: 1950, marginCents: 3050 });
    expect((await keyPoolDetail(database.db, created.id))!).toMatchObject({ valueCents: 0, uncosted: 1 });

    // The last key has no cost: its order's margin is not known, not priced as if the key were free.
    const uncosted = await placeOrder(
      ctx,
      checkout({ email: "margin@example.com", cart: [{ ...cart[0]!, quantity: 1 }] }),
    );
    if (!uncosted.ok) throw new Error(JSON.stringify(uncosted.errors));
    expect((await view(uncosted.number)).margin).toEqual({ known: false, uncostedKeys: 1 });

    // The dashboard counts paid orders that moved money: these sandbox orders are tests until marked real here.
    await database.db
      .update(orders)
      .set({ isTest: false })
      .where(inArray(orders.number, [costed.number, uncosted.number]));
    const month = (await keyEconomics(database.db)).month;
    expect(month.revenueCents - economicsBefore.month.revenueCents).toBe(5000);
    expect(month.costCents - economicsBefore.month.costCents).toBe(1950);
    expect(month.marginCents - economicsBefore.month.marginCents).toBe(3050);
    expect(month.uncostedLines - economicsBefore.month.uncostedLines).toBe(1);
  });

  it("refuses an import whose file or form says something wrong, naming the row, and adds nothing", async () => {
    const [product] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/antivirus/norton/pool-test"));
    for (const [text, fields, message] of [
      [
        "key,cots\nBAD-ROW-0001,5\n",
        {},
        'The file has a column "cots" the import does not know: its columns are key, supplier, cost and batch',
      ],
      [
        "key,cost\nBAD-ROW-0001,5\nBAD-ROW-0002,five\n",
        {},
        'Row 3: the cost "five" is not an amount, like 12.50',
      ],
      ["key,cost\nBAD-ROW-0001,5\n,1\n", {}, "Row 3: the key is empty"],
      [
        "key,supplier\nBAD-ROW-0001," + "x".repeat(101) + "\n",
        {},
        "Row 2: the supplier has at most 100 characters",
      ],
      ["BAD-ROW-0001\n", { cost: "-3" }, 'The cost "-3" is not an amount, like 12.50'],
      ["BAD-ROW-0001\n", { cost: "2000000" }, "A key's cost can be at most $1,000,000"],
      ["BAD-ROW-0001\nABC\n", {}, "Key 2: each key must have at least 5 characters"],
      ["key,cost\n", {}, "The file has a header but no keys under it"],
    ] as const) {
      expect(parseKeyImport(text, fields)).toEqual({ ok: false, message });
    }
    // The form's values reach every key of a bare list; "$" before a cost is read as the cost.
    expect(parseKeyImport("GOOD-ROW-0001\n", { supplier: " Acme ", cost: "$3.10", batch: "" })).toEqual({
      ok: true,
      value: [{ key: "GOOD-ROW-0001", supplier: "Acme", costCents: 310, batch: null }],
    });
    const keys = await database.db.select().from(licenceKeys).where(like(licenceKeys.keyHint, "%ROW%"));
    expect(keys.filter((key) => key.productId === product!.id)).toEqual([]);
  });
});
