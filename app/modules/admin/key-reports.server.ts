/**
 * The owner's queue of keys customers reported broken (/admin/key-reports): each report answered with a key from the
 * same pool in place of the old one, or turned down with a reply the customer reads.
 */
import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Transaction } from "~db/client.server";
import { licenceKeyReports, licenceKeys, orderLines, orders, user } from "~db/schema";
import { LICENCE_REPORT_STATUSES } from "~db/schema/orders";
import { recordAudit } from "~/lib/audit-log.server";
import { nameWithVariant } from "~/modules/catalogue/variants";
import { enqueueEmail } from "~/modules/email/outbox.server";
import { keyReplacedEmail, keyReportRejectedEmail } from "~/modules/orders/emails/order-emails";
import { orderLink } from "~/modules/orders/lifecycle.server";
import { type OrdersContext, recordEvent } from "~/modules/orders/orders.server";
import { type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const keyReportQuery = listQuerySchema(["created"], { sort: "created", dir: "asc" }).extend({
  /** Which reports: the open ones (the queue) by default, or those answered one way, or all. */
  status: z
    .enum([...LICENCE_REPORT_STATUSES, "all"])
    .optional()
    .catch(undefined)
    .transform((value) => value ?? "open"),
});

export type KeyReportQuery = z.infer<typeof keyReportQuery>;

export type KeyReportRow = {
  id: number;
  status: (typeof LICENCE_REPORT_STATUSES)[number];
  reason: string;
  reply: string | null;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
  product: string;
  variant: string | null;
  keyHint: string;
  replacementHint: string | null;
  customer: { name: string | null; email: string };
  orderNumber: number;
  /** Unused keys left in the reported key's pool: what a replacement would come from. */
  poolAvailable: number;
};

const replacement = sql`replacement`;

/** The reports, open ones first (oldest first: the longest waiting), then the answered ones, newest answer first. */
export async function listKeyReports(db: Database, query: KeyReportQuery): Promise<ListPage<KeyReportRow>> {
  const where = query.status === "all" ? undefined : eq(licenceKeyReports.status, query.status);
  const rows = await db
    .select({
      id: licenceKeyReports.id,
      status: licenceKeyReports.status,
      reason: licenceKeyReports.reason,
      reply: licenceKeyReports.reply,
      createdAt: licenceKeyReports.createdAt,
      resolvedAt: licenceKeyReports.resolvedAt,
      resolvedBy: licenceKeyReports.resolvedBy,
      product: orderLines.name,
      variant: orderLines.variantLabel,
      keyHint: licenceKeys.keyHint,
      replacementHint: sql<
        string | null
      >`(select ${replacement}.key_hint from ${licenceKeys} ${replacement} where ${replacement}.id = ${licenceKeyReports.replacementKeyId})`,
      customerName: user.name,
      customerEmail: sql<string>`coalesce(${user.email}, ${orders.email})`,
      orderNumber: orders.number,
      poolAvailable: sql<number>`(
        select count(*) from ${licenceKeys} pool
        where pool.product_id = ${licenceKeys.productId}
          and pool.variant_id is not distinct from ${licenceKeys.variantId}
          and pool.order_line_id is null
      )`.mapWith(Number),
    })
    .from(licenceKeyReports)
    .innerJoin(licenceKeys, eq(licenceKeys.id, licenceKeyReports.licenceKeyId))
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(user, eq(user.id, licenceKeyReports.userId))
    .where(where)
    .orderBy(
      sql`${licenceKeyReports.status} <> 'open'`,
      sql`case when ${licenceKeyReports.status} = 'open' then ${licenceKeyReports.createdAt} end asc`,
      desc(licenceKeyReports.resolvedAt),
      desc(licenceKeyReports.id),
    )
    .limit(query.pageSize)
    .offset(offsetOf(query));
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(licenceKeyReports)
    .innerJoin(licenceKeys, eq(licenceKeys.id, licenceKeyReports.licenceKeyId))
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .where(where);
  return {
    total,
    rows: rows.map(({ customerName, customerEmail, createdAt, resolvedAt, ...row }) => ({
      ...row,
      createdAt: createdAt.toISOString(),
      resolvedAt: resolvedAt?.toISOString() ?? null,
      customer: { name: customerName, email: customerEmail },
    })),
  };
}

/** How many reports wait for an answer (the admin's menu and dashboard). */
export async function openKeyReportCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenceKeyReports)
    .where(eq(licenceKeyReports.status, "open"));
  return row?.n ?? 0;
}

export type KeyReportOutcome =
  | { ok: true; message: string; orderNumber: number }
  | { ok: false; status: 404 | 409; message: string };

class Refused extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The report, its key, the key's line and order, locked: a second admin answering the same report waits here and
 * then finds it answered; a refund revoking the key meanwhile is seen too. The order is locked before its key, as
 * every order action takes them (a refund locks the order, then revokes its keys), so the two cannot deadlock.
 */
async function lockOpenReport(tx: Transaction, reportId: number, { live }: { live: boolean }) {
  const [report] = await tx
    .select()
    .from(licenceKeyReports)
    .where(eq(licenceKeyReports.id, reportId))
    .for("update");
  if (!report) throw new Refused(404, "There is no such report: it may have been removed.");
  if (report.status !== "open")
    throw new Refused(409, `This report was answered already (${report.status}): nothing changed.`);
  const gone = new Refused(409, "The reported key no longer belongs to an order: nothing to answer.");
  const [owner] = await tx
    .select({ orderId: orderLines.orderId })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .where(eq(licenceKeys.id, report.licenceKeyId));
  if (!owner) throw gone;
  const [order] = await tx.select().from(orders).where(eq(orders.id, owner.orderId)).for("update");
  const [row] = await tx
    .select({ key: licenceKeys, line: orderLines })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .where(eq(licenceKeys.id, report.licenceKeyId))
    .for("update", { of: licenceKeys });
  if (!row || !order) throw gone;
  // A key revoked since (its line refunded) is not replaced; the report can still be turned down.
  if (live && row.key.revokedAt !== null)
    throw new Refused(
      409,
      "The reported key was withdrawn since (its order line was refunded): nothing to replace.",
    );
  return { report, order, ...row };
}

