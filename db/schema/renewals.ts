import { sql } from "drizzle-orm";
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./accounts";
import { licenceKeys, outboxEmails } from "./orders";

/**
 * A renewal reminder written for a key at one of the settings' day marks (30, 7, 0 days before it expires). The
 * unique pair is what makes it once across processes: the job inserts here and writes the e-mail in the same
 * transaction, and a second process's insert of the same pair does nothing, so it writes no e-mail either.
 */
export const renewalReminders = pgTable(
  "renewal_reminders",
  {
    id: serial("id").primaryKey(),
    licenceKeyId: integer("licence_key_id")
      .notNull()
      .references(() => licenceKeys.id, { onDelete: "cascade" }),
    days: integer("days").notNull(),
    emailId: integer("email_id").references(() => outboxEmails.id, { onDelete: "set null" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("renewal_reminders_key_days_idx").on(table.licenceKeyId, table.days),
    check("renewal_reminders_days_check", sql`${table.days} between 0 and 365`),
  ],
);

/**
 * Customers who asked for no renewal reminders: an account (by its id) or a guest (by the address the order was
 * placed with, in lower case). Turning reminders back on deletes the row.
 */
export const renewalReminderOptOuts = pgTable(
  "renewal_reminder_opt_outs",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("renewal_reminder_opt_outs_user_idx").on(table.userId),
    uniqueIndex("renewal_reminder_opt_outs_email_idx").on(table.email),
    check(
      "renewal_reminder_opt_outs_who_check",
      sql`(${table.userId} is null) <> (${table.email} is null) and (${table.email} is null or ${table.email} = lower(${table.email}))`,
    ),
  ],
);
