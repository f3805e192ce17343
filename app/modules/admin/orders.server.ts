import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Transaction } from "~db/client.server";
import {
  licenceKeys,
  type Order,
  orderEvents,
  type OrderLine,
  orderLines,
  orderNotes,
  orderRefunds,
  orders,
  orderShipments,
  ORDER_STATUSES,
} from "~db/schema";
import { releaseStock } from "~/modules/catalogue/stock.server";
import { formatMoney } from "~/lib/money";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { orderPath } from "~/modules/orders/access.server";
import { documentNumber, linePaidCents } from "~/modules/orders/invoice-document";
import { documentAttachment, issueCreditNoteFor } from "~/modules/orders/invoices.server";
import { allocateKeys } from "~/modules/orders/licence-keys.server";
import { keysDeliveredEmail, refundEmail, shipmentEmail } from "~/modules/orders/order-emails";
import { markPaid, type OrdersContext, recordEvent } from "~/modules/orders/orders.server";
import { refundCardPayment } from "~/modules/orders/stripe.server";
import { cancelUnpaidOrder } from "~/modules/orders/unpaid-orders.server";
import { type Carrier, carrierName, lineState, trackingLink } from "~/modules/orders/tracking";
import { recordAudit } from "./audit.server";
import { customerNoteSchema, orderNoteSchema, refundInput, shipmentInput } from "./orders-schemas";

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

/** An order for the admin: lines with key hints (never the keys themselves), shipments, refunds, notes, events. */
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
        .filter((hint) => hint.lineId === line.id && hint.revokedAt !== null)
        .map((hint) => hint.hint),
    })),
    events,
    shipments,
    refunds,
    notes,
  };
}

/** An action the order's state refuses; `field` names the form's field the message belongs beside, if one. */
export class AdminActionError extends Error {
  override name = "AdminActionError";
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * What the admin can do to an order in its present state; the page offers these buttons only, and the functions
 * below check the same rules again under a row lock.
 */
export function orderActions(
  order: Pick<Order, "status" | "paymentMethod" | "totalCents" | "refundedCents">,
  lines: Array<Pick<OrderLine, "kind" | "shipmentId" | "refundedAt">>,
) {
  return {
    markPaid: order.status === "pending_payment" && order.paymentMethod === "bank-transfer",
    ship:
      order.status === "paid" &&
      lines.some((l) => l.kind === "physical" && l.shipmentId === null && l.refundedAt === null),
    cancel: order.status === "pending_payment",
    refund:
      (order.status === "paid" || order.status === "fulfilled") && order.refundedCents < order.totalCents,
  };
}

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

const orderLink = (ctx: OrdersContext, order: Pick<Order, "number" | "accessVersion">) =>
  `${ctx.env.PUBLIC_URL}${orderPath(ctx.env.AUTH_SECRET, order)}`;

/** Licence keys still owed to an order: its software lines not refunded, less the keys they already have. */
async function missingKeys(tx: Transaction, orderId: number): Promise<number> {
  const lines = await tx
    .select({ id: orderLines.id, quantity: orderLines.quantity })
    .from(orderLines)
    .where(
      and(eq(orderLines.orderId, orderId), eq(orderLines.kind, "software"), isNull(orderLines.refundedAt)),
    );
  if (lines.length === 0) return 0;
  const counts = await tx
    .select({ lineId: licenceKeys.orderLineId, n: count() })
    .from(licenceKeys)
    .where(
      inArray(
        licenceKeys.orderLineId,
        lines.map((line) => line.id),
      ),
    )
    .groupBy(licenceKeys.orderLineId);
  const have = new Map(counts.map((row) => [row.lineId, row.n]));
  return lines.reduce((sum, line) => sum + Math.max(0, line.quantity - (have.get(line.id) ?? 0)), 0);
}

/** Physical lines of an order not refunded and not shipped yet. */
async function linesToShip(tx: Transaction, orderId: number) {
  return tx
    .select()
    .from(orderLines)
    .where(
      and(
        eq(orderLines.orderId, orderId),
        eq(orderLines.kind, "physical"),
        isNull(orderLines.shipmentId),
        isNull(orderLines.refundedAt),
      ),
    )
    .orderBy(asc(orderLines.id));
}

/**
 * Puts a paid order's status where its lines are: complete only when every line still owed (not refunded) has its
 * keys or has shipped. Records the moment it becomes complete.
 */
async function settleFulfilment(tx: Transaction, orderId: number) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order || (order.status !== "paid" && order.status !== "fulfilled"))
    return { awaitingKeys: order?.awaitingKeys ?? 0, toShip: 0 };
  const awaitingKeys = await missingKeys(tx, orderId);
  const toShip = (await linesToShip(tx, orderId)).length;
  const status = awaitingKeys === 0 && toShip === 0 ? "fulfilled" : "paid";
  await tx
    .update(orders)
    .set({ awaitingKeys, status, updatedAt: sql`now()` })
    .where(eq(orders.id, orderId));
  if (status === "fulfilled" && order.status !== "fulfilled")
    await recordEvent(tx, orderId, "fulfilled", "system", "Everything delivered");
  return { awaitingKeys, toShip };
}