async function answer(
  ctx: OrdersContext,
  work: (tx: Transaction) => Promise<{ message: string; orderNumber: number }>,
): Promise<KeyReportOutcome> {
  try {
    const done = await ctx.db.transaction(work);
    ctx.mailer.kick();
    return { ok: true, ...done };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, status: error.status, message: error.message };
    throw error;
  }
}

/**
 * "Replace the key": an unused key of the same pool (product and variant) goes to the same order line with the old
 * key's expiry (the term runs from the payment, it does not restart), the old key is revoked and points at its
 * successor, the report is closed, and the customer gets the new key by e-mail; all in one transaction. The new key
 * is taken as delivery takes keys (FOR UPDATE SKIP LOCKED), so a checkout or another replacement racing for the
 * last key never gets the same one: the loser finds the pool empty and nothing is changed.
 */
export async function replaceReportedKey(
  ctx: OrdersContext,
  reportId: number,
  admin: string,
): Promise<KeyReportOutcome> {
  return answer(ctx, async (tx) => {
    const { report, key: old, line, order } = await lockOpenReport(tx, reportId, { live: true });
    const name = nameWithVariant(line.name, line.variantLabel);
    const [fresh] = await tx
      .select({ id: licenceKeys.id, hint: licenceKeys.keyHint, sealed: licenceKeys.keyCiphertext })
      .from(licenceKeys)
      .where(
        and(
          eq(licenceKeys.productId, old.productId),
          old.variantId === null ? isNull(licenceKeys.variantId) : eq(licenceKeys.variantId, old.variantId),
          isNull(licenceKeys.orderLineId),
        ),
      )
      .orderBy(asc(licenceKeys.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!fresh) throw new Refused(409, `No unused key for ${name} is left: import keys first.`);
    await tx
      .update(licenceKeys)
      // Copied in the database, to the microsecond: the same moment as the old key, not a rounded copy of it.
      .set({
        orderLineId: line.id,
        assignedAt: sql`now()`,
        expiresAt: sql`(select reported.expires_at from ${licenceKeys} reported where reported.id = ${old.id})`,
      })
      .where(eq(licenceKeys.id, fresh.id));
    await tx
      .update(licenceKeys)
      .set({ revokedAt: sql`now()`, replacedByKeyId: fresh.id })
      .where(eq(licenceKeys.id, old.id));
    await tx
      .update(licenceKeyReports)
      .set({
        status: "replaced",
        resolvedAt: sql`now()`,
        resolvedBy: `admin:${admin}`,
        replacementKeyId: fresh.id,
      })
      .where(eq(licenceKeyReports.id, report.id));
    await recordEvent(
      tx,
      order.id,
      "key_replaced",
      `admin:${admin}`,
      `Licence key ${old.keyHint} of ${name} replaced by ${fresh.hint}, as reported`,
      { oldKeyId: old.id, newKeyId: fresh.id, reportId: report.id },
    );
    await recordAudit(tx, {
      actor: admin,
      action: "licence.replace",
      entity: "licence_key",
      entityId: old.id,
      before: { key: old.id, hint: old.keyHint, report: report.id, status: "open" },
      after: { key: fresh.id, hint: fresh.hint, order: order.number, status: "replaced" },
    });
    await enqueueEmail(tx, {
      ...keyReplacedEmail({
        number: order.number,
        email: order.email,
        link: orderLink(ctx, order),
        storeName: ctx.storeName,
        line: name,
        oldHint: old.keyHint,
        key: ctx.cipher.decrypt(fresh.sealed),
        expiresAt: old.expiresAt?.toISOString() ?? null,
      }),
      orderId: order.id,
    });
    return {
      message: `Replaced: ${name} of order #${order.number} now has the key ${fresh.hint}; the customer was e-mailed.`,
      orderNumber: order.number,
    };
  });
}

/** "Reject": the report is closed with a reply the customer reads (page and e-mail); they may report the key again. */
export async function rejectKeyReport(
  ctx: OrdersContext,
  reportId: number,
  reply: string,
  admin: string,
): Promise<KeyReportOutcome> {
  return answer(ctx, async (tx) => {
    const { report, key, line, order } = await lockOpenReport(tx, reportId, { live: false });
    const name = nameWithVariant(line.name, line.variantLabel);
    await tx
      .update(licenceKeyReports)
      .set({ status: "rejected", resolvedAt: sql`now()`, resolvedBy: `admin:${admin}`, reply })
      .where(eq(licenceKeyReports.id, report.id));
    await recordAudit(tx, {
      actor: admin,
      action: "licence.report.reject",
      entity: "licence_key",
      entityId: key.id,
      before: { report: report.id, status: "open" },
      after: { report: report.id, status: "rejected", reply, order: order.number },
    });
    await enqueueEmail(tx, {
      ...keyReportRejectedEmail({
        number: order.number,
        email: order.email,
        link: orderLink(ctx, order),
        storeName: ctx.storeName,
        line: name,
        oldHint: key.keyHint,
        reply,
      }),
      orderId: order.id,
    });
    return {
      message: `Rejected: the customer of order #${order.number} was e-mailed your reply.`,
      orderNumber: order.number,
    };
  });
}
