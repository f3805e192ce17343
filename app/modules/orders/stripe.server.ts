import { asc, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { type Order, type OrderLine, orderLines, orders, paymentEvents } from "~db/schema";
import { orderPath } from "./access.server";
import { linePaidCents } from "./invoice-document";
import { markPaid, type OrdersContext, recordEvent } from "./orders.server";
import { getSettings } from "./settings.server";
import type { PaymentSignals } from "./hold-rules.server";

/** An unpaid card order that expires before Stripe could keep a checkout page open (30 minutes at least). */
export class CheckoutTooLateError extends Error {}

/**
 * When Stripe closes an order's checkout page: five minutes before the order expires unpaid, so no card is charged
 * for an order the store has just cancelled; null when that is sooner than the 30 minutes Stripe needs.
 */
export function checkoutClosesAt(placedAt: Date, unpaidCardHours: number, now = new Date()): number | null {
  const closes = placedAt.getTime() + unpaidCardHours * 3_600_000 - 5 * 60_000;
  if (closes < now.getTime() + 31 * 60_000) return null;
  return Math.floor(Math.min(closes, now.getTime() + 24 * 3_600_000 - 60_000) / 1000);
}

/**
 * How long one call to Stripe may take. The SDK's own 80 s would hold a checkout, a refund or a webhook (which reads
 * the payment's Radar verdict before it answers) far past the time Stripe and a shopper wait.
 */
const STRIPE_TIMEOUT_MS = 15_000;

/** Stripe is offered only when both its keys are configured. */
export function stripeClient(ctx: Pick<OrdersContext, "env">): Stripe | null {
  return ctx.env.STRIPE_SECRET_KEY
    ? new Stripe(ctx.env.STRIPE_SECRET_KEY, { timeout: STRIPE_TIMEOUT_MS })
    : null;
}

/** Starts Stripe's hosted checkout for a pending order; card details never reach this server. */
export async function startStripeCheckout(ctx: OrdersContext, orderId: number): Promise<string> {
  const stripe = stripeClient(ctx);
  if (!stripe) throw new Error("Stripe is not configured");
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || order.status !== "pending_payment") throw new Error("This order is not waiting for payment");
  const lines = await ctx.db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const link = `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`;
  const closesAt = checkoutClosesAt(order.createdAt, (await getSettings(ctx.db)).unpaidCardHours);
  if (closesAt === null) throw new CheckoutTooLateError(`Order #${order.number} expires unpaid too soon`);
  const session = await stripe.checkout.sessions.create({
    mode: "payment",
    expires_at: closesAt,
    customer_email: order.email,
    client_reference_id: String(order.number),
    metadata: { orderId: String(order.id), orderNumber: String(order.number) },
    line_items: stripeLineItems(order, lines),
    success_url: `${link}&placed=1`,
    cancel_url: `${ctx.env.PUBLIC_URL}/payment?cancelled=${order.number}`,
  });
  await ctx.db
    .update(orders)
    .set({ paymentReference: session.id, updatedAt: sql`now()` })
    .where(eq(orders.id, order.id));
  if (!session.url) throw new Error("Stripe did not return a checkout address");
  return session.url;
}

export type WebhookResult = { status: 200 | 400; body: Record<string, unknown> };

/**
 * Stripe's webhook: the signature is checked with Stripe's library (which also refuses events older than five
 * minutes); an event id seen before changes nothing; a completed checkout marks its order paid once.
 */
export async function handleStripeWebhook(
  ctx: OrdersContext,
  payload: string,
  signature: string | null,
): Promise<WebhookResult> {
  const secret = ctx.env.STRIPE_WEBHOOK_SECRET;
  if (!secret || !ctx.env.STRIPE_SECRET_KEY)
    return { status: 400, body: { error: "Stripe is not configured" } };
  if (!signature) return { status: 400, body: { error: "Missing Stripe-Signature header" } };
  let event: Stripe.Event;
  try {
    event = stripeClient(ctx)!.webhooks.constructEvent(payload, signature, secret);
  } catch (error) {
    ctx.logger.warn({ err: (error as Error).message }, "refused a Stripe webhook");
    return { status: 400, body: { error: "Invalid signature" } };
  }
  const session = event.type.startsWith("checkout.session.")
    ? (event.data.object as Stripe.Checkout.Session)
    : null;
  const claimed = Number(session?.metadata?.orderId);
  const paidNow =
    (event.type === "checkout.session.completed" ||
      event.type === "checkout.session.async_payment_succeeded") &&
    session?.payment_status === "paid";
  // Read before the transaction: no row lock waits on Stripe's answer.
  const signals = paidNow && session ? await paymentSignals(ctx, session) : {};
  const handled = await ctx.db.transaction(async (tx) => {
    const [order] =
      Number.isSafeInteger(claimed) && claimed > 0
        ? await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, claimed))
        : [];
    const [fresh] = await tx
      .insert(paymentEvents)
      .values({ id: event.id, provider: "stripe", type: event.type, orderId: order?.id ?? null })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!fresh) return "duplicate";
    if (!session || !order) return "ignored";
    const orderId = order.id;
    if (
      event.type === "checkout.session.completed" ||
      event.type === "checkout.session.async_payment_succeeded"
    ) {
      if (session.payment_status !== "paid") return "ignored";
      await markPaid(tx, ctx, orderId, "stripe", "Paid by card", session.id, signals);
      return "paid";
    }
    if (event.type === "checkout.session.expired" || event.type === "checkout.session.async_payment_failed") {
      await recordEvent(
        tx,
        orderId,
        "payment_failed",
        "stripe",
        "The card payment did not go through; the order is kept for another try",
      );
      return "failed";
    }
    return "ignored";
  });
  ctx.mailer.kick();
  return { status: 200, body: { received: true, result: handled } };
}

