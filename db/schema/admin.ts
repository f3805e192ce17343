import { index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { jsonb } from "./json";

/** Every write of the admin area: who, what, when, and the record before and after. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    /** The admin's e-mail (a customer's, for what they did themselves: licence.reveal). */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_created_idx").on(table.createdAt),
    index("audit_log_entity_idx").on(table.entity, table.entityId),
  ],
);
