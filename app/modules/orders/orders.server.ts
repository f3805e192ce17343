import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import {
  type Address,
  brandGroups,
  orderEvents,
  orderLines,
  orders,
  type PaymentChoice,
  type PaymentMethod,
  products,
} from "~db/schema";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { formatMoney } from "~/lib/money";
import type { Logger } from "~/lib/logger.server";
import { MAX_QUANTITY } from "~/modules/cart/cart";
import { priceCart, type PricedLine } from "~/modules/cart/pricing.server";
import { availabilityOf } from "~/modules/catalogue/availability";
import { nameWithVariant } from "~/modules/catalogue/variants";
import {
  lockProductsForOrder,
  reserveStock,
  stockOf,
  variantStockOf,
} from "~/modules/catalogue/stock.server";
import { enqueueEmail, type Mailer } from "~/modules/email/outbox.server";
import type { Env } from "~/lib/env.server";
import { orderPath } from "./access.server";
import { PLACED_MESSAGES } from "./labels";
import { startsFrom } from "./lifecycle";
import { documentNumber } from "./invoice-document";
import { documentAttachment, issueInvoice } from "./invoices.server";
import { allocateKeys, keysForOrder } from "./licence-keys.server";
import { buyerOrderSource } from "./order-source.server";
import { type BuyerOrderView, buyerOrderView } from "./order-view";
import {
  type EmailOrder,
  keysAgainEmail,
  orderConfirmationEmail,
  orderLinkEmail,
  paymentReceiptEmail,
} from "./emails/order-emails";
import { addressSchema, type CheckoutInput, COUNTRIES } from "./schemas";
import { countCodeUse, priceForCheckout } from "./checkout-pricing.server";
import { regionCodeOf } from "~/lib/regions";
import { notifyOwnerOfHold, notifyOwnerOfOrder } from "./owner-notifications.server";
import { clientRefOf, holdReasonsFor, type PaymentSignals } from "./hold-rules.server";
import { recordAudit } from "~/lib/audit-log.server";
import { getSettings, storeIdentity } from "./settings.server";
import { type FieldErrors, fieldErrors } from "~/lib/forms";

export type OrdersContext = {
  db: Database;
  env: Env;
  logger: Logger;
  mailer: Pick<Mailer, "kick">;
  cipher: KeyCipher;
  storeName: string;
  /** The request's: aborted once its client has gone. */
  signal?: AbortSignal;
};

export type PlaceOrderResult =
  | {
      ok: true;
      orderId: number;
      number: number;
      accessVersion: number;
      status: string;
      paymentMethod: PaymentMethod;
      replayed: boolean;
    }
  /** `codeNotValid`: refused for a discount code that cannot be used (the answer a wrong guess gets). */
  | { ok: false; errors: FieldErrors; codeNotValid?: true };

const stateRefusal = (country: string) => `Choose a state of ${COUNTRIES[country] ?? country} from the list`;

/** A cart the order transaction refuses (more than the store can sell now): rolled back, told to the shopper. */
class CartRefused extends Error {
  constructor(
    readonly errors: FieldErrors,
    readonly codeNotValid = false,
  ) {
    super("cart refused");
  }
}

/**
 * Payment methods on offer now: sandbox only where allowed, Stripe only when configured. An order that comes to
 * 0.00 takes none of them ("none"): it is complete when placed.
 */
export async function availablePaymentMethods(
  ctx: Pick<OrdersContext, "db" | "env">,
): Promise<PaymentChoice[]> {
  const store = await getSettings(ctx.db);
  const methods: PaymentChoice[] = [];
  if (ctx.env.STRIPE_SECRET_KEY && ctx.env.STRIPE_WEBHOOK_SECRET) methods.push("stripe");
  methods.push("bank-transfer");
  if (ctx.env.NODE_ENV !== "production" || store.sandboxPayments) methods.push("sandbox");
  return methods;
}

