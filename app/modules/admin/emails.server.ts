import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import {
  invoices,
  orders,
  type OutboxAttachment,
  OUTBOX_STATUSES,
  type OutboxStatus,
  outboxEmails,
} from "~db/schema";
import { documentFilename } from "../orders/invoice-document";
import { enqueueEmail } from "../email/outbox.server";
import { recordAudit } from "~/lib/audit-log.server";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

/**
 * The outbox's list query: searched by recipient or subject, filtered by status, newest first unless asked
 * otherwise. The e-mails themselves (which may hold licence keys) are read only through this module, by admin pages.
 */
export const emailListQuery = listQuerySchema(["created", "to", "subject"], {
  sort: "created",
  dir: "desc",
}).extend({
  status: z.enum(["all", ...OUTBOX_STATUSES]).catch("all"),
});
export type EmailListQuery = z.infer<typeof emailListQuery>;

export type EmailRow = {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  orderNumber: number | null;
};

const rowColumns = {
  id: outboxEmails.id,
  kind: outboxEmails.kind,
  to: outboxEmails.to,
  subject: outboxEmails.subject,
  status: outboxEmails.status,
  attempts: outboxEmails.attempts,
  lastError: outboxEmails.lastError,
  createdAt: outboxEmails.createdAt,
  sentAt: outboxEmails.sentAt,
  orderNumber: orders.number,
};

function toRow<Row extends { createdAt: Date; sentAt: Date | null }>(row: Row) {
  return { ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null };
}

/** The e-mails a search finds: by recipient or subject. */
function searchFilter(q: string): SQL | undefined {
  if (!q) return undefined;
  const pattern = likePattern(q);
  return or(ilike(outboxEmails.to, pattern), ilike(outboxEmails.subject, pattern));
}

/** One page of the outbox. */
export async function listEmails(db: Database, query: EmailListQuery): Promise<ListPage<EmailRow>> {
  const filters: SQL[] = [];
  const search = searchFilter(query.q);
  if (search) filters.push(search);
  if (query.status !== "all") filters.push(eq(outboxEmails.status, query.status));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column =
    query.sort === "to"
      ? outboxEmails.to
      : query.sort === "subject"
        ? outboxEmails.subject
        : outboxEmails.createdAt;
  const direction = query.dir === "asc" ? asc : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select(rowColumns)
      .from(outboxEmails)
      .leftJoin(orders, eq(orders.id, outboxEmails.orderId))
      .where(where)
      .orderBy(direction(column), direction(outboxEmails.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(outboxEmails).where(where),
  ]);
  return { rows: rows.map(toRow), total: total?.n ?? 0 };
}

/** How many e-mails there are in each status, of those a search finds (all without one). */
export async function emailStatusCounts(db: Database, q = ""): Promise<Record<OutboxStatus, number>> {
  const rows = await db
    .select({ status: outboxEmails.status, n: count() })
    .from(outboxEmails)
    .where(searchFilter(q))
    .groupBy(outboxEmails.status);
  const counts = Object.fromEntries(OUTBOX_STATUSES.map((status) => [status, 0])) as Record<
    OutboxStatus,
    number
  >;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** An e-mail's attachments by name, each with the admin's download of the document it attaches. */
async function attachmentLinks(db: Database, attachments: OutboxAttachment[]) {
  if (attachments.length === 0) return [];
  const documents = await db
    .select({ id: invoices.id, kind: invoices.kind, number: invoices.number, orderNumber: orders.number })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(
      inArray(
        invoices.id,
        attachments.map((attachment) => attachment.invoiceId),
      ),
    );
  return attachments.map((attachment) => {
    const document = documents.find((candidate) => candidate.id === attachment.invoiceId);
    return {
      filename: attachment.filename,
      href: document
        ? `/admin/orders/${document.orderNumber}/documents/${documentFilename(document.kind, document.number)}`
        : null,
    };
  });
}

/** One e-mail with its text, HTML and attachments, as the customer gets it; null when there is none. */
export async function getEmail(db: Database, id: number) {
  const [row] = await db
    .select({
      ...rowColumns,
      text: outboxEmails.text,
      html: outboxEmails.html,
      attachments: outboxEmails.attachments,
    })
    .from(outboxEmails)
    .leftJoin(orders, eq(orders.id, outboxEmails.orderId))
    .where(eq(outboxEmails.id, id));
  if (!row) return null;
  return {
    ...toRow(row),
    text: row.text,
    html: row.html,
    attachments: await attachmentLinks(db, row.attachments),
  };
}

/** Every e-mail about one order, oldest first. */
export async function orderEmails(db: Database, orderId: number): Promise<EmailRow[]> {
  const rows = await db
    .select(rowColumns)
    .from(outboxEmails)
    .leftJoin(orders, eq(orders.id, outboxEmails.orderId))
    .where(eq(outboxEmails.orderId, orderId))
    .orderBy(asc(outboxEmails.id));
  return rows.map(toRow);
}

/**
 * Sends an e-mail again: a new message in the outbox with the same recipient, subject and body (the first keeps its
 * own history), audited in the same transaction. The audit entry names the message, never its body, which may hold
 * licence keys. Returns the new message's id, or null when there is no such e-mail.
 */
export async function resendEmail(db: Database, id: number, actor: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [original] = await tx.select().from(outboxEmails).where(eq(outboxEmails.id, id));
    if (!original) return null;
    const { kind, orderId, to, replyTo, subject, text, html, attachments, headers } = original;
    const copyId = await enqueueEmail(tx, {
      kind,
      orderId: orderId ?? undefined,
      to,
      replyTo: replyTo ?? undefined,
      subject,
      text,
      html,
      attachments,
      headers,
    });
    await recordAudit(tx, {
      actor,
      action: "email.resend",
      entity: "email",
      entityId: copyId,
      before: { id: original.id, status: original.status },
      after: {
        id: copyId,
        resentFrom: original.id,
        kind: original.kind,
        to: original.to,
        subject: original.subject,
      },
    });
    return copyId;
  });
}
