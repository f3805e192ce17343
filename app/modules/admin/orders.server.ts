import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Transaction } from "~db/client.server";
import {
  licenceKeys,
  type Order,
  orderEvents,
  type OrderLine,
  orderLines,
  orders,
  ORDER_STATUSES,
} from "~db/schema";
import { releaseStock } from "~/modules/catalogue/stock.server";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { orderPath } from "~/modules/orders/access.server";
import { allocateKeys, keysForOrder } from "~/modules/orders/licence-keys.server";
import { markPaid, type OrdersContext, recordEvent } from "~/modules/orders/orders.server";
import { recordAudit } from "./audit.server";

export const orderListQuery = z.object({
  q: z.string().trim().max(200).catch(""),
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  sort: z.enum(["created", "number", "total", "status", "email"]).catch("created"),
  dir: z.enum(["asc", "desc"]).catch("desc"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(5).max(100).catch(25),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

const sortColumns = {
  created: orders.createdAt,
  number: orders.number,
  total: orders.totalCents,
  status: orders.status,
  email: orders.email,
};

/** One page of orders, searchable by number or e-mail, sortable; indexes keep it fast on large stores. */
export async function listOrders(db: OrdersContext["db"], query: OrderListQuery) {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(orders.status, query.status));
  if (query.q) {
    const number = Number(query.q.replace(/^#/, ""));
    const byEmail = ilike(orders.email, `${query.q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`);
    filters.push(
      Number.isSafeInteger(number) && number > 0 ? or(eq(orders.number, number), byEmail)! : byEmail,
    );
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = sortColumns[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select({
        number: orders.number,
        email: orders.email,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        totalCents: orders.totalCents,
        awaitingKeys: orders.awaitingKeys,
        trackingNumber: orders.trackingNumber,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), desc(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** An order for the admin: lines with key hints (never the keys themselves), events, addresses. */
export async function adminOrder(db: OrdersContext["db"], number: number) {
  const [order] = await db.select().from(orders).where(eq(orders.number, number));
  if (!order) return null;
  const [lines, events, hints] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    db
      .select({ lineId: licenceKeys.orderLineId, hint: licenceKeys.keyHint })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, order.id)),
  ]);
  return {
    order,
    lines: lines.map((line) => ({
      ...line,
      keyHints: hints.filter((hint) => hint.lineId === line.id).map((hint) => hint.hint),
    })),
    events,
  };
}

export class AdminActionError extends Error {
  override name = "AdminActionError";
}

/**
 * What the admin can do to an order in its present state; the page offers these buttons only, and the functions
 * below check the same rules again under a row lock.
 */
export function orderActions(
  order: Pick<Order, "status" | "paymentMethod" | "trackingNumber">,
  lines: Array<Pick<OrderLine, "kind">>,
) {
  return {
    markPaid: order.status === "pending_payment" && order.paymentMethod === "bank-transfer",
    ship:
      order.status === "paid" && order.trackingNumber === null && lines.some((l) => l.kind === "physical"),
    cancel: order.status === "pending_payment",
    refund: order.status === "paid" || order.status === "fulfilled",
  };
}
export type OrderActions = ReturnType<typeof orderActions>;

async function lockedOrder(tx: Transaction, number: number) {
  const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
  if (!order) throw new AdminActionError(`There is no order #${number}`);
  return order;
}

/** A bank transfer arrived: paid, keys allocated, receipt with keys e-mailed. */
export async function markOrderPaid(ctx: OrdersContext, number: number, admin: string) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    if (order.status !== "pending_payment")
      throw new AdminActionError(`Order #${number} is not waiting for payment`);
    // A card payment is confirmed by Stripe's signed webhook, never by hand.
    if (order.paymentMethod !== "bank-transfer")
      throw new AdminActionError(`Order #${number} is paid by card: Stripe confirms its payment`);
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

export async function addShipment(ctx: OrdersContext, number: number, trackingNumber: string, admin: string) {
  const tracking = trackingNumber.trim();
  if (!/^[A-Za-z0-9 -]{4,60}$/.test(tracking))
    throw new AdminActionError("Enter a tracking number of 4 to 60 letters, digits, spaces or dashes");
  await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    const physical = await tx
      .select({ id: orderLines.id })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, "physical")));
    if (physical.length === 0) throw new AdminActionError(`Order #${number} has nothing to ship`);
    if (order.status !== "paid")
      throw new AdminActionError(`Order #${number} must be paid and not yet complete to ship`);
    const status = order.awaitingKeys === 0 ? "fulfilled" : "paid";
    await tx
      .update(orders)
      .set({ trackingNumber: tracking, status, updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, order.id, "shipped", `admin:${admin}`, `Shipped, tracking number ${tracking}`);
    if (status === "fulfilled")
      await recordEvent(tx, order.id, "fulfilled", "system", "Everything delivered");
    const link = `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`;
    await enqueueEmail(tx, {
      kind: "shipment",
      orderId: order.id,
      to: order.email,
      subject: `Order #${number} has shipped`,
      text: `Your order #${number} from ${ctx.storeName} is on its way.\nTracking number: ${tracking}\n\nView your order: ${link}\n`,
      html: `<p>Your order #${number} from ${ctx.storeName} is on its way.</p><p>Tracking number: <strong>${tracking}</strong></p><p><a href="${link}">View your order</a></p>`,
    });
    await recordAudit(tx, {
      actor: admin,
      action: "order.ship",
      entity: "order",
      entityId: number,
      before: { status: order.status, trackingNumber: order.trackingNumber },
      after: { status, trackingNumber: tracking },
    });
  });
  ctx.mailer.kick();
}

/** Gives an order's reserved stock back (once), with an order event saying how much. */
async function releaseOrderStock(tx: Transaction, orderId: number, admin: string) {
  const released = await releaseStock(tx, orderId);
  if (released > 0)
    await recordEvent(
      tx,
      orderId,
      "stock_released",
      `admin:${admin}`,
      `${released} unit${released > 1 ? "s" : ""} back in stock`,
    );
}

/** Only an unpaid order is cancelled; a paid one is refunded instead. */
export async function cancelOrder(ctx: OrdersContext, number: number, admin: string) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    if (order.status !== "pending_payment")
      throw new AdminActionError(`Order #${number} is paid: refund it instead`);
    await tx
      .update(orders)
      .set({ status: "cancelled", updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, order.id, "cancelled", `admin:${admin}`, "Cancelled by the store");
    await releaseOrderStock(tx, order.id, admin);
    await recordAudit(tx, {
      actor: admin,
      action: "order.cancel",
      entity: "order",
      entityId: number,
      before: { status: order.status },
      after: { status: "cancelled" },
    });
  });
}