/**
 * Places an order in one transaction: every line priced from the catalogue, name and price snapshots, the next
 * order number, a "placed" event and the confirmation e-mail. The same idempotency key always gives the same order.
 * The sandbox method pays it at once, in the same transaction.
 */
export async function placeOrder(
  ctx: OrdersContext,
  input: CheckoutInput,
  userId: string | null = null,
  /** The address the server saw the checkout come from (lib/client-address.ts), for the per-client hold rule. */
  client: string | null = null,
): Promise<PlaceOrderResult> {
  const existing = await findByIdempotencyKey(ctx.db, input.idempotencyKey);
  if (existing) return { ok: true, ...existing, replayed: true };

  const methods = await availablePaymentMethods(ctx);
  if (input.paymentMethod !== "none" && !methods.includes(input.paymentMethod)) {
    return {
      ok: false,
      errors: { paymentMethod: "That payment method is not available: choose another one" },
    };
  }
  const currency = input.currency ?? "USD";
  const priced = await priceCart(ctx.db, input.cart);
  if (priced.unavailable.length > 0) {
    const names = priced.unavailable.map((line) => line.name || `product ${line.id}`).join(", ");
    return {
      ok: false,
      errors: {
        cart: `No longer available: ${names}. Remove ${priced.unavailable.length > 1 ? "them" : "it"} from your cart to continue.`,
      },
    };
  }
  if (priced.lines.length === 0) return { ok: false, errors: { cart: "Your cart is empty" } };

  // States by their codes ("NY", "UP"): what tax rules and the invoice go by.
  const billingRegion = regionCodeOf(input.billing.country, input.billing.region);
  if (billingRegion === null)
    return { ok: false, errors: { "billing.region": stateRefusal(input.billing.country) } };
  const billing: Address = { ...input.billing, region: billingRegion };
  let shippingAddress: Address | null = null;
  if (priced.hasPhysical) {
    if (input.shipToBilling) shippingAddress = billing;
    else {
      const parsed = addressSchema.safeParse(input.shipping ?? {});
      if (!parsed.success) {
        return {
          ok: false,
          errors: Object.fromEntries(
            Object.entries(fieldErrors(parsed.error)).map(([key, message]) => [`shipping.${key}`, message]),
          ),
        };
      }
      const region = regionCodeOf(parsed.data.country, parsed.data.region);
      if (region === null)
        return { ok: false, errors: { "shipping.region": stateRefusal(parsed.data.country) } };
      shippingAddress = { ...parsed.data, region };
    }
    const { shipsTo } = await getSettings(ctx.db);
    if (!shipsTo.includes(shippingAddress.country)) {
      const where = shipsTo.map((code) => COUNTRIES[code] ?? code).join(", ");
      // Said where the shipping address is chosen: the billing address is fine for billing, whatever its country.
      return {
        ok: false,
        errors: {
          [input.shipToBilling ? "shipToBilling" : "shipping.country"]:
            `We do not ship to ${COUNTRIES[shippingAddress.country] ?? shippingAddress.country}: printers and routers ship to ${where}`,
        },
      };
    }
  }
  // Physical goods are taxed where they are delivered, everything else where the buyer is billed.
  const taxAddress = shippingAddress ?? billing;

  // A buyer who has gone (the checkout waited so long on a busy store that they gave up) must not get an order they
  // believe failed: this is the last moment to tell before it is committed.
  ctx.signal?.throwIfAborted();
  try {
    const placed = await ctx.db.transaction(async (tx) => {
      const store = await getSettings(tx);
      // The code's row is locked here, before any product: concurrent orders take their turns in the same order.
      const pricing = await priceForCheckout(tx, input.cart, {
        code: input.discountCode,
        place: { country: taxAddress.country, region: taxAddress.region },
        lockPromotion: true,
        currency,
      });
      if (pricing.unavailable.length > 0 || pricing.lines.length === 0)
        throw new CartRefused({ cart: "Your cart changed while you were checking out: reload the page" });
      if (pricing.codeProblem)
        throw new CartRefused({ discountCode: pricing.codeProblem }, pricing.codeNotValid);
      if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== pricing.totalCents)
        throw new CartRefused({
          cart: `Your total is now ${formatMoney(pricing.totalCents, currency)}, not the ${formatMoney(input.expectedTotalCents, currency)} shown a moment ago: check the order summary and place the order again.`,
        });
      // Nothing to pay, whatever way to pay was chosen on a total shown a moment before; something to pay, a way.
      const paymentMethod: PaymentMethod = pricing.totalCents === 0 ? "none" : input.paymentMethod;
      if (paymentMethod === "none" && pricing.totalCents > 0)
        throw new CartRefused({
          paymentMethod: `Your order comes to ${formatMoney(pricing.totalCents, currency)}: choose how to pay it.`,
        });
      if (pricing.promotion) {
        const counted = await countCodeUse(tx, pricing.promotion, {
          typed: input.discountCode,
          email: input.email,
          userId,
        });
        if (!counted.ok) throw new CartRefused({ discountCode: counted.message }, counted.notValid);
      }
      const shortages = await stockShortages(tx, pricing.lines);
      if (shortages.length > 0) throw new CartRefused({ cart: shortages.join(" ") });
      // Printers and routers with a stock count: taken now, under the same locks, given back if it is cancelled.
      const reserved = await reserveStock(tx, pricing.lines);
      const [order] = await tx
        .insert(orders)
        .values({
          idempotencyKey: input.idempotencyKey,
          userId,
          email: input.email.toLowerCase(),
          status: "pending_payment",
          paymentStatus: "pending",
          paymentMethod,
          subtotalCents: pricing.subtotalCents,
          shippingCents: pricing.shippingCents,
          totalCents: pricing.totalCents,
          currency,
          promotionId: pricing.discount?.promotionId ?? null,
          discountCode: pricing.discount?.code ?? "",
          discountCents: pricing.discountCents,
          shippingDiscountCents: pricing.shippingDiscountCents,
          taxCents: pricing.taxCents,
          shippingTaxCents: pricing.shippingTaxCents,
          pricesIncludeTax: pricing.pricesIncludeTax,
          taxBreakdown: pricing.taxes,
          buyerTaxId: input.buyerTaxId,
          billingAddress: billing,
          shippingAddress,
          // Whatever way it is paid, an order placed while the store takes test payments is a test: the setting read
          // in this transaction decides, once, so switching the sandbox off later keeps it one.
          isTest: store.sandboxPayments || paymentMethod === "sandbox",
          clientRef: clientRefOf(ctx.env.AUTH_SECRET, client),
        })
        .returning();
      await tx.insert(orderLines).values(
        pricing.lines.map((line, index) => ({
          orderId: order!.id,
          productId: line.productId,
          groupKey: line.groupKey,
          externalId: line.id,
          name: line.name,
          variantId: line.variantId,
          variantSku: line.variant,
          variantLabel: line.variantLabel,
          termMonths: line.termMonths,
          unitPriceCents: line.unitPriceCents,
          quantity: line.quantity,
          lineTotalCents: line.lineTotalCents,
          discountCents: line.discountCents,
          taxes: line.taxes,
          taxCents: line.taxCents,
          taxRateBasisPoints: line.taxRateBasisPoints,
          kind: line.kind,
          stockReserved: reserved[index] ?? 0,
        })),
      );
      await recordEvent(tx, order!.id, "placed", "customer", PLACED_MESSAGES[paymentMethod]);
      await enqueueEmail(tx, {
        ...orderConfirmationEmail(await orderEmailView(tx, ctx, order!.id)),
        orderId: order!.id,
      });
      if (paymentMethod === "bank-transfer")
        await notifyOwnerOfOrder(tx, ctx.env, order!.id, "awaiting-bank-transfer");
      if (paymentMethod === "sandbox")
        await markPaid(tx, ctx, order!.id, "sandbox", "Paid with a test payment");
      if (paymentMethod === "none")
        await markPaid(tx, ctx, order!.id, "system", "Nothing to pay: the total is 0.00");
      const [after] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order!.id));
      return {
        orderId: order!.id,
        number: order!.number,
        accessVersion: order!.accessVersion,
        status: after!.status,
        paymentMethod,
      };
    });
    ctx.mailer.kick();
    return { ok: true, ...placed, replayed: false };
  } catch (error) {
    if (error instanceof CartRefused)
      return error.codeNotValid
        ? { ok: false, errors: error.errors, codeNotValid: true }
        : { ok: false, errors: error.errors };
    // Two submissions with one key at the same moment: the first stored the order; this one returns it.
    const again = await findByIdempotencyKey(ctx.db, input.idempotencyKey);
    if (again) return { ok: true, ...again, replayed: true };
    throw error;
  }
}

