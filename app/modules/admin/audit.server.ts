import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { auditLog } from "~db/schema";
import { likePattern, type ListPage, offsetOf } from "./list-query";

const filterText = z.string().trim().max(200).catch("");

/**
 * The audit log's filters, read from the URL: text found anywhere in who, what or which entity (`q`), text in the
 * actor, action or entity alone, and one record exactly (`entity` and `entityId`, as links from other pages use).
 */
export const auditListQuery = z.object({
  q: filterText,
  actor: filterText,
  action: filterText,
  entity: filterText,
  entityId: filterText,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(5).max(100).catch(25),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export type AuditRow = typeof auditLog.$inferSelect;

/** One page of the audit log, newest first (audit_log_created_idx keeps that order cheap). */
export async function listAudit(db: Database, query: AuditListQuery): Promise<ListPage<AuditRow>> {
  const filters: SQL[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    filters.push(
      or(
        ilike(auditLog.actor, pattern),
        ilike(auditLog.action, pattern),
        ilike(auditLog.entity, pattern),
        eq(auditLog.entityId, query.q),
      )!,
    );
  }
  if (query.actor) filters.push(ilike(auditLog.actor, likePattern(query.actor)));
  if (query.action) filters.push(ilike(auditLog.action, likePattern(query.action)));
  if (query.entityId) {
    // One record: its entity named exactly, so audit_log_entity_idx finds it.
    if (query.entity) filters.push(eq(auditLog.entity, query.entity));
    filters.push(eq(auditLog.entityId, query.entityId));
  } else if (query.entity) filters.push(ilike(auditLog.entity, likePattern(query.entity)));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