export type ShipmentInput = {
  trackingNumber: string;
  carrier: Carrier;
  /** The name of a carrier the store does not know (carrier "other"). */
  otherCarrier?: string;
  trackingUrl?: string;
  lineId?: number;
};

/**
 * Records a parcel: the chosen physical line (or every one still to ship), its carrier, tracking number and link.
 * The order is complete once every line is delivered; the customer gets the tracking link by e-mail.
 */
export async function addShipment(ctx: OrdersContext, number: number, input: ShipmentInput, admin: string) {
  const parsed = shipmentInput.safeParse(input);
  if (!parsed.success)
    throw new AdminActionError(parsed.error.issues[0]?.message ?? "Check the shipment's fields");
  const { trackingNumber: tracking, trackingUrl, lineId } = parsed.data;
  // A carrier the store does not know is kept by its name, which is what the customer reads.
  const carrier = parsed.data.carrier === "other" ? parsed.data.otherCarrier! : parsed.data.carrier;
  await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    const physical = await tx
      .select({ id: orderLines.id })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, "physical")));
    if (physical.length === 0) throw new AdminActionError(`Order #${number} has nothing to ship`);
    if (order.status !== "paid")
      throw new AdminActionError(`Order #${number} must be paid and not yet complete to ship`);
    const open = await linesToShip(tx, order.id);
    const shipping = lineId === undefined ? open : open.filter((line) => line.id === lineId);
    if (shipping.length === 0)
      throw new AdminActionError(
        lineId === undefined
          ? `Order #${number} has nothing left to ship`
          : "That line has shipped already, was refunded, or is not a physical item of this order",
      );
    const [shipment] = await tx
      .insert(orderShipments)
      .values({
        orderId: order.id,
        carrier,
        trackingNumber: tracking,
        trackingUrl: trackingUrl ?? null,
        createdBy: admin,
      })
      .returning();
    await tx
      .update(orderLines)
      .set({ shipmentId: shipment!.id })
      .where(
        inArray(
          orderLines.id,
          shipping.map((line) => line.id),
        ),
      );
    await tx
      .update(orders)
      .set({ trackingNumber: tracking, updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    const names = shipping.map((line) => `${line.quantity} × ${line.name}`);
    await recordEvent(
      tx,
      order.id,
      "shipped",
      `admin:${admin}`,
      `Shipped ${names.join(", ")} with ${carrierName(carrier)}, tracking number ${tracking}`,
      { shipmentId: shipment!.id, lineIds: shipping.map((line) => line.id) },
    );
    const settled = await settleFulfilment(tx, order.id);
    await enqueueEmail(tx, {
      ...shipmentEmail({
        number: order.number,
        email: order.email,
        link: orderLink(ctx, order),
        storeName: ctx.storeName,
        carrier: carrierName(carrier),
        trackingNumber: tracking,
        trackingLink: trackingLink(shipment!),
        lines: names,
        stillToShip: settled.toShip,
      }),
      orderId: order.id,
    });
    const [after] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actor: admin,
      action: "order.ship",
      entity: "order",
      entityId: number,
      before: { status: order.status, trackingNumber: order.trackingNumber },
      after: {
        status: after!.status,
        trackingNumber: tracking,
        carrier,
        trackingUrl: trackingUrl ?? null,
        lineIds: shipping.map((line) => line.id),
      },
    });
  });
  ctx.mailer.kick();
}

/** Gives an order's reserved stock back (once), with an order event saying how much. */
async function releaseOrderStock(tx: Transaction, orderId: number, admin: string, lineIds?: number[]) {
  const released = await releaseStock(tx, orderId, lineIds);
  if (released > 0)
    await recordEvent(
      tx,
      orderId,
      "stock_released",
      `admin:${admin}`,
      `${released} unit${released > 1 ? "s" : ""} back in stock`,
    );
}

