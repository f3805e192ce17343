import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { licenceKeys, orderLines, orders } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { nameWithVariant } from "~/modules/catalogue/variants";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { orderApprovedEmail } from "./emails/order-emails";
import { settleFulfilment } from "./fulfilment.server";
import { allocateKeys } from "./licence-keys.server";
import { lockForAction, OrderActionError, orderLink } from "./lifecycle.server";
import { type OrdersContext, recordEvent } from "./orders.server";
import { refundLocked } from "./refunds.server";

/**
 * The store's decision on a held order (ADR 0035). Both lock the order and go through the lifecycle's guards, so of
 * two admins deciding at once (or one form sent twice) the second is told the decision already taken and changes
 * nothing.
 */

/** Approves a held order: its keys are taken from the pool now and e-mailed; keys the pool lacks follow later. */
export async function approveHeldOrder(ctx: OrdersContext, number: number, admin: string) {
  const result = await ctx.db.transaction(async (tx) => {
    const { order, lines } = await lockForAction(tx, number, "approve");
    const software = lines.filter((line) => line.kind === "software" && line.refundedAt === null);
    const missing = await allocateKeys(tx, software, order.paidAt ?? sql`now()`);
    await tx
      .update(orders)
      .set({ status: "paid", holdDecision: "approved", awaitingKeys: missing, updatedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await recordEvent(tx, order.id, "approved", `admin:${admin}`, "Checked and approved");
    const settled = await settleFulfilment(tx, order.id);
    const delivered = await tx
      .select({ lineId: licenceKeys.orderLineId, sealed: licenceKeys.keyCiphertext })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(and(eq(orderLines.orderId, order.id), isNull(licenceKeys.revokedAt)))
      .orderBy(asc(licenceKeys.id));
    if (delivered.length > 0)
      await recordEvent(
        tx,
        order.id,
        "keys_delivered",
        "system",
        `${delivered.length} licence key${delivered.length > 1 ? "s" : ""} e-mailed`,
      );
    if (missing > 0)
      await recordEvent(
        tx,
        order.id,
        "keys_waiting",
        "system",
        `${missing} licence key${missing > 1 ? "s" : ""} to follow by e-mail`,
      );
    await enqueueEmail(tx, {
      ...orderApprovedEmail({
        number: order.number,
        email: order.email,
        link: orderLink(ctx, order),
        storeName: ctx.storeName,
        stillMissing: missing,
        toShip: settled.toShip,
        lines: software.map((line) => ({
          name: nameWithVariant(line.name, line.variantLabel),
          keys: delivered
            .filter((key) => key.lineId === line.id)
            .map((key) => ctx.cipher.decrypt(key.sealed)),
        })),
      }),
      orderId: order.id,
    });
    const [after] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actor: admin,
      action: "order.approve",
      entity: "order",
      entityId: number,
      before: { status: order.status, reasons: order.holdReasons },
      after: { status: after!.status, keysDelivered: delivered.length, keysMissing: missing },
    });
    return { status: after!.status, keysDelivered: delivered.length, keysMissing: missing };
  });
  ctx.mailer.kick();
  return result;
}

const rejectInput = z.object({
  reason: z
    .string()
    .trim()
    .max(500, "Write the reason in at most 500 characters")
    .optional()
    .transform((value) => value ?? ""),
});

/** What the customer of a rejected order reads, before any reason the store adds. */
const REJECTED = "We could not approve this order after checking it";

/**
 * Rejects a held order: refunded in full the way it was paid (Stripe gives the card its money back; a test
 * payment is recorded), its reserved printers and routers back in stock. No key was taken from the pool while it
 * was held, so none has to go back. The customer gets the refund e-mail with its credit note.
 */
export async function rejectHeldOrder(
  ctx: OrdersContext,
  number: number,
  input: z.input<typeof rejectInput>,
  admin: string,
) {
  const parsed = rejectInput.safeParse(input);
  if (!parsed.success)
    throw new OrderActionError(parsed.error.issues[0]?.message ?? "Check the reason", "reason");
  const note = parsed.data.reason;
  await ctx.db.transaction(async (tx) => {
    const { order, lines } = await lockForAction(tx, number, "reject");
    await recordEvent(
      tx,
      order.id,
      "rejected",
      `admin:${admin}`,
      `${REJECTED}: refunded in full${note ? `. ${note}` : ""}`,
    );
    const refund = await refundLocked(
      tx,
      ctx,
      order,
      lines,
      { mode: "full", reason: note ? `${REJECTED}. ${note}` : REJECTED },
      admin,
    );
    // After the refund has moved it out of "held": a held order has no decision yet (orders_hold_check).
    await tx.update(orders).set({ holdDecision: "rejected" }).where(eq(orders.id, order.id));
    await recordAudit(tx, {
      actor: admin,
      action: "order.reject",
      entity: "order",
      entityId: number,
      before: { status: order.status, reasons: order.holdReasons },
      after: {
        status: "refunded",
        refundedCents: refund.amount,
        reason: note,
        providerReference: refund.providerReference,
      },
    });
  });
  ctx.mailer.kick();
}