/**
 * What the order cannot have, line by line, counted under a lock in the order's transaction: a product that does
 * not take waiting orders is sold only as far as its stock goes, however the cart was priced a moment before.
 */
async function stockShortages(tx: Transaction, lines: PricedLine[]): Promise<string[]> {
  // Every line, not only those counted when the cart was priced: the admin may have set a count since.
  const strict = lines;
  if (strict.length === 0) return [];
  await lockProductsForOrder(tx, strict);
  const rows = await tx
    .select({ productId: products.id, waitingOrders: products.waitingOrders, section: brandGroups.section })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(
      inArray(
        products.id,
        strict.map((line) => line.productId),
      ),
    );
  const [stock, stockOfVariants] = await Promise.all([
    stockOf(tx, rows),
    variantStockOf(
      tx,
      strict.flatMap((line) => {
        const row = rows.find((candidate) => candidate.productId === line.productId);
        return row && line.variantId !== null ? [{ ...row, variantId: line.variantId }] : [];
      }),
    ),
  ]);
  const problems: string[] = [];
  for (const line of strict) {
    const now = line.variantId === null ? stock.get(line.productId) : stockOfVariants.get(line.variantId);
    if (!now) continue;
    const { status, inStock } = availabilityOf(now, line.quantity, MAX_QUANTITY);
    if (status !== "unavailable") continue;
    const name = nameWithVariant(line.name, line.variantLabel);
    problems.push(
      inStock
        ? `Only ${inStock} of ${name} can be ordered now: lower the quantity to ${inStock} or fewer.`
        : `${name} is out of stock and cannot be ordered now: remove it from your cart.`,
    );
  }
  return problems;
}