/** What the hold rules read from a card payment's charge: the card's fingerprint and Radar's verdict. */
export function signalsOfCharge(
  charge: Pick<Stripe.Charge, "outcome" | "review" | "payment_method_details"> | null,
): PaymentSignals {
  return {
    cardFingerprint: charge?.payment_method_details?.card?.fingerprint ?? null,
    riskLevel: charge?.outcome?.risk_level ?? null,
    reviewOpened: Boolean(charge?.review),
  };
}

/**
 * The card payment's signals for the hold rules (ADR 0035), read from Stripe only when a rule needs them: the
 * checkout session's event carries no charge, so its payment is asked for with its latest charge. When Stripe cannot
 * be asked, the Radar rule holds the order rather than let an unchecked payment through.
 */
async function paymentSignals(ctx: OrdersContext, session: Stripe.Checkout.Session): Promise<PaymentSignals> {
  const store = await getSettings(ctx.db);
  if (!store.holdsEnabled || (!store.holdOnRadarRisk && store.holdOrdersPerHour === 0)) return {};
  const intent =
    typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  try {
    if (!intent) throw new Error("the checkout session names no payment");
    const payment = await stripeClient(ctx)!.paymentIntents.retrieve(intent, { expand: ["latest_charge"] });
    const charge = typeof payment.latest_charge === "object" ? payment.latest_charge : null;
    if (!charge) throw new Error("the payment has no charge");
    return signalsOfCharge(charge);
  } catch (error) {
    ctx.logger.warn(
      { err: (error as Error).message, session: session.id },
      "could not read Stripe Radar's verdict",
    );
    return { riskLevel: "unreadable" };
  }
}

/**
 * Gives card money back through Stripe: the payment of the order's checkout session, refunded by `amountCents`.
 * The idempotency key makes a retried call refund once. Returns Stripe's refund id.
 */
export async function refundCardPayment(
  ctx: Pick<OrdersContext, "env">,
  order: { paymentReference: string | null },
  amountCents: number,
  idempotencyKey: string,
): Promise<string> {
  const stripe = stripeClient(ctx);
  if (!stripe) throw new Error("Stripe is not configured: card payments cannot be refunded from the store");
  if (!order.paymentReference) throw new Error("This order has no Stripe payment to refund");
  const session = await stripe.checkout.sessions.retrieve(order.paymentReference);
  const intent =
    typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  if (!intent) throw new Error("Stripe has no payment for this order");
  const refund = await stripe.refunds.create(
    { payment_intent: intent, amount: amountCents },
    { idempotencyKey },
  );
  return refund.id;
}

/**
 * What Stripe charges, in the order's currency (cents or paise, as Stripe counts both), adding up to the order's total: each line at its unit price and shipping, or, when a discount
 * or an added tax changes what a line costs, each line (and shipping) as one amount: its price less its discount plus
 * its tax.
 */
export function stripeLineItems(
  order: Pick<
    Order,
    | "currency"
    | "discountCents"
    | "taxCents"
    | "pricesIncludeTax"
    | "shippingCents"
    | "shippingDiscountCents"
    | "shippingTaxCents"
  >,
  lines: Array<
    Pick<OrderLine, "name" | "quantity" | "unitPriceCents" | "lineTotalCents" | "discountCents" | "taxCents">
  >,
) {
  const item = (name: string, amount: number, quantity = 1) => ({
    quantity,
    price_data: { currency: order.currency.toLowerCase(), unit_amount: amount, product_data: { name } },
  });
  const adjusted = order.discountCents > 0 || (order.taxCents > 0 && !order.pricesIncludeTax);
  const shippingPaid =
    order.shippingCents - order.shippingDiscountCents + (order.pricesIncludeTax ? 0 : order.shippingTaxCents);
  return [
    ...lines.map((line) =>
      adjusted
        ? item(`${line.quantity} × ${line.name}`, linePaidCents(line, order.pricesIncludeTax))
        : item(line.name, line.unitPriceCents, line.quantity),
    ),
    ...(shippingPaid > 0 ? [item("Shipping", shippingPaid)] : []),
  ];
}
