import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, licenceKeys, orderEvents, orders, outboxEmails, products } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { placeCheckout, useDemoStore } from "../../../tests/support/orders";
import { addLicenceKeys } from "../orders/licence-keys.server";
import { type OrdersContext } from "../orders/orders.server";
import { workQueue } from "./dashboard.server";
import { addShipment, deliverAwaitingKeys } from "../orders/fulfilment.server";
import { allowedActions } from "../orders/lifecycle";
import { cancelOrder, markOrderPaid, OrderActionError } from "../orders/lifecycle.server";
import { refundOrder } from "../orders/refunds.server";
import { adminOrder, listOrders, orderListQuery } from "./orders.server";

const ADMIN = "owner@example.com";

describe.each(drivers)("running orders from the admin area on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  const place = (overrides: Parameters<typeof placeCheckout>[1] = {}) => placeCheckout(ctx, overrides);
  const orderRow = async (number: number) =>
    (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;

  it("marks a bank-transfer order paid once, e-mails its keys and records who did it", async () => {
    const order = await place({ paymentMethod: "bank-transfer", email: "bank@example.com" });
    await markOrderPaid(ctx, order.number, ADMIN);
    expect((await orderRow(order.number)).status).toBe("fulfilled");
    await expect(markOrderPaid(ctx, order.number, ADMIN)).rejects.toThrow(OrderActionError);
    const receipt = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order.orderId), eq(outboxEmails.kind, "payment-receipt")));
    expect(receipt).toHaveLength(1);
    expect(receipt[0]!.text).toMatch(/DEMO-/);
    const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.orderId));
    expect(events.find((event) => event.type === "paid")!.actor).toBe(`admin:${ADMIN}`);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(order.number)));
    expect(audit).toMatchObject({
      actor: ADMIN,
      action: "order.mark_paid",
      before: { status: "pending_payment" },
      after: { status: "fulfilled" },
    });
  });

  it("ships a paid order with a tracking number, then it is complete", async () => {
    const order = await place({ cart: [{ groupKey: "hp", id: "1", quantity: 1 }] });
    expect(order.status).toBe("paid");
    await expect(
      addShipment(ctx, order.number, { carrier: "ups", trackingNumber: "<script>" }, ADMIN),
    ).rejects.toThrow(/tracking number/);
    await addShipment(ctx, order.number, { trackingNumber: "1Z 999 AA1 0123", carrier: "ups" }, ADMIN);
    const after = await orderRow(order.number);
    expect(after).toMatchObject({ status: "fulfilled", trackingNumber: "1Z 999 AA1 0123" });
    const mail = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order.orderId), eq(outboxEmails.kind, "shipment")));
    expect(mail[0]!.text).toContain("1Z 999 AA1 0123");
    await expect(
      addShipment(ctx, order.number, { carrier: "ups", trackingNumber: "AGAIN-1234" }, ADMIN),
    ).rejects.toThrow(OrderActionError);
  });

  it("cancels only unpaid orders and refunds only paid ones", async () => {
    const unpaid = await place({ paymentMethod: "bank-transfer" });
    const paid = await place();
    await expect(cancelOrder(ctx, paid.number, ADMIN)).rejects.toThrow(/refund it instead/);
    await expect(refundOrder(ctx, unpaid.number, { mode: "full" }, ADMIN)).rejects.toThrow(/not been paid/);
    await cancelOrder(ctx, unpaid.number, ADMIN);
    await refundOrder(ctx, paid.number, { mode: "full" }, ADMIN);
    expect((await orderRow(unpaid.number)).status).toBe("cancelled");
    // The customer hears of it, and is told not to send the transfer the confirmation asked for.
    const cancelled = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, unpaid.orderId), eq(outboxEmails.kind, "order-cancelled")));
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({
      to: "ada@example.com",
      subject: `Your order #${unpaid.number} is cancelled`,
    });
    expect(cancelled[0]!.text).toContain("Please do not send the bank transfer for it.");
    expect(await orderRow(paid.number)).toMatchObject({ status: "refunded", paymentStatus: "refunded" });
    await expect(markOrderPaid(ctx, unpaid.number, ADMIN)).rejects.toThrow(OrderActionError);
  });

  it("offers only the actions an order's state allows, and never marks a card order paid by hand", async () => {
    const bank = await place({ paymentMethod: "bank-transfer" });
    // A card order whose payment never came (Stripe is not configured in tests: the method is set directly).
    const card = await place({ paymentMethod: "bank-transfer" });
    await database.db.update(orders).set({ paymentMethod: "stripe" }).where(eq(orders.number, card.number));
    const printer = await place({ cart: [{ groupKey: "hp", id: "1", quantity: 1 }] });
    const actions = async (number: number) => {
      const view = (await adminOrder(database.db, number))!;
      return allowedActions(view.order, view.lines);
    };
    // No order here is held: approving and rejecting are never offered.
    const undecidable = { approve: false, reject: false };
    expect(await actions(bank.number)).toEqual({
      markPaid: true,
      ship: false,
      cancel: true,
      refund: false,
      ...undecidable,
    });
    expect(await actions(card.number)).toEqual({
      markPaid: false,
      ship: false,
      cancel: true,
      refund: false,
      ...undecidable,
    });
    expect(await actions(printer.number)).toEqual({
      markPaid: false,
      ship: true,
      cancel: false,
      refund: true,
      ...undecidable,
    });
    await expect(markOrderPaid(ctx, card.number, ADMIN)).rejects.toThrow(/Stripe confirms/);
    expect((await orderRow(card.number)).status).toBe("pending_payment");
    await addShipment(ctx, printer.number, { carrier: "ups", trackingNumber: "TRACK-0001" }, ADMIN);
    expect(await actions(printer.number)).toEqual({
      markPaid: false,
      ship: false,
      cancel: false,
      refund: true,
      ...undecidable,
    });
    expect(await adminOrder(database.db, 999_999)).toBeNull();
    // Nothing left waiting for payment (the dashboard test below counts those).
    await cancelOrder(ctx, bank.number, ADMIN);
    await cancelOrder(ctx, card.number, ADMIN);
  });

  it("delivers keys to orders that waited for them when the pool is refilled", async () => {
    const [product] = await database.db
      .select()
      .from(products)
      .where(and(eq(products.groupKey, "Webroot"), eq(products.externalId, "1")));
    await database.db
      .delete(licenceKeys)
      .where(and(eq(licenceKeys.productId, product!.id), isNull(licenceKeys.orderLineId)));
    const waiting = await place({ cart: [{ groupKey: "Webroot", id: "1", quantity: 2 }] });
    expect(await orderRow(waiting.number)).toMatchObject({ status: "paid", awaitingKeys: 2 });
    expect((await workQueue(database.db)).awaitingKeys).toBeGreaterThanOrEqual(1);
    expect((await workQueue(database.db)).lowKeyPools.map((pool) => pool.productId)).toContain(product!.id);

    await addLicenceKeys(database.db, ctx.cipher, product!.id, ["REFILL-AAAA-0001"]);
    // Each delivery is e-mailed at once, saying how many keys are still to come.
    expect(await deliverAwaitingKeys(ctx, product!.id)).toEqual([waiting.number]);
    expect(await orderRow(waiting.number)).toMatchObject({ status: "paid", awaitingKeys: 1 });
    await addLicenceKeys(database.db, ctx.cipher, product!.id, ["REFILL-AAAA-0002", "REFILL-AAAA-0003"]);
    expect(await deliverAwaitingKeys(ctx, product!.id)).toEqual([waiting.number]);
    expect(await orderRow(waiting.number)).toMatchObject({ status: "fulfilled", awaitingKeys: 0 });
    const mail = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, waiting.orderId), eq(outboxEmails.kind, "licence-keys")));
    expect(mail).toHaveLength(2);
    expect(mail[0]!.text).toContain("REFILL-AAAA-0001");
    expect(mail[0]!.text).toContain("1 more licence key is on the way");
    expect(mail[1]!.text).toContain("REFILL-AAAA-0002");
    expect(mail[1]!.text).not.toContain("REFILL-AAAA-0001");
    expect(mail[1]!.text).toContain("That completes the licence keys");
    const history = await database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, waiting.orderId), eq(orderEvents.type, "keys_delivered")));
    expect(history.map((event) => event.message)).toEqual([
      "1 licence key e-mailed; 1 still to follow",
      "1 licence key e-mailed",
    ]);
    // The admin's view shows only hints of the keys.
    const view = await adminOrder(database.db, waiting.number);
    expect(view!.lines[0]!.keyHints).toEqual(["••••0001", "••••0002"]);
    expect(JSON.stringify(view)).not.toContain("REFILL-AAAA");
  });

  it("lists orders page by page, searchable by number or e-mail and sortable", async () => {
    for (let i = 0; i < 3; i++) await place({ email: `lister${i}@example.com` });
    const all = await listOrders(database.db, orderListQuery.parse({ pageSize: "5" }));
    expect(all.rows).toHaveLength(5);
    expect(all.total).toBeGreaterThan(5);
    const page2 = await listOrders(database.db, orderListQuery.parse({ pageSize: "5", page: "2" }));
    expect(page2.rows[0]!.number).not.toBe(all.rows[0]!.number);
    const byEmail = await listOrders(database.db, orderListQuery.parse({ q: "LISTER1" }));
    expect(byEmail.rows.map((row) => row.email)).toEqual(["lister1@example.com"]);
    const byNumber = await listOrders(
      database.db,
      orderListQuery.parse({ q: `#${byEmail.rows[0]!.number}` }),
    );
    expect(byNumber.rows).toHaveLength(1);
    const ascending = await listOrders(
      database.db,
      orderListQuery.parse({ sort: "number", dir: "asc", pageSize: "100" }),
    );
    const numbers = ascending.rows.map((row) => row.number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // Nonsense parameters fall back to defaults instead of failing.
    expect(
      orderListQuery.parse({ sort: "drop table", page: "-3", pageSize: "1e9", status: "x" }),
    ).toMatchObject({ sort: "created", page: 1, pageSize: 25 });
    expect((await listOrders(database.db, orderListQuery.parse({ q: "%_\\" }))).rows).toEqual([]);
  });

  it("has no order awaiting payment once every one is paid or cancelled", async () => {
    const queue = await workQueue(database.db);
    expect(queue.awaitingPayment).toBe(0);
  });

  it("counts the e-mails that failed in the work queue", async () => {
    const before = (await workQueue(database.db)).failedEmails;
    await database.db.insert(outboxEmails).values([
      {
        kind: "order-confirmation",
        to: "a@example.com",
        subject: "s",
        text: "t",
        html: "h",
        status: "failed",
      },
      { kind: "order-confirmation", to: "b@example.com", subject: "s", text: "t", html: "h", status: "sent" },
    ]);
    expect((await workQueue(database.db)).failedEmails).toBe(before + 1);
  });
});
