import { createHmac } from "node:crypto";
import { and, count, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { Transaction } from "~db/client.server";
import { type HoldReason, type Order, orders, type PaymentMethod } from "~db/schema";
import { convertCents, formatMoney } from "~/lib/money";
import { inrRateOf, type StoreSettings } from "./settings.server";

/**
 * The hold rules (ADR 0035): whether a payment that just succeeded leaves its order held for the store to check.
 * Only payments a provider confirmed are checked: a card (Stripe), and the sandbox so that a demo store shows the
 * rules at work. A bank transfer the owner records by hand cannot be charged back, and an order of 0.00 moved no
 * money: neither is held.
 */

/** What the payment's provider said about it: Stripe's card fingerprint and Radar's verdict; nothing for others. */
export type PaymentSignals = {
  cardFingerprint?: string | null;
  /**
   * Radar's `outcome.risk_level`: "normal", "elevated", "highest", "not_assessed", "unknown"; or "unreadable" when
   * Stripe could not be asked.
   */
  riskLevel?: string | null;
  /** Radar opened a review of the payment. */
  reviewOpened?: boolean;
};

const CHECKED_METHODS: readonly PaymentMethod[] = ["stripe", "sandbox"];
const RISKY_LEVELS = ["elevated", "highest", "unreadable"];

/**
 * The address an order came from, as the per-client rule counts it: a keyed hash, so the orders table never holds
 * a customer's IP address. Null when the server did not see one.
 */
export function clientRefOf(secret: string, address: string | null | undefined): string | null {
  if (!address || address === "unknown") return null;
  return createHmac("sha256", secret).update(`order-client:${address}`).digest("base64url").slice(0, 22);
}

/** Orders placed in the past hour that `which` picks, counting `order` itself however long ago it was placed. */
async function inThePastHour(tx: Transaction, order: Pick<Order, "id">, which: SQL) {
  const [row] = await tx
    .select({ n: count() })
    .from(orders)
    .where(and(which, or(sql`${orders.createdAt} > now() - interval '1 hour'`, eq(orders.id, order.id))));
  return row?.n ?? 0;
}

/** Why the order must be held now that it is paid; empty when it is not (or holding is off). */
export async function holdReasonsFor(
  tx: Transaction,
  order: Pick<Order, "id" | "email" | "totalCents" | "currency" | "paymentMethod" | "clientRef">,
  store: Pick<
    StoreSettings,
    | "holdsEnabled"
    | "holdFirstOrderAboveCents"
    | "holdOrdersPerHour"
    | "holdOnRadarRisk"
    | "inrPaisePerUsd"
    | "inrRounding"
  >,
  signals: PaymentSignals,
): Promise<HoldReason[]> {
  if (!store.holdsEnabled || !CHECKED_METHODS.includes(order.paymentMethod)) return [];
  const reasons: HoldReason[] = [];
  const sameEmail = eq(sql`lower(${orders.email})`, order.email.toLowerCase());

  // The limit is in dollars: an order in rupees is held above the same amount at the store's rate.
  const limit = convertCents(store.holdFirstOrderAboveCents, order.currency, inrRateOf(store));
  if (limit > 0 && order.totalCents > limit) {
    const [earlier] = await tx
      .select({ n: count() })
      .from(orders)
      .where(and(sameEmail, ne(orders.id, order.id), inArray(orders.status, ["paid", "fulfilled"])));
    if ((earlier?.n ?? 0) === 0)
      reasons.push({
        rule: "first-order",
        message: `First order from ${order.email}: ${formatMoney(order.totalCents, order.currency)}, above the ${formatMoney(limit, order.currency)} a first order may come to`,
        figures: { totalCents: order.totalCents, limitCents: limit },
      });
  }

  const perHour = store.holdOrdersPerHour;
  if (perHour > 0) {
    const counted: Array<[HoldReason["rule"], string, SQL | null]> = [
      ["email-rate", `from ${order.email}`, sameEmail],
      [
        "client-rate",
        "from one client address",
        order.clientRef ? eq(orders.clientRef, order.clientRef) : null,
      ],
      [
        "card-rate",
        "paid with one card",
        signals.cardFingerprint
          ? or(eq(orders.cardFingerprint, signals.cardFingerprint), eq(orders.id, order.id))!
          : null,
      ],
    ];
    for (const [rule, what, which] of counted) {
      if (!which) continue;
      const n = await inThePastHour(tx, order, which);
      if (n > perHour)
        reasons.push({
          rule,
          message: `${n} orders in the past hour ${what}: more than the ${perHour} allowed`,
          figures: { orders: n, limit: perHour },
        });
    }
  }

  if (store.holdOnRadarRisk && order.paymentMethod === "stripe") {
    if (signals.riskLevel && RISKY_LEVELS.includes(signals.riskLevel))
      reasons.push({
        rule: "radar-risk",
        message:
          signals.riskLevel === "unreadable"
            ? "Stripe Radar's verdict on the payment could not be read"
            : `Stripe Radar rates the payment's risk ${signals.riskLevel}`,
        figures: { riskLevel: signals.riskLevel },
      });
    if (signals.reviewOpened)
      reasons.push({
        rule: "radar-review",
        message: "Stripe Radar opened a review of the payment",
        figures: {},
      });
  }
  return reasons;
}
