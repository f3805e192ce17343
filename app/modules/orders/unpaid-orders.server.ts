import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Transaction } from "~db/client.server";
import { type Order, orders } from "~db/schema";
import { releaseStock } from "~/modules/catalogue/stock.server";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { orderPath } from "./access.server";
import { releaseCodeUse } from "./checkout-pricing.server";
import { startsFrom, TRANSITIONS } from "./lifecycle";
import { orderCancelledEmail, orderExpiredEmail } from "./emails/order-emails";
import { type OrdersContext, ordersContext, recordEvent } from "./orders.server";
import { getSettings } from "./settings.server";

/**
 * An unpaid order holds what it took when it was placed: units of counted printers and routers, and a use of its
 * discount code. Cancelling it (the store, or its expiry) gives both back exactly once: the order's status changes
 * from pending_payment in the same transaction, under the order's row lock, and only an order still pending is
 * cancelled.
 */

export type Cancellation = { by: "store"; admin: string } | { by: "expiry"; hours: number };

export const cancelReasonOf = (cancellation: Cancellation) =>
  cancellation.by === "store"
    ? "Cancelled by the store"
    : `Expired: not paid within ${cancellation.hours} hour${cancellation.hours === 1 ? "" : "s"}`;

/** Cancels a locked unpaid order, gives back its stock and code use, and e-mails the buyer why. */
export async function cancelUnpaidOrder(
  tx: Transaction,
  ctx: Pick<OrdersContext, "env" | "storeName">,
  order: Order,
  cancellation: Cancellation,
) {
  if (!startsFrom(cancellation.by === "store" ? "cancel" : "expire", order.status))
    throw new Error(`Order #${order.number} is not unpaid`);
  const actor = cancellation.by === "store" ? `admin:${cancellation.admin}` : "system";
  const reason = cancelReasonOf(cancellation);
  await tx
    .update(orders)
    .set({ status: "cancelled", cancelReason: reason, updatedAt: sql`now()` })
    .where(eq(orders.id, order.id));
  await recordEvent(tx, order.id, cancellation.by === "store" ? "cancelled" : "expired", actor, reason);
  const brief = {
    number: order.number,
    email: order.email,
    link: `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`,
    storeName: ctx.storeName,
    awaitedBankTransfer: order.paymentMethod === "bank-transfer",
  };
  await enqueueEmail(tx, {
    ...(cancellation.by === "store"
      ? orderCancelledEmail(brief)
      : orderExpiredEmail({ ...brief, hours: cancellation.hours })),
    orderId: order.id,
  });
  const released = await releaseStock(tx, order.id);
  if (released > 0)
    await recordEvent(
      tx,
      order.id,
      "stock_released",
      actor,
      `${released} unit${released > 1 ? "s" : ""} back in stock`,
    );
  if (await releaseCodeUse(tx, order.promotionId))
    await recordEvent(
      tx,
      order.id,
      "code_released",
      actor,
      `The use of discount code ${order.discountCode} was given back`,
    );
}

/** Orders expired in one pass at most; the next pass takes the rest. */
const BATCH = 50;

/**
 * Expires the unpaid orders older than the settings allow (bank transfers and card checkouts each have their own
 * hours). Every process runs it; SKIP LOCKED leaves an order another process is expiring (or the owner is marking
 * paid) to that one. Returns the numbers of the orders it expired.
 */
export async function expireUnpaidOrders(ctx: OrdersContext): Promise<number[]> {
  const settings = await getSettings(ctx.db);
  const olderThan = (hours: number) => sql`now() - make_interval(hours => ${hours})`;
  const expired = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(orders)
      .where(
        and(
          inArray(orders.status, [...TRANSITIONS.expire.from]),
          or(
            and(
              eq(orders.paymentMethod, "bank-transfer"),
              lt(orders.createdAt, olderThan(settings.unpaidBankTransferHours)),
            ),
            and(
              eq(orders.paymentMethod, "stripe"),
              lt(orders.createdAt, olderThan(settings.unpaidCardHours)),
            ),
          ),
        ),
      )
      .orderBy(asc(orders.createdAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    for (const order of due)
      await cancelUnpaidOrder(tx, ctx, order, {
        by: "expiry",
        hours: order.paymentMethod === "stripe" ? settings.unpaidCardHours : settings.unpaidBankTransferHours,
      });
    return due.map((order) => order.number);
  });
  if (expired.length > 0) ctx.mailer.kick();
  return expired;
}

/** Expires unpaid orders now and then every `intervalMs`, logging what it did; a failed pass is logged and retried. */
export function startOrderExpiry(
  server: Pick<OrdersContext, "db" | "env" | "logger" | "mailer" | "cipher">,
  intervalMs = 60_000,
) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    const { logger } = server;
    try {
      // The store's name is read at each pass: a store renamed in the admin signs the next e-mail with it.
      const numbers = await expireUnpaidOrders(await ordersContext(server));
      if (numbers.length > 0) logger.info({ orders: numbers }, "unpaid orders expired");
    } catch (error) {
      logger.error({ err: error }, "expiring unpaid orders failed");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
