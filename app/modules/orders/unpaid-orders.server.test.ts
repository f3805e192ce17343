import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orders, outboxEmails, products, promotions } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { freshClientAddress } from "../../../tests/support/store-process";
import { cancelOrder } from "./lifecycle.server";
import { type OrdersContext, placeOrder } from "./orders.server";
import { saveSettings } from "./settings.server";
import { checkoutClosesAt } from "./stripe.server";
import { placeOrderWithinLimits } from "./unpaid-order-limits.server";
import { expireUnpaidOrders } from "./unpaid-orders.server";

const HOUR = 3_600_000;

describe.each(drivers)("unpaid orders on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let router: typeof products.$inferSelect;

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    router = (
      await database.db.select().from(products).where(eq(products.route, "/router/tplink/archer-c80"))
    )[0]!;
  });

  const stockNow = async () =>
    (await database.db.select({ stock: products.stock }).from(products).where(eq(products.id, router.id)))[0]!
      .stock;
  const usesOf = async (id: number) =>
    (await database.db.select({ uses: promotions.uses }).from(promotions).where(eq(promotions.id, id)))[0]!
      .uses;
  const orderOf = async (number: number) =>
    (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  /** Moves an order's placing time `hours` into the past. */
  const age = (number: number, hours: number) =>
    database.db
      .update(orders)
      .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
      .where(eq(orders.number, number));
  const placed = async (input: Parameters<typeof checkout>[0]) => {
    const result = await placeOrder(ctx, checkout(input));
    if (!result.ok) throw new Error(`not placed: ${JSON.stringify(result.errors)}`);
    return result;
  };

  it("an unpaid bank-transfer order expires after the setting's hours: stock and code use given back once, the buyer told", async () => {
    await database.db
      .update(products)
      .set({ stock: 3, waitingOrders: false })
      .where(eq(products.id, router.id));
    const [code] = await database.db
      .insert(promotions)
      .values({ code: "TWO-USES", kind: "percent", percentBasisPoints: 1000, usageLimit: 2 })
      .returning();
    const order = await placed({
      paymentMethod: "bank-transfer",
      email: "late.payer@example.com",
      discountCode: "TWO-USES",
      cart: [{ groupKey: router.groupKey, id: router.externalId, quantity: 2 }],
    });
    expect([await stockNow(), await usesOf(code!.id)]).toEqual([1, 1]);

    // 71 hours old: still within the default 72.
    await age(order.number, 71);
    expect(await expireUnpaidOrders(ctx)).toEqual([]);
    expect((await orderOf(order.number)).status).toBe("pending_payment");

    await age(order.number, 73);
    // Two processes' passes at the same moment expire it once.
    const passes = await Promise.all([expireUnpaidOrders(ctx), expireUnpaidOrders(ctx)]);
    expect(passes.flat()).toEqual([order.number]);
    expect(await expireUnpaidOrders(ctx)).toEqual([]);

    const after = await orderOf(order.number);
    expect(after).toMatchObject({ status: "cancelled", cancelReason: "Expired: not paid within 72 hours" });
    expect([await stockNow(), await usesOf(code!.id)]).toEqual([3, 0]);
    const events = await database.db
      .select({ type: orderEvents.type, actor: orderEvents.actor, message: orderEvents.message })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.orderId));
    expect(events.filter((event) => event.actor === "system").map((event) => event.type)).toEqual([
      "expired",
      "stock_released",
      "code_released",
    ]);
    const mails = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order.orderId), eq(outboxEmails.kind, "order-expired")));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("late.payer@example.com");
    expect(mails[0]!.subject).toBe(`Your order #${order.number} has expired`);
    expect(mails[0]!.text).toContain("within 72 hours of placing it");
    expect(mails[0]!.text).toContain("Please do not send the bank transfer for it.");

    // The store cannot cancel it again, and says why.
    await expect(cancelOrder(ctx, order.number, "owner@example.com")).rejects.toThrow(
      `Order #${order.number} is already cancelled`,
    );
    await database.db
      .update(products)
      .set({ stock: null, waitingOrders: true })
      .where(eq(products.id, router.id));
  });

  it("follows the owner's hours, gives card checkouts their own, and never touches a paid order", async () => {
    await saveSettings(database.db, { unpaidBankTransferHours: 5, unpaidCardHours: 1 });
    try {
      const transfer = await placed({ paymentMethod: "bank-transfer" });
      const paid = await placed({ paymentMethod: "sandbox" });
      // A card order as Stripe leaves it while its checkout page is open.
      const card = await placed({ paymentMethod: "bank-transfer" });
      await database.db.update(orders).set({ paymentMethod: "stripe" }).where(eq(orders.number, card.number));
      await age(transfer.number, 4);
      await age(paid.number, 500);
      await age(card.number, 2);
      expect(await expireUnpaidOrders(ctx)).toEqual([card.number]);
      expect((await orderOf(card.number)).cancelReason).toBe("Expired: not paid within 1 hour");
      await age(transfer.number, 6);
      expect(await expireUnpaidOrders(ctx)).toEqual([transfer.number]);
      expect((await orderOf(paid.number)).status).toBe("fulfilled");
    } finally {
      await saveSettings(database.db, { unpaidBankTransferHours: 72, unpaidCardHours: 2 });
    }
  });

  it("an order cancelled by the store says so, for the owner and the buyer", async () => {
    const order = await placed({ paymentMethod: "bank-transfer" });
    await cancelOrder(ctx, order.number, "owner@example.com");
    expect(await orderOf(order.number)).toMatchObject({
      status: "cancelled",
      cancelReason: "Cancelled by the store",
    });
  });

  it("limits unpaid orders per client address and per e-mail address; orders paid at once do not count", async () => {
    const client = freshClientAddress();
    const place = (input: Parameters<typeof checkout>[0], from = client) =>
      placeOrderWithinLimits(ctx, checkout(input), null, from);
    // Paid at once: as many as a shopper likes.
    for (let n = 0; n < 12; n++)
      expect(await place({ paymentMethod: "sandbox", email: `paid.${n}@example.com` })).toMatchObject({
        ok: true,
      });
    // A refused order (nothing in stock to buy) does not count either.
    expect(await place({ paymentMethod: "bank-transfer", cart: [] })).toMatchObject({ ok: false });
    // Ten unpaid orders from one client at once, each for another address: ten placed, then refused.
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        place({ paymentMethod: "bank-transfer", email: `flood.${n}@example.com` }),
      ),
    );
    expect(burst.filter((result) => result.ok)).toHaveLength(10);
    const refused = burst.filter((result) => !result.ok);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({
      ok: false,
      limited: true,
      message: expect.stringMatching(
        /^You have placed several unpaid orders in a short time\. Pay for those first, or wait (an hour|\d+ minutes) before placing another\.$/,
      ),
    });
    expect((refused[0] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    // Over the limit, an order paid as it is placed still goes through.
    expect(await place({ paymentMethod: "sandbox" })).toMatchObject({ ok: true, paymentMethod: "sandbox" });

    // One e-mail address from many clients: five unpaid orders, then refused.
    const victim = `victim.${Date.now()}@example.com`;
    const results = [];
    for (let n = 0; n < 6; n++)
      results.push(await place({ paymentMethod: "bank-transfer", email: victim }, freshClientAddress()));
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true, true, false]);
    // The same order sent twice is one order, counted once.
    const input = checkout({ paymentMethod: "bank-transfer", email: `twice.${Date.now()}@example.com` });
    const other = freshClientAddress();
    for (let n = 0; n < 6; n++)
      expect(await placeOrderWithinLimits(ctx, input, null, other)).toMatchObject({ ok: true });
  });
});

describe("when Stripe closes a card order's checkout page", () => {
  const placedAt = new Date("2026-05-01T10:00:00Z");
  it("five minutes before the order expires unpaid", () => {
    expect(checkoutClosesAt(placedAt, 2, placedAt)).toBe((placedAt.getTime() + 2 * HOUR - 5 * 60_000) / 1000);
  });
  it("never later than Stripe's 24 hours, and not at all when under Stripe's 30 minutes remain", () => {
    expect(checkoutClosesAt(placedAt, 24, placedAt)).toBe(
      (placedAt.getTime() + 24 * HOUR - 5 * 60_000) / 1000,
    );
    // The database's clock a little ahead of this server's: still within Stripe's limit.
    const serverNow = new Date(placedAt.getTime() - 10 * 60_000);
    expect(checkoutClosesAt(placedAt, 24, serverNow)).toBe((serverNow.getTime() + 24 * HOUR - 60_000) / 1000);
    expect(checkoutClosesAt(placedAt, 1, new Date(placedAt.getTime() + 30 * 60_000))).toBeNull();
  });
});
