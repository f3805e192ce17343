import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, licenceKeys, orderLines, orderRefunds, orders, outboxEmails } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { placeCheckout, useDemoStore } from "../../../tests/support/orders";
import { resendKeys } from "../orders/lookup.server";
import { type OrdersContext, orderForBuyer } from "../orders/orders.server";
import { addShipment } from "../orders/fulfilment.server";
import { allowedActions } from "../orders/lifecycle";
import { OrderActionError } from "../orders/lifecycle.server";
import { buyerOrderView } from "../orders/order-view";
import { refundOrder } from "../orders/refunds.server";
import { addOrderNote, adminOrder, setCustomerNote } from "./orders.server";

const ADMIN = "owner@example.com";

describe.each(drivers)("an order's life after payment on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  const place = (overrides: Parameters<typeof placeCheckout>[1] = {}) => placeCheckout(ctx, overrides);
  /** The order as the buyer's page shows it. */
  const buyerView = async (number: number) =>
    buyerOrderView({ ...(await orderForBuyer(ctx, number))!, documents: [] });
  const orderRow = async (number: number) =>
    (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  const linesOf = async (orderId: number) =>
    database.db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(orderLines.id);
  const mails = async (orderId: number, kind: string) =>
    database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, orderId), eq(outboxEmails.kind, kind)))
      .orderBy(outboxEmails.id);

  it("refunds one software line: its amount, its keys revoked and hidden from the buyer, an e-mail", async () => {
    const order = await place({
      email: "line-refund@example.com",
      cart: [
        { groupKey: "Norton", id: "1", quantity: 1 },
        { groupKey: "McAfee", id: "1", quantity: 2 },
      ],
    });
    const [norton, mcafee] = await linesOf(order.orderId);
    const before = await orderForBuyer(ctx, order.number);
    expect(before!.lines[1]!.keys).toHaveLength(2);

    await refundOrder(ctx, order.number, { mode: "line", lineId: mcafee!.id, reason: "Bought twice" }, ADMIN);
    const row = await orderRow(order.number);
    expect(row).toMatchObject({
      status: "fulfilled",
      paymentStatus: "partially_refunded",
      refundedCents: mcafee!.lineTotalCents,
    });
    const keys = await database.db.select().from(licenceKeys).where(eq(licenceKeys.orderLineId, mcafee!.id));
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => key.revokedAt !== null)).toBe(true);
    const after = await buyerView(order.number);
    expect(after.lines[1]).toMatchObject({ keys: [], state: "refunded" });
    expect(after.lines[0]).toMatchObject({ state: "delivered keys" });
    expect(after.lines[0]!.keys).toHaveLength(1);
    const view = await adminOrder(database.db, order.number);
    expect(view!.lines[1]!.revokedHints).toHaveLength(2);
    expect(view!.lines[1]!.keyHints).toEqual([]);
    const [mail] = await mails(order.orderId, "refund");
    expect(mail!.to).toBe("line-refund@example.com");
    expect(mail!.text).toContain("Reason: Bought twice");
    expect(mail!.text).toContain(`2 × ${mcafee!.name}`);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(order.number)), eq(auditLog.action, "order.refund")));
    expect(audit!.after).toMatchObject({ amountCents: mcafee!.lineTotalCents, kind: "line" });
    // The same line cannot be refunded twice; the last open line takes the rest of the order with it.
    await expect(refundOrder(ctx, order.number, { mode: "line", lineId: mcafee!.id }, ADMIN)).rejects.toThrow(
      /refunded already/,
    );
    await refundOrder(ctx, order.number, { mode: "line", lineId: norton!.id }, ADMIN);
    expect(await orderRow(order.number)).toMatchObject({
      status: "refunded",
      paymentStatus: "refunded",
      refundedCents: row.totalCents,
    });
    await expect(refundOrder(ctx, order.number, { mode: "full" }, ADMIN)).rejects.toThrow(
      /already refunded in full/,
    );
  });

  it("refunds amounts up to what was paid less earlier refunds, then the order is refunded", async () => {
    const order = await place({ email: "amounts@example.com" });
    const total = (await orderRow(order.number)).totalCents;
    for (const bad of [0, -5, 1.5]) {
      await expect(
        refundOrder(ctx, order.number, { mode: "amount", amountCents: bad }, ADMIN),
      ).rejects.toThrow(OrderActionError);
    }
    await expect(
      refundOrder(ctx, order.number, { mode: "amount", amountCents: total + 1 }, ADMIN),
    ).rejects.toThrow(/at most/);
    await refundOrder(ctx, order.number, { mode: "amount", amountCents: 1000 }, ADMIN);
    expect(await orderRow(order.number)).toMatchObject({
      status: "fulfilled",
      paymentStatus: "partially_refunded",
      refundedCents: 1000,
    });
    // Keys stay with the buyer after a partial amount.
    expect((await orderForBuyer(ctx, order.number))!.lines[0]!.keys).toHaveLength(1);
    await expect(
      refundOrder(ctx, order.number, { mode: "amount", amountCents: total - 999 }, ADMIN),
    ).rejects.toThrow(/at most/);
    await refundOrder(ctx, order.number, { mode: "amount", amountCents: total - 1000 }, ADMIN);
    expect(await orderRow(order.number)).toMatchObject({ status: "refunded", refundedCents: total });
    expect((await orderForBuyer(ctx, order.number))!.lines[0]!.keys).toEqual([]);
    const refunds = await database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, order.orderId));
    expect(refunds.map((refund) => refund.amountCents)).toEqual([1000, total - 1000]);
    expect(await mails(order.orderId, "refund")).toHaveLength(2);
  });

  it("refuses refunds of unpaid orders, and of card orders while Stripe is not configured, writing nothing", async () => {
    const unpaid = await place({ paymentMethod: "bank-transfer" });
    await expect(refundOrder(ctx, unpaid.number, { mode: "full" }, ADMIN)).rejects.toThrow(/not been paid/);
    const card = await place({ email: "card@example.com" });
    await database.db
      .update(orders)
      .set({ paymentMethod: "stripe", paymentReference: "cs_test_1" })
      .where(eq(orders.number, card.number));
    await expect(refundOrder(ctx, card.number, { mode: "full" }, ADMIN)).rejects.toThrow(
      /Stripe did not refund the payment: Stripe is not configured/,
    );
    expect(await orderRow(card.number)).toMatchObject({ status: "fulfilled", refundedCents: 0 });
    expect(await mails(card.orderId, "refund")).toEqual([]);
  });

  it("ships a two-line order line by line: complete only when every line has shipped", async () => {
    const order = await place({
      email: "two-parcels@example.com",
      cart: [
        { groupKey: "hp", id: "1", quantity: 1 },
        { groupKey: "netgear", id: "1", quantity: 1 },
      ],
    });
    const [printer, router] = await linesOf(order.orderId);
    await addShipment(
      ctx,
      order.number,
      { trackingNumber: "1Z 999", carrier: "ups", lineId: printer!.id },
      ADMIN,
    );
    expect((await orderRow(order.number)).status).toBe("paid");
    let { lines } = await buyerView(order.number);
    expect(lines.map((line) => line.state)).toEqual(["shipped", "awaiting shipment"]);
    expect(lines[0]!.shipment).toEqual({
      carrier: "UPS",
      trackingNumber: "1Z 999",
      link: "https://www.ups.com/track?tracknum=1Z999",
    });
    const [first] = await mails(order.orderId, "shipment");
    expect(first!.text).toContain("https://www.ups.com/track?tracknum=1Z999");
    expect(first!.text).toContain("1 more item ships separately");
    // The shipped line cannot ship again; a bad link is refused.
    await expect(
      addShipment(
        ctx,
        order.number,
        { carrier: "ups", trackingNumber: "AGAIN-1", lineId: printer!.id },
        ADMIN,
      ),
    ).rejects.toThrow(/shipped already/);
    await expect(
      addShipment(
        ctx,
        order.number,
        {
          trackingNumber: "TRACK-2",
          carrier: "other",
          otherCarrier: "Parcelforce",
          trackingUrl: "javascript:alert(1)",
        },
        ADMIN,
      ),
    ).rejects.toThrow(/https:\/\//);
    // The customer follows the link from an e-mail: a plain http:// page is refused like any other.
    await expect(
      addShipment(
        ctx,
        order.number,
        {
          trackingNumber: "TRACK-2",
          carrier: "other",
          otherCarrier: "Parcelforce",
          trackingUrl: "http://track.example.com/TRACK-2",
        },
        ADMIN,
      ),
    ).rejects.toThrow(/starting with https:\/\//);
    // Another carrier needs its name: "Other carrier" tells the customer nothing.
    await expect(
      addShipment(
        ctx,
        order.number,
        { trackingNumber: "TRACK-2", carrier: "other", trackingUrl: "https://track.example.com/TRACK-2" },
        ADMIN,
      ),
    ).rejects.toThrow("Enter the carrier's name");
    await addShipment(
      ctx,
      order.number,
      {
        trackingNumber: "PARCEL-2",
        carrier: "other",
        otherCarrier: " Parcelforce ",
        trackingUrl: "https://track.example.com/PARCEL-2",
        lineId: router!.id,
      },
      ADMIN,
    );
    expect((await orderRow(order.number)).status).toBe("fulfilled");
    ({ lines } = await buyerView(order.number));
    expect(lines.map((line) => line.state)).toEqual(["shipped", "shipped"]);
    expect(lines[1]!.shipment!.link).toBe("https://track.example.com/PARCEL-2");
    expect(lines[1]!.shipment!.carrier).toBe("Parcelforce");
    const second = (await mails(order.orderId, "shipment")).at(-1)!;
    expect(second.text).toContain("Carrier: Parcelforce");
    const view = await adminOrder(database.db, order.number);
    expect(allowedActions(view!.order, view!.lines).ship).toBe(false);
  });

  it("refunding the only line still to ship completes the order", async () => {
    const order = await place({
      cart: [
        { groupKey: "hp", id: "1", quantity: 1 },
        { groupKey: "netgear", id: "1", quantity: 1 },
      ],
    });
    const [printer, router] = await linesOf(order.orderId);
    await addShipment(
      ctx,
      order.number,
      { carrier: "ups", trackingNumber: "1Z 12345", lineId: printer!.id },
      ADMIN,
    );
    await refundOrder(ctx, order.number, { mode: "line", lineId: router!.id }, ADMIN);
    expect(await orderRow(order.number)).toMatchObject({
      status: "fulfilled",
      refundedCents: router!.lineTotalCents,
    });
    await expect(
      addShipment(
        ctx,
        order.number,
        { carrier: "ups", trackingNumber: "1Z 67890", lineId: router!.id },
        ADMIN,
      ),
    ).rejects.toThrow(OrderActionError);
  });

  it("keeps internal notes from the buyer and shows the customer note; both audited", async () => {
    const order = await place();
    await addOrderNote(database.db, order.number, "Called the customer about the invoice", ADMIN);
    await setCustomerNote(database.db, order.number, "Your invoice is attached to the e-mail.", ADMIN);
    await expect(addOrderNote(database.db, order.number, "   ", ADMIN)).rejects.toThrow();
    const view = await adminOrder(database.db, order.number);
    expect(view!.notes.map((note) => note.body)).toEqual(["Called the customer about the invoice"]);
    const buyer = await orderForBuyer(ctx, order.number);
    expect(JSON.stringify(buyer)).not.toContain("Called the customer");
    expect(buyer!.order.customerNote).toBe("Your invoice is attached to the e-mail.");
    const actions = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, String(order.number)));
    expect(actions.map((row) => row.action).sort()).toEqual(["order.customer_note", "order.note"]);
  });

  it("e-mails the buyer's keys again, three times an hour per order, then 429", async () => {
    const order = await place({ email: "again@example.com" });
    for (let i = 0; i < 3; i++) {
      expect(await resendKeys(ctx, `10.0.0.${i}`, order.number)).toEqual({
        ok: true,
        sentTo: "again@example.com",
      });
    }
    const refused = await resendKeys(ctx, "10.0.0.9", order.number);
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(refused.ok ? "" : refused.message).toMatch(/Too many attempts. Please wait/);
    const sent = await mails(order.orderId, "licence-keys-again");
    expect(sent).toHaveLength(3);
    expect(sent[0]!.text).toMatch(/Norton/);
    // An order without keys has nothing to send.
    const unpaid = await place({ paymentMethod: "bank-transfer" });
    expect(await resendKeys(ctx, "10.0.1.1", unpaid.number)).toMatchObject({ ok: false, status: 404 });
  });
});
