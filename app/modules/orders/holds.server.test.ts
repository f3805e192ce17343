import { and, eq, inArray, isNull } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  auditLog,
  invoices,
  licenceKeys,
  orderEvents,
  orderLines,
  orderRefunds,
  orders,
  outboxEmails,
  products,
} from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, ordersTestContext, testEnv, useDemoStore } from "../../../tests/support/orders";
import { type PaymentSignals } from "./hold-rules.server";
import { addLicenceKeys } from "./licence-keys.server";
import { approveHeldOrder, rejectHeldOrder } from "./holds.server";
import { OrderActionError } from "./lifecycle.server";
import { buyerOrderView } from "./order-view";
import { markPaid, orderForBuyer, type OrdersContext, placeOrder } from "./orders.server";
import { saveSettings, type StoreSettings } from "./settings.server";
import { signalsOfCharge } from "./stripe.server";

const ADMIN = "owner@example.com";

const OFF: Partial<StoreSettings> = {
  holdsEnabled: false,
  holdFirstOrderAboveCents: 0,
  holdOrdersPerHour: 0,
  holdOnRadarRisk: true,
  holdCheckHours: 12,
};

describe.each(drivers)("holding risky orders on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeEach(async () => {
    await saveSettings(database.db, OFF);
  });
  beforeAll(async () => {
    // Enough keys for every order the tests place: a shortage would read as an order waiting for keys.
    const [norton] = await database.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.groupKey, "Norton"), eq(products.externalId, "1")));
    await addLicenceKeys(
      database.db,
      ctx.cipher,
      norton!.id,
      Array.from({ length: 60 }, (_, index) => `HOLDS-${driver}-${String(index).padStart(4, "0")}`),
    );
  });

  const holdWhen = (rules: Partial<StoreSettings>) =>
    saveSettings(database.db, { ...OFF, holdsEnabled: true, holdOnRadarRisk: false, ...rules });
  let emails = 0;
  /** An address no order has used yet. */
  const freshEmail = () => `holds-${driver}-${++emails}@example.com`;
  const place = async (overrides: Parameters<typeof checkout>[0] = {}, client: string | null = null) => {
    const result = await placeOrder(ctx, checkout({ email: freshEmail(), ...overrides }), null, client);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result;
  };
  const row = async (number: number) =>
    (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;
  const keysOf = async (orderId: number) =>
    database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, orderId));
  const mails = async (orderId: number, kind: string) =>
    database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, orderId), eq(outboxEmails.kind, kind)));
  const audits = async (number: number, action: string) =>
    database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(number)), eq(auditLog.action, action)));

  it("holds an address's first order above the amount, but not one below it nor a returning buyer's", async () => {
    const probe = await place();
    const total = (await row(probe.number)).totalCents;
    await holdWhen({ holdFirstOrderAboveCents: total - 1 });

    const held = await place();
    expect(held.status).toBe("held");
    const stored = await row(held.number);
    expect(stored).toMatchObject({ status: "held", paymentStatus: "paid", awaitingKeys: 0 });
    expect(stored.paidAt).not.toBeNull();
    expect(stored.holdReasons).toEqual([
      expect.objectContaining({
        rule: "first-order",
        figures: { totalCents: total, limitCents: total - 1 },
      }),
    ]);
    // No key leaves the pool while the order is checked.
    expect(await keysOf(held.orderId)).toEqual([]);
    expect((await audits(held.number, "order.hold"))[0]!.after).toMatchObject({ status: "held" });

    await holdWhen({ holdFirstOrderAboveCents: total });
    expect((await place()).status).toBe("fulfilled");
    // The probe's address has a paid order: its next one is no first order, whatever it comes to.
    await holdWhen({ holdFirstOrderAboveCents: 1 });
    expect((await place({ email: (await row(probe.number)).email })).status).toBe("fulfilled");
  });

  it("holds the order beyond N an hour from one e-mail address, and from one client address", async () => {
    await holdWhen({ holdOrdersPerHour: 2 });
    const email = freshEmail();
    expect((await place({ email })).status).toBe("fulfilled");
    expect((await place({ email })).status).toBe("fulfilled");
    const third = await place({ email: email.toUpperCase() });
    expect(third.status).toBe("held");
    expect((await row(third.number)).holdReasons).toEqual([
      expect.objectContaining({ rule: "email-rate", figures: { orders: 3, limit: 2 } }),
    ]);

    const client = `203.0.113.${driver === "pglite" ? 7 : 8}`;
    expect((await place({}, client)).status).toBe("fulfilled");
    expect((await place({}, client)).status).toBe("fulfilled");
    const fromClient = await place({}, client);
    expect(fromClient.status).toBe("held");
    expect((await row(fromClient.number)).holdReasons.map((reason) => reason.rule)).toEqual(["client-rate"]);
    // The address itself is never stored.
    expect((await row(fromClient.number)).clientRef).not.toContain("203.0.113");
    // Another client is not counted with it.
    expect((await place({}, "198.51.100.1")).status).toBe("fulfilled");
  });

  describe("card payments", () => {
    let card: OrdersContext;
    beforeEach(() => {
      card = ordersTestContext(
        database.db,
        ctx.cipher,
        testEnv({ STRIPE_SECRET_KEY: "sk_test_store", STRIPE_WEBHOOK_SECRET: "whsec_test" }),
      );
    });
    /** A card order paid with what Stripe said of the payment. */
    const payByCard = async (signals: PaymentSignals) => {
      const placed = await placeOrder(card, checkout({ email: freshEmail(), paymentMethod: "stripe" }));
      if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
      await database.db.transaction((tx) =>
        markPaid(tx, card, placed.orderId, "stripe", "Paid by card", `cs_${placed.number}`, signals),
      );
      return row(placed.number);
    };

    it("holds on Radar's elevated or highest risk and on an opened review, not on normal risk", async () => {
      await holdWhen({ holdOnRadarRisk: true });
      expect((await payByCard({ riskLevel: "elevated" })).holdReasons.map((reason) => reason.rule)).toEqual([
        "radar-risk",
      ]);
      expect((await payByCard({ riskLevel: "highest" })).status).toBe("held");
      expect(
        (await payByCard({ riskLevel: "normal", reviewOpened: true })).holdReasons.map(
          (reason) => reason.rule,
        ),
      ).toEqual(["radar-review"]);
      expect((await payByCard({ riskLevel: "unreadable" })).status).toBe("held");
      expect((await payByCard({ riskLevel: "normal" })).status).toBe("fulfilled");
      await holdWhen({ holdOnRadarRisk: false, holdOrdersPerHour: 100 });
      expect((await payByCard({ riskLevel: "highest", reviewOpened: true })).status).toBe("fulfilled");
    });

    it("holds the order beyond N an hour paid with one card, by Stripe's fingerprint", async () => {
      await holdWhen({ holdOrdersPerHour: 1 });
      const fingerprint = `fp_${driver}`;
      const first = await payByCard({ cardFingerprint: fingerprint });
      expect(first).toMatchObject({ status: "fulfilled", cardFingerprint: fingerprint });
      const second = await payByCard({ cardFingerprint: fingerprint });
      expect(second.holdReasons).toEqual([
        expect.objectContaining({ rule: "card-rate", figures: { orders: 2, limit: 1 } }),
      ]);
      expect((await payByCard({ cardFingerprint: `${fingerprint}_other` })).status).toBe("fulfilled");
    });

    it("reads the card's fingerprint and Radar's verdict from the charge Stripe returns", () => {
      expect(
        signalsOfCharge({
          outcome: { risk_level: "elevated" },
          review: "prv_1",
          payment_method_details: { card: { fingerprint: "fp_abc" } },
        } as never),
      ).toEqual({ cardFingerprint: "fp_abc", riskLevel: "elevated", reviewOpened: true });
      expect(signalsOfCharge(null)).toEqual({ cardFingerprint: null, riskLevel: null, reviewOpened: false });
    });
  });

  it("tells the buyer it is being checked, and the owner why; approving delivers the keys exactly once", async () => {
    await holdWhen({ holdFirstOrderAboveCents: 1, holdCheckHours: 6 });
    const held = await place();
    const view = buyerOrderView({ ...(await orderForBuyer(ctx, held.number))!, documents: [] });
    expect(view).toMatchObject({ status: "held", statusLabel: "On hold", heldCheckHours: 6, hasKeys: false });
    const [receipt] = await mails(held.orderId, "payment-receipt");
    expect(receipt!.text).toContain("are checking this one");
    expect(receipt!.text).toContain("within 6 hours");
    const [notice] = await mails(held.orderId, "owner-held-order");
    expect(notice!.subject).toContain(`Order #${held.number} is on hold`);
    expect(notice!.text).toContain("First order from");

    const approved = await approveHeldOrder(ctx, held.number, ADMIN);
    expect(approved).toEqual({ status: "fulfilled", keysDelivered: 1, keysMissing: 0 });
    await expect(approveHeldOrder(ctx, held.number, ADMIN)).rejects.toThrow(
      new OrderActionError(`Order #${held.number} was already approved`),
    );
    await expect(rejectHeldOrder(ctx, held.number, {}, ADMIN)).rejects.toThrow(
      `Order #${held.number} was already approved`,
    );
    expect(await row(held.number)).toMatchObject({ status: "fulfilled", holdDecision: "approved" });
    expect(await keysOf(held.orderId)).toHaveLength(1);
    const sent = await mails(held.orderId, "order-approved");
    expect(sent).toHaveLength(1);
    const after = buyerOrderView({ ...(await orderForBuyer(ctx, held.number))!, documents: [] });
    expect(sent[0]!.text).toContain(after.lines[0]!.keys[0]!);
    expect(after.heldCheckHours).toBeNull();
    const entries = await audits(held.number, "order.approve");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: ADMIN,
      before: { status: "held", reasons: [expect.objectContaining({ rule: "first-order" })] },
      after: { status: "fulfilled", keysDelivered: 1 },
    });
  });

  it("approves with an empty pool: the order waits for its keys, as any paid order does", async () => {
    await holdWhen({ holdFirstOrderAboveCents: 1 });
    const held = await place({ cart: [{ groupKey: "McAfee", id: "1", quantity: 1 }] });
    const [line] = await database.db.select().from(orderLines).where(eq(orderLines.orderId, held.orderId));
    // Somebody else bought the pool's last keys while the order was checked.
    await database.db
      .delete(licenceKeys)
      .where(and(eq(licenceKeys.productId, line!.productId!), isNull(licenceKeys.orderLineId)));

    expect(await approveHeldOrder(ctx, held.number, ADMIN)).toEqual({
      status: "paid",
      keysDelivered: 0,
      keysMissing: 1,
    });
    expect(await row(held.number)).toMatchObject({
      status: "paid",
      awaitingKeys: 1,
      holdDecision: "approved",
    });
    const [mail] = await mails(held.orderId, "order-approved");
    expect(mail!.text).toContain("1 licence key is on the way");
  });

  it("rejecting refunds in full, gives reserved stock back, takes no key, and tells the customer", async () => {
    await holdWhen({ holdFirstOrderAboveCents: 1 });
    const held = await place({
      cart: [
        { groupKey: "Norton", id: "1", quantity: 1 },
        { groupKey: "hp", id: "1", quantity: 1 },
      ],
    });
    const before = await row(held.number);
    await rejectHeldOrder(ctx, held.number, { reason: "The card was reported stolen" }, ADMIN);
    expect(await row(held.number)).toMatchObject({
      status: "refunded",
      paymentStatus: "refunded",
      refundedCents: before.totalCents,
      holdDecision: "rejected",
    });
    expect(await keysOf(held.orderId)).toEqual([]);
    const refunds = await database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, held.orderId));
    expect(refunds).toMatchObject([{ kind: "full", amountCents: before.totalCents }]);
    const notes = await database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, held.orderId), eq(invoices.kind, "credit_note")));
    expect(notes).toHaveLength(1);
    const [mail] = await mails(held.orderId, "refund");
    expect(mail!.text).toContain(
      "We could not approve this order after checking it. The card was reported stolen",
    );
    // No key ever reached the buyer: nothing to say "no longer works" of, in the e-mail or on the order.
    expect(mail!.text).not.toContain("Licence keys");
    const view = buyerOrderView({ ...(await orderForBuyer(ctx, held.number))!, documents: [] });
    expect(view.lines.map((line) => [line.state, line.keysWithdrawn])).toEqual([
      ["refunded", false],
      ["refunded", false],
    ]);
    const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, held.orderId));
    expect(lines.every((line) => line.refundedAt !== null)).toBe(true);
    const released = await database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, held.orderId), eq(orderEvents.type, "stock_released")));
    expect(released.map((event) => event.message)).toEqual(["1 unit back in stock"]);
    const [entry] = await audits(held.number, "order.reject");
    expect(entry).toMatchObject({
      actor: ADMIN,
      before: { status: "held" },
      after: { status: "refunded", reason: "The card was reported stolen" },
    });
    await expect(rejectHeldOrder(ctx, held.number, {}, ADMIN)).rejects.toThrow(
      `Order #${held.number} was already rejected`,
    );
    await expect(approveHeldOrder(ctx, held.number, ADMIN)).rejects.toThrow(
      `Order #${held.number} was already rejected`,
    );
    expect(await mails(held.orderId, "refund")).toHaveLength(1);
  });

  it("decides once when two admins approve and reject at the same moment", async () => {
    await holdWhen({ holdFirstOrderAboveCents: 1 });
    const held = await place();
    const outcomes = await Promise.allSettled([
      approveHeldOrder(ctx, held.number, ADMIN),
      rejectHeldOrder(ctx, held.number, {}, "other@example.com"),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const lost = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const decided = (await row(held.number)).holdDecision;
    expect((lost[0] as PromiseRejectedResult).reason).toEqual(
      new OrderActionError(`Order #${held.number} was already ${decided}`),
    );
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entityId, String(held.number)),
          inArray(auditLog.action, ["order.approve", "order.reject"]),
        ),
      );
    expect(entries).toHaveLength(1);
    if (decided === "approved") expect(await keysOf(held.orderId)).toHaveLength(1);
    else expect(await keysOf(held.orderId)).toEqual([]);
  });

  it("refuses a reason too long with a message, changing nothing", async () => {
    await holdWhen({ holdFirstOrderAboveCents: 1 });
    const held = await place();
    await expect(rejectHeldOrder(ctx, held.number, { reason: "x".repeat(501) }, ADMIN)).rejects.toThrow(
      "Write the reason in at most 500 characters",
    );
    expect((await row(held.number)).status).toBe("held");
  });
});