async function findByIdempotencyKey(db: Database, key: string) {
  const [row] = await db
    .select({
      orderId: orders.id,
      number: orders.number,
      accessVersion: orders.accessVersion,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
    })
    .from(orders)
    .where(eq(orders.idempotencyKey, key));
  return row;
}

export async function recordEvent(
  tx: Database | Transaction,
  orderId: number,
  type: string,
  actor: string,
  message = "",
  data?: Record<string, unknown>,
) {
  await tx.insert(orderEvents).values({ orderId, type, actor, message, data });
}

/**
 * Marks an order paid (once: a second call changes nothing), allocates its licence keys and issues its invoice in
 * the same transaction, and writes the receipt with the invoice attached. Digital-only orders with every key delivered are fulfilled at once; with too few keys
 * the order stays paid and waits.
 */
export async function markPaid(
  tx: Transaction,
  ctx: Pick<OrdersContext, "cipher" | "env">,
  orderId: number,
  actor: string,
  message: string,
  reference?: string,
  /** What the payment's provider said about it, for the hold rules (hold-rules.server.ts). */
  signals: PaymentSignals = {},
): Promise<boolean> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order || !startsFrom("pay", order.status)) return false;
  const cardFingerprint = signals.cardFingerprint ?? order.cardFingerprint;
  const store = await getSettings(tx);
  const reasons = await holdReasonsFor(tx, order, store, signals);
  if (reasons.length > 0) {
    // Held: paid and invoiced, but no key is taken from the pool until the store approves (ADR 0035).
    await tx
      .update(orders)
      .set({
        status: "held",
        paymentStatus: "paid",
        paidAt: sql`now()`,
        updatedAt: sql`now()`,
        awaitingKeys: 0,
        holdReasons: reasons,
        cardFingerprint,
        paymentReference: reference ?? order.paymentReference,
      })
      .where(eq(orders.id, orderId));
    await recordEvent(tx, orderId, "paid", actor, message);
    // The buyer reads this; the reasons are the store's alone (a fraudster is not told which rule to dodge).
    await recordEvent(
      tx,
      orderId,
      "held",
      "system",
      `We are checking this order before delivering it: expect an answer within ${store.holdCheckHours} hours`,
      { reasons },
    );
    const heldInvoice = await issueInvoice(tx, orderId);
    await enqueueEmail(tx, {
      ...paymentReceiptEmail({
        ...(await orderEmailView(tx, ctx, orderId)),
        invoiceNumber: documentNumber(heldInvoice.kind, heldInvoice.number),
      }),
      orderId,
      attachments: [documentAttachment(heldInvoice)],
    });
    await notifyOwnerOfHold(
      tx,
      ctx.env,
      orderId,
      reasons.map((reason) => reason.message),
      store.holdCheckHours,
    );
    await recordAudit(tx, {
      actor,
      action: "order.hold",
      entity: "order",
      entityId: order.number,
      before: { status: order.status },
      after: { status: "held", reasons },
    });
    return true;
  }
  const lines = await tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  // now() is the transaction's start, the very instant written below as the order's payment date.
  const missing = await allocateKeys(
    tx,
    lines.filter((line) => line.kind === "software"),
    sql`now()`,
  );
  const physical = lines.some((line) => line.kind === "physical");
  const status = !physical && missing === 0 ? "fulfilled" : "paid";
  await tx
    .update(orders)
    .set({
      status,
      paymentStatus: "paid",
      paidAt: sql`now()`,
      updatedAt: sql`now()`,
      awaitingKeys: missing,
      paymentReference: reference ?? order.paymentReference,
      cardFingerprint,
    })
    .where(eq(orders.id, orderId));
  await recordEvent(tx, orderId, "paid", actor, message);
  if (missing > 0)
    await recordEvent(
      tx,
      orderId,
      "keys_waiting",
      "system",
      `${missing} licence key${missing > 1 ? "s" : ""} to follow by e-mail`,
    );
  else if (lines.some((line) => line.kind === "software"))
    await recordEvent(tx, orderId, "keys_delivered", "system", "Licence keys delivered");
  if (status === "fulfilled") await recordEvent(tx, orderId, "fulfilled", "system", "Everything delivered");
  const invoice = await issueInvoice(tx, orderId);
  await enqueueEmail(tx, {
    ...paymentReceiptEmail({
      ...(await orderEmailView(tx, ctx, orderId)),
      invoiceNumber: documentNumber(invoice.kind, invoice.number),
    }),
    orderId,
    attachments: [documentAttachment(invoice)],
  });
  await notifyOwnerOfOrder(tx, ctx.env, orderId, "paid");
  return true;
}

