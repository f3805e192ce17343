import { consumeLimits, giveBackLimits, LIMITS, waitText } from "~/lib/rate-limit.server";
import type { CheckoutInput } from "./schemas";
import { placeOrder, type OrdersContext, type PlaceOrderResult } from "./orders.server";

export type LimitedPlaceOrderResult =
  | PlaceOrderResult
  | { ok: false; limited: true; retryAfterSeconds: number; message: string };

const unpaidOrderLimits = (client: string, email: string) => [
  { limit: LIMITS.unpaidOrdersPerClient, key: client },
  { limit: LIMITS.unpaidOrdersPerEmail, key: email.trim().toLowerCase() },
];

/**
 * Places an order within the limits on unpaid orders (per client address and per buyer's e-mail, shared by every
 * process through the database). The attempt is counted first, so a burst of concurrent orders cannot slip past,
 * and given back when it placed no unpaid order: refused, paid at once (test payments, a total of 0.00), or the
 * same order sent twice.
 */
export async function placeOrderWithinLimits(
  ctx: OrdersContext,
  input: CheckoutInput,
  userId: string | null,
  client: string,
): Promise<LimitedPlaceOrderResult> {
  // A test payment pays the order as it is placed: nothing is held, nothing to limit.
  if (input.paymentMethod === "sandbox" || input.paymentMethod === "none")
    return placeOrder(ctx, input, userId, client);
  const checks = unpaidOrderLimits(client, input.email);
  const limited = await consumeLimits(ctx.db, checks);
  if (!limited.ok)
    return {
      ok: false,
      limited: true,
      retryAfterSeconds: limited.retryAfterSeconds,
      message: `You have placed several unpaid orders in a short time. Pay for those first, or wait ${waitText(limited.retryAfterSeconds)} before placing another.`,
    };
  let result: PlaceOrderResult | undefined;
  try {
    result = await placeOrder(ctx, input, userId, client);
    return result;
  } finally {
    if (!result || !result.ok || result.replayed || result.status !== "pending_payment")
      await giveBackLimits(ctx.db, checks);
  }
}
