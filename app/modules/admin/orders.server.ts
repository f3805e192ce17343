import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import {
  licenceKeys,
  orderEvents,
  orderLines,
  orderNotes,
  orderRefunds,
  orders,
  orderShipments,
  ORDER_STATUSES,
} from "~db/schema";
import { lockedOrder } from "~/modules/orders/lifecycle.server";
import type { OrdersContext } from "~/modules/orders/orders.server";
import { recordAudit } from "~/lib/audit-log.server";
import { customerNoteSchema, orderNoteSchema } from "~/modules/orders/action-schemas";

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

/** The list's search and status filter, shared by the page and its CSV export. */
export function orderListWhere(query: Pick<OrderListQuery, "q" | "status">) {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(orders.status, query.status));
  if (query.q) {
    const number = Number(query.q.replace(/^#/, ""));
    const byEmail = ilike(orders.email, `${query.q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`);
    filters.push(
      Number.isSafeInteger(number) && number > 0 ? or(eq(orders.number, number), byEmail)! : byEmail,
    );
  }
  return filters.length > 0 ? and(...filters) : undefined;
}

export const orderSortColumn = (query: Pick<OrderListQuery, "sort">) => sortColumns[query.sort];

/** One page of orders, searchable by number or e-mail, sortable; indexes keep it fast on large stores. */
export async function listOrders(db: OrdersContext["db"], query: OrderListQuery) {
  const where = orderListWhere(query);
  const column = sortColumns[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select({
        number: orders.number,
        email: orders.email,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        isTest: orders.isTest,
        cancelReason: orders.cancelReason,
        totalCents: orders.totalCents,
        currency: orders.currency,
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

/** An order's id by its number; null when there is none. */
export async function orderIdOf(db: OrdersContext["db"], number: number): Promise<number | null> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  return row?.id ?? null;
}

/**
 * An order for the admin: lines with key hints (never the keys themselves), shipments, refunds, notes, events
 * (order-view.ts `adminOrderView` makes the page of it).
 */
export async function adminOrder(db: OrdersContext["db"], number: number) {
  const [order] = await db.select().from(orders).where(eq(orders.number, number));
  if (!order) return null;
  const [lines, events, hints, shipments, refunds, notes] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id)),
    db
      .select({
        lineId: licenceKeys.orderLineId,
        hint: licenceKeys.keyHint,
        revokedAt: licenceKeys.revokedAt,
        replaced: sql<boolean>`${licenceKeys.replacedByKeyId} is not null`,
        costCents: licenceKeys.costCents,
      })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(licenceKeys.id)),
    db
      .select()
      .from(orderShipments)
      .where(eq(orderShipments.orderId, order.id))
      .orderBy(asc(orderShipments.id)),
    db.select().from(orderRefunds).where(eq(orderRefunds.orderId, order.id)).orderBy(asc(orderRefunds.id)),
    db
      .select()
      .from(orderNotes)
      .where(eq(orderNotes.orderId, order.id))
      .orderBy(desc(orderNotes.createdAt), desc(orderNotes.id)),
  ]);
  return {
    order,
    lines: lines.map((line) => ({
      ...line,
      keyHints: hints
        .filter((hint) => hint.lineId === line.id && hint.revokedAt === null)
        .map((hint) => hint.hint),
      revokedHints: hints
        .filter((hint) => hint.lineId === line.id && hint.revokedAt !== null && !hint.replaced)
        .map((hint) => hint.hint),
      // Keys a customer reported broken and the store replaced: out of use like revoked ones, for another reason.
      replacedHints: hints
        .filter((hint) => hint.lineId === line.id && hint.replaced)
        .map((hint) => hint.hint),
      // What the line's keys cost the store: a key replaced as broken was paid for too.
      keyCosts: hints
        .filter((hint) => hint.lineId === line.id && (hint.revokedAt === null || hint.replaced))
        .map((hint) => hint.costCents),
    })),
    events,
    shipments,
    refunds,
    notes,
  };
}

/** An internal note on an order: admins read it on the order page, the customer never does. */
export async function addOrderNote(db: OrdersContext["db"], number: number, body: string, admin: string) {
  const text = orderNoteSchema.parse(body);
  await db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    const [note] = await tx
      .insert(orderNotes)
      .values({ orderId: order.id, body: text, createdBy: admin })
      .returning({ id: orderNotes.id });
    await recordAudit(tx, {
      actor: admin,
      action: "order.note",
      entity: "order",
      entityId: number,
      after: { noteId: note!.id, body: text },
    });
  });
}

/** The note the customer reads on their order page; empty removes it. */
export async function setCustomerNote(db: OrdersContext["db"], number: number, note: string, admin: string) {
  const text = customerNoteSchema.parse(note);
  await db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    await tx
      .update(orders)
      .set({ customerNote: text, updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actor: admin,
      action: "order.customer_note",
      entity: "order",
      entityId: number,
      before: { customerNote: order.customerNote },
      after: { customerNote: text },
    });
  });
}
