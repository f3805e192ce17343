import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Transaction } from "~db/client.server";
import { licenceKeys, orderLines, orders, orderShipments } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { shipmentInput } from "./action-schemas";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { isStillToShip, startsFrom, TRANSITIONS } from "./lifecycle";
import { lockForAction, OrderActionError, orderLink } from "./lifecycle.server";
import { allocateKeys } from "./licence-keys.server";
import { nameWithVariant } from "~/modules/catalogue/variants";
import { keysDeliveredEmail, shipmentEmail } from "./emails/order-emails";
import { type OrdersContext, recordEvent } from "./orders.server";
import { type Carrier, carrierName, trackingLink } from "./tracking";

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
      and(
        inArray(
          licenceKeys.orderLineId,
          lines.map((line) => line.id),
        ),
        // A key replaced after it was reported broken is not one of the line's: the key given for it is.
        isNull(licenceKeys.replacedByKeyId),
      ),
    )
    .groupBy(licenceKeys.orderLineId);
  const have = new Map(counts.map((row) => [row.lineId, row.n]));
  return lines.reduce((sum, line) => sum + Math.max(0, line.quantity - (have.get(line.id) ?? 0)), 0);
}

/**
 * Puts a paid order's status where its lines are: complete only when every line still owed (not refunded) has its
 * keys or has shipped. Records the moment it becomes complete.
 */
export async function settleFulfilment(tx: Transaction, orderId: number) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order || !startsFrom("settle", order.status))
    return { awaitingKeys: order?.awaitingKeys ?? 0, toShip: 0 };
  const awaitingKeys = await missingKeys(tx, orderId);
  const lines = await tx
    .select({ kind: orderLines.kind, shipmentId: orderLines.shipmentId, refundedAt: orderLines.refundedAt })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  const toShip = lines.filter(isStillToShip).length;
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
    throw new OrderActionError(parsed.error.issues[0]?.message ?? "Check the shipment's fields");
  const { trackingNumber: tracking, trackingUrl, lineId } = parsed.data;
  // A carrier the store does not know is kept by its name, which is what the customer reads.
  const carrier = parsed.data.carrier === "other" ? parsed.data.otherCarrier! : parsed.data.carrier;
  await ctx.db.transaction(async (tx) => {
    const { order, lines } = await lockForAction(tx, number, "ship", lineId);
    const shipping = lines.filter(
      (line) => isStillToShip(line) && (lineId === undefined || line.id === lineId),
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
          inArray(orders.status, [...TRANSITIONS.deliverKeys.from]),
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
      await allocateKeys(tx, lines, order.paidAt ?? sql`now()`);
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
            name: nameWithVariant(line.name, line.variantLabel),
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