/** Only an unpaid order is cancelled (a paid one is refunded instead); the customer gets an e-mail saying so. */
export async function cancelOrder(ctx: OrdersContext, number: number, admin: string) {
  await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    if (order.status !== "pending_payment")
      throw new AdminActionError(
        order.status === "cancelled"
          ? `Order #${number} is already cancelled`
          : `Order #${number} is paid: refund it instead`,
      );
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

export type RefundInput = z.input<typeof refundInput>;

/**
 * Gives money back for a paid order: all that is left, one line, or an amount, never more than was paid less
 * earlier refunds. Card payments are refunded through Stripe; bank and test payments are recorded (the store sends
 * a bank transfer by hand). Refunded lines' keys are revoked: kept against the order, never sold again, hidden
 * from the customer. A refund that reaches the total refunds the whole order. The customer gets an e-mail.
 */
export async function refundOrder(ctx: OrdersContext, number: number, input: RefundInput, admin: string) {
  const parsed = refundInput.safeParse(input);
  if (!parsed.success)
    throw new AdminActionError(parsed.error.issues[0]?.message ?? "Check the refund's fields");
  const form = parsed.data;
  const result = await ctx.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, number);
    if (order.status !== "paid" && order.status !== "fulfilled")
      throw new AdminActionError(
        order.status === "refunded"
          ? `Order #${number} is already refunded in full`
          : `Order #${number} has not been paid`,
      );
    const remaining = order.totalCents - order.refundedCents;
    if (remaining <= 0) throw new AdminActionError(`Order #${number} is already refunded in full`);
    const lines = await tx
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.id));
    const open = lines.filter((line) => line.refundedAt === null);
    let amount: number;
    let refunded: OrderLine[];
    if (form.mode === "full") {
      amount = remaining;
      refunded = open;
    } else if (form.mode === "line") {
      const line = open.find((candidate) => candidate.id === form.lineId);
      if (!line)
        throw new AdminActionError("That line is refunded already or is not a line of this order", "lineId");
      refunded = [line];
      // The last line refunded takes whatever is left with it (shipping included): the order is refunded in full.
      // A line gives back what was paid for it: its price less its discount, with its tax.
      amount =
        open.length === 1 ? remaining : Math.min(linePaidCents(line, order.pricesIncludeTax), remaining);
    } else {
      if (form.amountCents > remaining)
        throw new AdminActionError(
          `The refund can be at most ${formatMoney(remaining)}: what was paid less earlier refunds`,
          "amount",
        );
      amount = form.amountCents;
      refunded = amount === remaining ? open : [];
    }
    const full = order.refundedCents + amount === order.totalCents;
    if (full) refunded = open;
    const kind = full && form.mode !== "line" ? "full" : form.mode;
    let providerReference: string | null = null;
    if (order.paymentMethod === "stripe") {
      try {
        providerReference = await refundCardPayment(
          ctx,
          order,
          amount,
          `order-${order.id}-refund-${order.refundedCents}-${amount}`,
        );
      } catch (error) {
        throw new AdminActionError(`Stripe did not refund the payment: ${(error as Error).message}`);
      }
    }
    const lineIds = refunded.map((line) => line.id);
    const [refund] = await tx
      .insert(orderRefunds)
      .values({
        orderId: order.id,
        amountCents: amount,
        kind,
        lineIds,
        reason: form.reason,
        providerReference,
        createdBy: admin,
      })
      .returning({ id: orderRefunds.id });
    if (lineIds.length > 0) {
      await tx
        .update(orderLines)
        .set({ refundedAt: sql`now()` })
        .where(inArray(orderLines.id, lineIds));
      await tx
        .update(licenceKeys)
        .set({ revokedAt: sql`now()` })
        .where(and(inArray(licenceKeys.orderLineId, lineIds), isNull(licenceKeys.revokedAt)));
    }
    await tx
      .update(orders)
      .set({
        refundedCents: order.refundedCents + amount,
        paymentStatus: full ? "refunded" : "partially_refunded",
        ...(full ? { status: "refunded" as const, awaitingKeys: 0 } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(orders.id, order.id));
    const names = refunded.map((line) => `${line.quantity} × ${line.name}`);
    await recordEvent(
      tx,
      order.id,
      "refunded",
      `admin:${admin}`,
      full && form.mode === "full"
        ? `Refunded in full: ${formatMoney(amount)}`
        : `Refunded ${formatMoney(amount)}${names.length > 0 ? ` for ${names.join(", ")}` : ""}${full ? " (the whole order is now refunded)" : ""}`,
      { amountCents: amount, lineIds },
    );
    // Lines not shipped yet give the printers and routers they reserved back to stock.
    const unshipped = refunded.filter((line) => line.shipmentId === null).map((line) => line.id);
    if (unshipped.length > 0) await releaseOrderStock(tx, order.id, admin, unshipped);
    if (!full) await settleFulfilment(tx, order.id);
    const creditNote = await issueCreditNoteFor(tx, order.id, refund!.id);
    await enqueueEmail(tx, {
      ...refundEmail({
        number: order.number,
        email: order.email,
        link: orderLink(ctx, order),
        storeName: ctx.storeName,
        amountCents: amount,
        totalRefundedCents: order.refundedCents + amount,
        full,
        lines: names,
        reason: form.reason,
        creditNoteNumber: documentNumber(creditNote.kind, creditNote.number),
      }),
      orderId: order.id,
      attachments: [documentAttachment(creditNote)],
    });
    const [after] = await tx.select().from(orders).where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actor: admin,
      action: "order.refund",
      entity: "order",
      entityId: number,
      before: { status: order.status, refundedCents: order.refundedCents },
      after: {
        status: after!.status,
        refundedCents: after!.refundedCents,
        amountCents: amount,
        kind,
        lineIds,
        reason: form.reason,
        providerReference,
      },
    });
    return { amount, full };
  });
  ctx.mailer.kick();
  return result;
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