/**
 * Records a refund of a paid order. The money goes back through the payment provider (Stripe's dashboard, or a bank
 * transfer); delivered licence keys stay recorded against the order so they are never sold again.
 */
export async function refundOrder(ctx: OrdersContext, number: number, admin: string) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    if (order.status !== "paid" && order.status !== "fulfilled")
      throw new AdminActionError(`Order #${number} has not been paid`);
    await tx
      .update(orders)
      .set({ status: "refunded", paymentStatus: "refunded", awaitingKeys: 0, updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, order.id, "refunded", `admin:${admin}`, "Refunded by the store");
    // Not shipped yet: the printers and routers it reserved go back on sale.
    if (order.trackingNumber === null) await releaseOrderStock(tx, order.id, admin);
    await recordAudit(tx, {
      actor: admin,
      action: "order.refund",
      entity: "order",
      entityId: number,
      before: { status: order.status },
      after: { status: "refunded" },
    });
  });
}

/** New keys in a pool: paid orders waiting for them get them now, oldest first, with an e-mail each. */
export async function deliverAwaitingKeys(ctx: OrdersContext, productId: number) {
  const delivered = await ctx.db.transaction(async (tx) => {
    const waiting = await tx
      .select({ id: orders.id, number: orders.number, email: orders.email })
      .from(orders)
      .where(
        and(
          gt(orders.awaitingKeys, 0),
          eq(orders.status, "paid"),
          inArray(
            orders.id,
            tx.select({ id: orderLines.orderId }).from(orderLines).where(eq(orderLines.productId, productId)),
          ),
        ),
      )
      .orderBy(asc(orders.createdAt))
      .for("update");
    const done: number[] = [];
    for (const order of waiting) {
      const lines = await tx
        .select()
        .from(orderLines)
        .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, "software")));
      const missing = await allocateKeys(tx, lines);
      const physicalPending = await tx
        .select({ n: count() })
        .from(orderLines)
        .innerJoin(orders, eq(orders.id, orderLines.orderId))
        .where(
          and(
            eq(orderLines.orderId, order.id),
            eq(orderLines.kind, "physical"),
            isNull(orders.trackingNumber),
          ),
        );
      const status = missing === 0 && (physicalPending[0]?.n ?? 0) === 0 ? "fulfilled" : "paid";
      await tx
        .update(orders)
        .set({ awaitingKeys: missing, status, updatedAt: sql`now()` })
        .where(eq(orders.id, order.id));
      if (missing === 0) {
        await recordEvent(tx, order.id, "keys_delivered", "system", "Licence keys delivered");
        if (status === "fulfilled")
          await recordEvent(tx, order.id, "fulfilled", "system", "Everything delivered");
        const keys = await keysForOrder(tx, ctx.cipher, order.id);
        const list = lines.map((line) => `${line.name}: ${(keys.get(line.id) ?? []).join(", ")}`).join("\n");
        await enqueueEmail(tx, {
          kind: "licence-keys",
          orderId: order.id,
          to: order.email,
          subject: `Your licence keys for order #${order.number}`,
          text: `Here are the licence keys for your order #${order.number}:\n${list}\n`,
          html: `<p>Here are the licence keys for your order #${order.number}:</p><pre>${list.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!)}</pre>`,
        });
        done.push(order.number);
      }
    }
    return done;
  });
  if (delivered.length > 0) ctx.mailer.kick();
  return delivered;
}
