import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Transaction } from "~db/client.server";
import {
  licenceKeyReports,
  licenceKeys,
  type Order,
  type OrderLine,
  orderLines,
  orderRefunds,
  orders,
} from "~db/schema";
import { formatMoney } from "~/lib/money";
import { recordAudit } from "~/lib/audit-log.server";
import { refundInput } from "./action-schemas";
import { releaseStock } from "~/modules/catalogue/stock.server";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { settleFulfilment } from "./fulfilment.server";
import { documentNumber, linePaidCents } from "./invoice-document";
import { documentAttachment, issueCreditNoteFor } from "./invoices.server";
import { lockForAction, OrderActionError, orderLink } from "./lifecycle.server";
import { refundEmail } from "./emails/order-emails";
import { type OrdersContext, recordEvent } from "./orders.server";
import { refundCardPayment } from "./stripe.server";

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
    throw new OrderActionError(parsed.error.issues[0]?.message ?? "Check the refund's fields");
  const form = parsed.data;
  const result = await ctx.db.transaction(async (tx) => {
    const { order, lines } = await lockForAction(tx, number, "refund");
    const refund = await refundLocked(tx, ctx, order, lines, form, admin);
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
        amountCents: refund.amount,
        kind: refund.kind,
        lineIds: refund.lineIds,
        reason: form.reason,
        providerReference: refund.providerReference,
      },
    });
    return { amount: refund.amount, full: refund.full };
  });
  ctx.mailer.kick();
  return result;
}

/**
 * The refund itself, on an order its caller locked and whose state allows it (a refund, or a held order rejected):
 * the money back through its provider, lines and keys, stock given back, the credit note and the customer's e-mail.
 * The caller writes the audit entry.
 */
export async function refundLocked(
  tx: Transaction,
  ctx: OrdersContext,
  order: Order,
  lines: OrderLine[],
  form: z.output<typeof refundInput>,
  admin: string,
) {
  const remaining = order.totalCents - order.refundedCents;
  const open = lines.filter((line) => line.refundedAt === null);
  let amount: number;
  let refunded: OrderLine[];
  if (form.mode === "full") {
    amount = remaining;
    refunded = open;
  } else if (form.mode === "line") {
    const line = open.find((candidate) => candidate.id === form.lineId);
    if (!line)
      throw new OrderActionError("That line is refunded already or is not a line of this order", "lineId");
    refunded = [line];
    // The last line refunded takes whatever is left with it (shipping included): the order is refunded in full.
    // A line gives back what was paid for it: its price less its discount, with its tax.
    amount = open.length === 1 ? remaining : Math.min(linePaidCents(line, order.pricesIncludeTax), remaining);
  } else {
    if (form.amountCents > remaining)
      throw new OrderActionError(
        `The refund can be at most ${formatMoney(remaining, order.currency)}: what was paid less earlier refunds`,
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
      throw new OrderActionError(`Stripe did not refund the payment: ${(error as Error).message}`);
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
  let keysWithdrawn = 0;
  if (lineIds.length > 0) {
    await tx
      .update(orderLines)
      .set({ refundedAt: sql`now()` })
      .where(inArray(orderLines.id, lineIds));
    const revoked = await tx
      .update(licenceKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(inArray(licenceKeys.orderLineId, lineIds), isNull(licenceKeys.revokedAt)))
      .returning({ id: licenceKeys.id });
    keysWithdrawn = revoked.length;
    // A key reported broken and now withdrawn has nothing left to answer: the refund closes its report.
    if (revoked.length > 0)
      await tx
        .update(licenceKeyReports)
        .set({ status: "refunded", resolvedAt: sql`now()`, resolvedBy: `admin:${admin}` })
        .where(
          and(
            inArray(
              licenceKeyReports.licenceKeyId,
              revoked.map((key) => key.id),
            ),
            eq(licenceKeyReports.status, "open"),
          ),
        );
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
      ? `Refunded in full: ${formatMoney(amount, order.currency)}`
      : `Refunded ${formatMoney(amount, order.currency)}${names.length > 0 ? ` for ${names.join(", ")}` : ""}${full ? " (the whole order is now refunded)" : ""}`,
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
      currency: order.currency,
      amountCents: amount,
      totalRefundedCents: order.refundedCents + amount,
      full,
      lines: names,
      keysWithdrawn: keysWithdrawn > 0,
      reason: form.reason,
      creditNoteNumber: documentNumber(creditNote.kind, creditNote.number),
    }),
    orderId: order.id,
    attachments: [documentAttachment(creditNote)],
  });
  return { amount, full, kind, lineIds, providerReference };
}