/**
 * The order as its e-mails tell it: the buyer's view of it, the very one their order page shows (order-view.ts),
 * with the order's link, the way back to it, and the store's name and support contact.
 */
export async function orderEmailView(
  tx: Transaction,
  ctx: Pick<OrdersContext, "cipher" | "env">,
  orderId: number,
): Promise<EmailOrder & BuyerOrderView> {
  const source = (await buyerOrderSource(tx, ctx.cipher, eq(orders.id, orderId)))!;
  // Read now, not at boot: a name or support address changed in the admin is in the next e-mail.
  const store = await storeIdentity(tx);
  const { order } = source;
  return {
    ...buyerOrderView(source),
    link: `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`,
    lookupLink: `${ctx.env.PUBLIC_URL}/order/lookup?number=${order.number}`,
    storeName: store.name,
    supportEmail: store.email,
    supportPhone: store.phone,
    bankTransferInstructions: source.bankTransferInstructions,
  };
}

/**
 * An order as its buyer sees it, with delivered keys, its parcels, documents and its history but for the store's
 * bookkeeping (order-view.ts `buyerOrderView` makes the page of it). Callers check access first.
 */
export async function orderForBuyer(ctx: Pick<OrdersContext, "db" | "cipher">, number: number) {
  return buyerOrderSource(ctx.db, ctx.cipher, eq(orders.number, number));
}

