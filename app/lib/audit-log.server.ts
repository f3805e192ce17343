import type { Database, Transaction } from "~db/client.server";
import { auditLog } from "~db/schema";

export type AuditEntry = {
  actor: string;
  action: string;
  entity: string;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
};

/**
 * Records an admin write in the audit log (read on the admin's audit page); call it in the same transaction as the
 * write. Any module that changes the store on an admin's behalf writes here (orders' lifecycle, products, settings),
 * and so does a customer's sight of a secret (a licence key revealed on /user/licences, with the customer's e-mail
 * as the actor).
 */
export async function recordAudit(tx: Database | Transaction, entry: AuditEntry) {
  await tx.insert(auditLog).values({
    actor: entry.actor,
    action: entry.action,
    entity: entry.entity,
    entityId: String(entry.entityId),
    before: entry.before === undefined ? null : JSON.parse(JSON.stringify(entry.before)),
    after: entry.after === undefined ? null : JSON.parse(JSON.stringify(entry.after)),
  });
}
