import { eq, sum } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orderLines, products } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { addShipment } from "~/modules/orders/fulfilment.server";
import { cancelOrder } from "~/modules/orders/lifecycle.server";
import { refundOrder } from "~/modules/orders/refunds.server";
import { orderForBuyer, type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import { priceCart } from "~/modules/cart/pricing.server";

const ADMIN = "owner@example.com";

describe.each(drivers)("stock of printers and routers on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let router: { id: number; groupKey: string; externalId: string; name: string };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    router = (
      await database.db.select().from(products).where(eq(products.route, "/router/tplink/archer-c80"))
    )[0]!;
  });

  const setStock = (stock: number | null, waitingOrders: boolean) =>
    database.db.update(products).set({ stock, waitingOrders }).where(eq(products.id, router.id));
  const stockNow = async () =>
    (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, router.id)))[0]!
      .stock;
  const reservedNow = async () =>
    Number(
      (
        await database.db
          .select({ n: sum(orderLines.stockReserved) })
          .from(orderLines)
          .where(eq(orderLines.productId, router.id))
      )[0]!.n ?? 0,
    );
  const order = (quantity: number, paymentMethod: "sandbox" | "bank-transfer" = "bank-transfer") =>
    placeOrder(
      ctx,
      checkout({ paymentMethod, cart: [{ groupKey: router.groupKey, id: router.externalId, quantity }] }),
    );

  it("never oversells: 20 orders at once for 5 routers, 5 placed and 15 told it is out of stock", async () => {
    await setStock(5, false);
    const before = await reservedNow();
    const results = await Promise.all(Array.from({ length: 20 }, () => order(1)));
    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const result of refused)
      expect(result).toMatchObject({
        ok: false,
        errors: {
          cart: `${router.name} is out of stock and cannot be ordered now: remove it from your cart.`,
        },
      });
    expect(await stockNow()).toBe(0);
    expect((await reservedNow()) - before).toBe(5);
  });

  it("refuses more than is left, and says how many can be had", async () => {
    await setStock(2, false);
    const result = await order(3);
    expect(result).toMatchObject({
      ok: false,
      errors: { cart: `Only 2 of ${router.name} can be ordered now: lower the quantity to 2 or fewer.` },
    });
    expect(await stockNow()).toBe(2);
    const priced = await priceCart(database.db, [
      { groupKey: router.groupKey, id: router.externalId, quantity: 3 },
    ]);
    expect(priced.lines[0]!.availability).toMatchObject({
      status: "unavailable",
      inStock: 2,
      maxQuantity: 2,
    });
  });

  it("gives the stock back when an unpaid order is cancelled, once", async () => {
    await setStock(3, false);
    const placed = await order(2);
    if (!placed.ok) throw new Error("not placed");
    expect(await stockNow()).toBe(1);
    await cancelOrder(ctx, placed.number, ADMIN);
    expect(await stockNow()).toBe(3);
    await expect(cancelOrder(ctx, placed.number, ADMIN)).rejects.toThrow();
    expect(await stockNow()).toBe(3);
    const events = await database.db
      .select({ type: orderEvents.type, message: orderEvents.message })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, placed.orderId));
    expect(events).toContainEqual({ type: "stock_released", message: "2 units back in stock" });
    // That is the store's bookkeeping: the buyer's history says the order is cancelled, not where its stock went.
    const buyer = await orderForBuyer(ctx, placed.number);
    expect(buyer!.events.map((event) => event.type)).toContain("cancelled");
    expect(buyer!.events.map((event) => event.type)).not.toContain("stock_released");
  });

  it("gives the stock back on a refund before shipment, and not after it", async () => {
    await setStock(4, false);
    const unshipped = await order(1, "sandbox");
    const shipped = await order(1, "sandbox");
    if (!unshipped.ok || !shipped.ok) throw new Error("not placed");
    expect(await stockNow()).toBe(2);
    await refundOrder(ctx, unshipped.number, { mode: "full" }, ADMIN);
    expect(await stockNow()).toBe(3);
    await addShipment(ctx, shipped.number, { carrier: "ups", trackingNumber: "1Z 999 AA1 0123" }, ADMIN);
    await refundOrder(ctx, shipped.number, { mode: "full" }, ADMIN);
    expect(await stockNow()).toBe(3);
  });

  it("takes a backorder beyond the stock when the product allows it, reserving only what there is", async () => {
    await setStock(1, true);
    const placed = await order(3);
    if (!placed.ok) throw new Error("not placed");
    expect(await stockNow()).toBe(0);
    const [line] = await database.db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId));
    expect(line!.stockReserved).toBe(1);
    await cancelOrder(ctx, placed.number, ADMIN);
    expect(await stockNow()).toBe(1);
  });

  it("leaves a product without a stock count alone", async () => {
    await setStock(null, true);
    const placed = await order(5);
    expect(placed.ok).toBe(true);
    expect(await stockNow()).toBeNull();
  });
});
