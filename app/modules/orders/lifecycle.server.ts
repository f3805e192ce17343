import { asc, eq } from "drizzle-orm";
import type { Transaction } from "~db/client.server";
import { type Order, orderLines, orders } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { orderPath } from "./access.server";
import { type AdminAction, refusalOf } from "./lifecycle";
import { markPaid, type OrdersContext } from "./orders.server";
import { cancelUnpaidOrder } from "./unpaid-orders.server";

/** An action the order's state refuses; `field` names the form's field the message belongs beside, if one. */
export class OrderActionError extends Error {
  override name = "OrderActionError";
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The order by its number, locked for the rest of the transaction. */
export async function lockedOrder(tx: Transaction, number: number) {
  const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
  if (!order) throw new OrderActionError(`There is no order #${number}`);
  return order;
}

/**
 * The order locked, with its lines, once the lifecycle's guards allow the action on it as it is now; otherwise the
 * action is refused with the guard's message. `lineId`: the line the action is for, when it is for one.
 */
export async function lockForAction(tx: Transaction, number: number, action: AdminAction, lineId?: number) {
  const order = await lockedOrder(tx, number);
  const lines = await tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.id));
  const refusal = refusalOf(action, order, lines, lineId);
  if (refusal !== undefined) throw new OrderActionError(refusal);
  return { order, lines };
}

export const orderLink = (ctx: OrdersContext, order: Pick<Order, "number" | "accessVersion">) =>
  `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`;

/** A bank transfer arrived: paid, keys allocated, receipt with keys e-mailed. */
export async function markOrderPaid(ctx: OrdersContext, number: number, admin: string) {
  await ctx.db.transaction(async (tx) => {
    const { order } = await lockForAction(tx, number, "markPaid");
    await markPaid(tx, ctx, order.id, `admin:${admin}`, "Payment received (recorded by the store)");
    const [after] = await tx.select().from(orders).where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actor: admin,
      action: "order.mark_paid",
      entity: "order",
      entityId: number,
      before: { status: order.status },
      after: { status: after!.status },
    });
  });
  ctx.mailer.kick();
}

/** Only an unpaid order is cancelled (a paid one is refunded instead); the customer gets an e-mail saying so. */
export async function cancelOrder(ctx: OrdersContext, number: number, admin: string) {
  await ctx.db.transaction(async (tx) => {
    const { order } = await lockForAction(tx, number, "cancel");
    await cancelUnpaidOrder(tx, ctx, order, { by: "store", admin });
    await recordAudit(tx, {
      actor: admin,
      action: "order.cancel",
      entity: "order",
      entityId: number,
      before: { status: order.status },
      after: { status: "cancelled" },
    });
  });
  ctx.mailer.kick();
}