/**
 * New keys in a pool: paid orders waiting for them get what there is now, oldest first, and an e-mail with each
 * delivery (not only the last); the history says how many were sent and how many are still to come. Returns the
 * numbers of the orders that got keys.
 */
export async function deliverAwaitingKeys(ctx: OrdersContext, productId: number) {
  const delivered = await ctx.db.transaction(async (tx) => {
    const waiting = await tx
      .select()
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
        .where(
          and(
            eq(orderLines.orderId, order.id),
            eq(orderLines.kind, "software"),
            isNull(orderLines.refundedAt),
          ),
        )
        .orderBy(asc(orderLines.id));
      const keysOf = () =>
        tx
          .select({ id: licenceKeys.id, lineId: licenceKeys.orderLineId, sealed: licenceKeys.keyCiphertext })
          .from(licenceKeys)
          .where(
            and(
              inArray(
                licenceKeys.orderLineId,
                lines.map((line) => line.id),
              ),
              isNull(licenceKeys.revokedAt),
            ),
          )
          .orderBy(asc(licenceKeys.id));
      if (lines.length === 0) continue;
      const before = new Set((await keysOf()).map((key) => key.id));
      await allocateKeys(tx, lines);
      const fresh = (await keysOf()).filter((key) => !before.has(key.id));
      if (fresh.length === 0) continue;
      const settled = await settleFulfilment(tx, order.id);
      await recordEvent(
        tx,
        order.id,
        "keys_delivered",
        "system",
        `${fresh.length} licence key${fresh.length > 1 ? "s" : ""} e-mailed${
          settled.awaitingKeys > 0 ? `; ${settled.awaitingKeys} still to follow` : ""
        }`,
        { count: fresh.length, stillMissing: settled.awaitingKeys },
      );
      await enqueueEmail(tx, {
        ...keysDeliveredEmail({
          number: order.number,
          email: order.email,
          link: orderLink(ctx, order),
          storeName: ctx.storeName,
          stillMissing: settled.awaitingKeys,
          lines: lines.map((line) => ({
            name: line.name,
            keys: fresh.filter((key) => key.lineId === line.id).map((key) => ctx.cipher.decrypt(key.sealed)),
          })),
        }),
        orderId: order.id,
      });
      done.push(order.number);
    }
    return done;
  });
  if (delivered.length > 0) ctx.mailer.kick();
  return delivered;
}

/** What the admin's order page shows of an order's life: each line's state, parcels with links, refunds, notes. */
export function orderLifeView(view: NonNullable<Awaited<ReturnType<typeof adminOrder>>>) {
  const states = new Map(
    view.lines.map((line) => [
      line.id,
      lineState({
        kind: line.kind,
        quantity: line.quantity,
        refunded: line.refundedAt !== null,
        shipped: line.shipmentId !== null,
        keyCount: line.keyHints.length,
        cancelled: view.order.status === "cancelled",
      }),
    ]),
  );
  return {
    states,
    shipments: view.shipments.map((shipment) => ({
      id: shipment.id,
      carrier: carrierName(shipment.carrier),
      trackingNumber: shipment.trackingNumber,
      link: trackingLink(shipment),
      lines: view.lines
        .filter((line) => line.shipmentId === shipment.id)
        .map((line) => `${line.quantity} × ${line.name}`),
      createdAt: shipment.createdAt.toISOString(),
    })),
    refunds: view.refunds.map((refund) => ({
      id: refund.id,
      amountCents: refund.amountCents,
      kind: refund.kind,
      reason: refund.reason,
      createdBy: refund.createdBy,
      createdAt: refund.createdAt.toISOString(),
    })),
    notes: view.notes.map((note) => ({
      id: note.id,
      body: note.body,
      createdBy: note.createdBy,
      createdAt: note.createdAt.toISOString(),
    })),
  };
}
