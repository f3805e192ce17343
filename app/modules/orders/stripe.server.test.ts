import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orders, paymentEvents } from "~db/schema";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, ordersTestContext, testEnv } from "../../../tests/support/orders";
import { type OrdersContext, placeOrder } from "./orders.server";
import { handleStripeWebhook } from "./stripe.server";

const WEBHOOK_SECRET = "whsec_test_secret_for_the_store";

function completedEvent(id: string, orderId: number) {
  return JSON.stringify({
    id,
    object: "event",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: `cs_test_${id}`,
        object: "checkout.session",
        payment_status: "paid",
        metadata: { orderId: String(orderId) },
      },
    },
  });
}

const sign = (payload: string, secret = WEBHOOK_SECRET, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

describe.each(drivers)("the Stripe webhook on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  beforeAll(async () => {
    const demo = await createDemoDatabase(driver);
    database = demo.database;
    ctx = ordersTestContext(
      database.db,
      demo.cipher,
      testEnv({ STRIPE_SECRET_KEY: "sk_test_store", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    );
  });
  afterAll(async () => {
    await database.close();
  });

  async function pendingStripeOrder() {
    const result = await placeOrder(ctx, checkout({ paymentMethod: "stripe" }));
    if (!result.ok) throw new Error("not placed");
    expect(result.status).toBe("pending_payment");
    return result;
  }
  const statusOf = async (orderId: number) =>
    (await database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;

  it("marks the order paid once for a correctly signed event, even when it is sent twice", async () => {
    const order = await pendingStripeOrder();
    const payload = completedEvent("evt_paid_1", order.orderId);
    const first = await handleStripeWebhook(ctx, payload, sign(payload));
    expect(first).toEqual({ status: 200, body: { received: true, result: "paid" } });
    const second = await handleStripeWebhook(ctx, payload, sign(payload));
    expect(second).toEqual({ status: 200, body: { received: true, result: "duplicate" } });
    const paid = await statusOf(order.orderId);
    expect(paid.status).toBe("fulfilled");
    expect(paid.paymentReference).toBe("cs_test_evt_paid_1");
    const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.orderId));
    expect(events.filter((event) => event.type === "paid")).toHaveLength(1);
    // A different event for an order already paid changes nothing either.
    const other = completedEvent("evt_paid_2", order.orderId);
    expect((await handleStripeWebhook(ctx, other, sign(other))).status).toBe(200);
    expect(
      (await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.orderId))).filter(
        (e) => e.type === "paid",
      ),
    ).toHaveLength(1);
  });

  it("rejects a wrongly signed, unsigned or stale event with 400 and changes nothing", async () => {
    const order = await pendingStripeOrder();
    const payload = completedEvent("evt_forged", order.orderId);
    expect((await handleStripeWebhook(ctx, payload, sign(payload, "whsec_someone_else"))).status).toBe(400);
    expect((await handleStripeWebhook(ctx, payload, null)).status).toBe(400);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect(
      (await handleStripeWebhook(ctx, payload, sign(payload, WEBHOOK_SECRET, tenMinutesAgo))).status,
    ).toBe(400);
    // The body was changed after signing.
    expect((await handleStripeWebhook(ctx, payload.replace("paid", "paid "), sign(payload))).status).toBe(
      400,
    );
    expect((await statusOf(order.orderId)).status).toBe("pending_payment");
    expect(await database.db.select().from(paymentEvents).where(eq(paymentEvents.id, "evt_forged"))).toEqual(
      [],
    );
  });

  it("keeps the order waiting when the payment fails, for another try", async () => {
    const order = await pendingStripeOrder();
    const payload = JSON.stringify({
      id: "evt_expired",
      object: "event",
      type: "checkout.session.expired",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: "cs_test_x",
          object: "checkout.session",
          payment_status: "unpaid",
          metadata: { orderId: String(order.orderId) },
        },
      },
    });
    expect(await handleStripeWebhook(ctx, payload, sign(payload))).toEqual({
      status: 200,
      body: { received: true, result: "failed" },
    });
    expect((await statusOf(order.orderId)).status).toBe("pending_payment");
  });

  it("refuses Stripe events when Stripe is not configured", async () => {
    const plain = ordersTestContext(database.db, ctx.cipher);
    const payload = completedEvent("evt_unconfigured", 1);
    expect((await handleStripeWebhook(plain, payload, sign(payload))).status).toBe(400);
  });
});
