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

/**
 * A change of an order's status the store makes (`action`, as the lifecycle's guards know it): in one transaction
 * with its audit entry (`audited`), which records the status before and the one `change` leaves; the e-mail the change
 * queues goes out once it is committed.
 */
async function changeStatus(
  ctx: OrdersContext,
  number: number,
  admin: string,
  action: AdminAction,
  audited: string,
  change: (tx: Transaction, order: Order) => Promise<Order["status"]>,
) {
  await ctx.db.transaction(async (tx) => {
    const { order } = await lockForAction(tx, number, action);
    const status = await change(tx, order);
    await recordAudit(tx, {
      actor: admin,
      action: audited,
      entity: "order",
      entityId: number,
      before: { status: order.status },
      after: { status },
    });
  });
  ctx.mailer.kick();
}

/** A bank transfer arrived: paid, keys allocated, receipt with keys e-mailed. */
export async function markOrderPaid(ctx: OrdersContext, number: number, admin: string) {
  await changeStatus(ctx, number, admin, "markPaid", "order.mark_paid", async (tx, order) => {
    await markPaid(tx, ctx, order.id, `admin:${admin}`, "Payment received (recorded by the store)");
    const [after] = await tx.select().from(orders).where(eq(orders.id, order.id));
    return after!.status;
  });
}

/** Only an unpaid order is cancelled (a paid one is refunded instead); the customer gets an e-mail saying so. */
export async function cancelOrder(ctx: OrdersContext, number: number, admin: string) {
  await changeStatus(ctx, number, admin, "cancel", "order.cancel", async (tx, order) => {
    await cancelUnpaidOrder(tx, ctx, order, { by: "store", admin });
    return "cancelled";
  });
}
