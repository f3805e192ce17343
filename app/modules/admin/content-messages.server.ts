import { and, asc, count, desc, eq, ilike, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { contactMessages, quoteRequests, services } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { MESSAGE_KINDS, type MessageKind } from "./content-schemas";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

/** The inbox's query: which box, searched by e-mail, open or handled, newest first unless asked otherwise. */
export const messageListQuery = listQuerySchema(["received", "email"], {
  sort: "received",
  dir: "desc",
}).extend({
  kind: z.enum(MESSAGE_KINDS).catch("contact"),
  status: z.enum(["all", "open", "handled"]).catch("all"),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

export type InboxRow = {
  id: number;
  name: string;
  email: string;
  /** The contact message's subject, or the service (and package) a quote is for. */
  subject: string;
  createdAt: Date;
  handledAt: Date | null;
};

/** The two boxes and the columns that mean the same in each (contact messages are handled when read). */
const boxes = {
  contact: {
    table: contactMessages,
    id: contactMessages.id,
    email: contactMessages.email,
    createdAt: contactMessages.createdAt,
    handledAt: contactMessages.readAt,
  },
  quote: {
    table: quoteRequests,
    id: quoteRequests.id,
    email: quoteRequests.email,
    createdAt: quoteRequests.createdAt,
    handledAt: quoteRequests.handledAt,
  },
} as const;

/** One page of contact messages or quote requests. */
export async function listInbox(db: Database, query: MessageListQuery): Promise<ListPage<InboxRow>> {
  const box = boxes[query.kind];
  const filters: SQL[] = [];
  if (query.q) filters.push(ilike(box.email, likePattern(query.q)));
  if (query.status === "open") filters.push(isNull(box.handledAt));
  if (query.status === "handled") filters.push(isNotNull(box.handledAt));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = query.sort === "email" ? box.email : box.createdAt;
  const order = [
    query.dir === "asc" ? asc(column) : desc(column),
    query.dir === "asc" ? asc(box.id) : desc(box.id),
  ];
  const rows =
    query.kind === "contact"
      ? db
          .select({
            id: contactMessages.id,
            name: contactMessages.name,
            email: contactMessages.email,
            subject: contactMessages.subject,
            createdAt: contactMessages.createdAt,
            handledAt: contactMessages.readAt,
          })
          .from(contactMessages)
          .where(where)
          .orderBy(...order)
          .limit(query.pageSize)
          .offset(offsetOf(query))
      : db
          .select({
            id: quoteRequests.id,
            name: quoteRequests.name,
            email: quoteRequests.email,
            subject: sql<string>`coalesce(${services.title}, ${quoteRequests.serviceSlug}) || case when ${quoteRequests.packageName} <> '' then ' · ' || ${quoteRequests.packageName} else '' end`,
            createdAt: quoteRequests.createdAt,
            handledAt: quoteRequests.handledAt,
          })
          .from(quoteRequests)
          .leftJoin(services, eq(services.slug, quoteRequests.serviceSlug))
          .where(where)
          .orderBy(...order)
          .limit(query.pageSize)
          .offset(offsetOf(query));
  const [list, [total]] = await Promise.all([rows, db.select({ n: count() }).from(box.table).where(where)]);
  return { rows: list, total: total?.n ?? 0 };
}

/** How many messages of each box nobody has handled yet. */
export async function openCounts(db: Database): Promise<Record<MessageKind, number>> {
  const [[contact], [quote]] = await Promise.all([
    db.select({ n: count() }).from(contactMessages).where(isNull(contactMessages.readAt)),
    db.select({ n: count() }).from(quoteRequests).where(isNull(quoteRequests.handledAt)),
  ]);
  return { contact: contact?.n ?? 0, quote: quote?.n ?? 0 };
}

export async function getContactMessage(db: Database, id: number) {
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  return row ?? null;
}

export async function getQuoteRequest(db: Database, id: number) {
  const [row] = await db
    .select({ request: quoteRequests, serviceTitle: services.title })
    .from(quoteRequests)
    .leftJoin(services, eq(services.slug, quoteRequests.serviceSlug))
    .where(eq(quoteRequests.id, id));
  return row ? { ...row.request, serviceTitle: row.serviceTitle ?? row.request.serviceSlug } : null;
}

/** Marks a message handled (or open again); false when there is no such message. */
export async function setMessageHandled(
  db: Database,
  kind: MessageKind,
  id: number,
  handled: boolean,
  admin: string,
): Promise<boolean> {
  const box = boxes[kind];
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: box.id, handledAt: box.handledAt })
      .from(box.table)
      .where(eq(box.id, id))
      .for("update");
    if (!before) return false;
    const stamp = handled ? sql`coalesce(${box.handledAt}, now())` : null;
    const [after] = await (kind === "contact"
      ? tx
          .update(contactMessages)
          .set({ readAt: stamp })
          .where(eq(contactMessages.id, id))
          .returning({ id: contactMessages.id, handledAt: contactMessages.readAt })
      : tx
          .update(quoteRequests)
          .set({ handledAt: stamp })
          .where(eq(quoteRequests.id, id))
          .returning({ id: quoteRequests.id, handledAt: quoteRequests.handledAt }));
    await recordAudit(tx, {
      actor: admin,
      action: handled ? "message.handled" : "message.reopened",
      entity: kind === "contact" ? "contact_message" : "quote_request",
      entityId: id,
      before,
      after,
    });
    return true;
  });
}