/** Guest lookup: the number and the e-mail it was placed with must both match. */
export async function findOrderByNumberAndEmail(db: Database, number: number, email: string) {
  const [row] = await db
    .select({ number: orders.number, accessVersion: orders.accessVersion })
    .from(orders)
    .where(and(eq(orders.number, number), eq(sql`lower(${orders.email})`, email.trim().toLowerCase())));
  return row ?? null;
}

/** The current secret link of an order (its number and link version), or null when there is no such order. */
export async function orderLinkRef(db: Database, number: number) {
  const [row] = await db
    .select({ number: orders.number, accessVersion: orders.accessVersion })
    .from(orders)
    .where(eq(orders.number, number));
  return row ?? null;
}

/**
 * E-mails the buyer a new link to their order, to the address the order was placed with, and retires every older
 * link in the same transaction. Returns the address it went to, or null when there is no such order.
 */
export async function sendNewOrderLink(ctx: OrdersContext, number: number): Promise<string | null> {
  const sentTo = await ctx.db.transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ accessVersion: sql`${orders.accessVersion} + 1`, updatedAt: sql`now()` })
      .where(eq(orders.number, number))
      .returning();
    if (!order) return null;
    await recordEvent(
      tx,
      order.id,
      "link_renewed",
      "customer",
      "A new link to this order was e-mailed; older links no longer work",
    );
    await enqueueEmail(tx, {
      ...orderLinkEmail({
        number: order.number,
        email: order.email,
        storeName: ctx.storeName,
        link: `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`,
      }),
      orderId: order.id,
    });
    return order.email;
  });
  if (sentTo) ctx.mailer.kick();
  return sentTo;
}

/**
 * E-mails the buyer every licence key of their order again (keys of refunded lines never), to the address the
 * order was placed with. Returns that address, or null when the order has no keys to send.
 */
export async function emailKeysAgain(ctx: OrdersContext, number: number): Promise<string | null> {
  const sentTo = await ctx.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.number, number));
    if (!order) return null;
    const keys = await keysForOrder(tx, ctx.cipher, order.id);
    if (keys.size === 0) return null;
    const lines = await tx
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.id));
    await recordEvent(tx, order.id, "keys_resent", "customer", "Licence keys e-mailed again, as asked");
    await enqueueEmail(tx, {
      ...keysAgainEmail({
        number: order.number,
        email: order.email,
        storeName: ctx.storeName,
        link: `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`,
        lines: lines.map((line) => ({
          name: nameWithVariant(line.name, line.variantLabel),
          keys: keys.get(line.id) ?? [],
        })),
      }),
      orderId: order.id,
    });
    return order.email;
  });
  if (sentTo) ctx.mailer.kick();
  return sentTo;
}

/** The orders context of a request: the server context plus the store's name for e-mails. */
export async function ordersContext(
  ctx: Pick<OrdersContext, "db" | "env" | "logger" | "mailer" | "cipher">,
  signal?: AbortSignal,
): Promise<OrdersContext> {
  return { ...ctx, storeName: (await storeIdentity(ctx.db)).name, signal };
}
