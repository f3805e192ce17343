import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { licenceKeys, products } from "~db/schema";
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
});
