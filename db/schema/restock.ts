import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { user } from "./accounts";
import { products, productVariants } from "./catalogue";
import { outboxEmails } from "./orders";

/**
 * A visitor's "tell me when it is back" for a product (or one variant of it) that cannot be ordered now. Nothing
 * but the confirmation link is sent until the address confirms (`confirmed_at`); once it is back, one e-mail goes
 * and `notified_at` is set in the same transaction, by an update only one process can make. One pending request per
 * address and product (and variant); a new one may be made once the last was notified.
 */
export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    variantId: integer("variant_id").references(() => productVariants.id, { onDelete: "cascade" }),
    /** In lower case. */
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    emailId: integer("email_id").references(() => outboxEmails.id, { onDelete: "set null" }),
  },
  (table) => [
    uniqueIndex("stock_alerts_pending_idx")
      .on(table.productId, sql`coalesce("variant_id", 0)`, table.email)
      .where(sql`"notified_at" is null`),
    index("stock_alerts_email_idx").on(table.email),
    index("stock_alerts_waiting_idx")
      .on(table.productId)
      .where(sql`"notified_at" is null and "confirmed_at" is not null`),
    check(
      "stock_alerts_email_check",
      sql`${table.email} = lower(${table.email}) and length(${table.email}) between 3 and 254`,
    ),
  ],
);

/**
 * A signed-in customer's cart, as their browser last told it (the cart itself lives in the browser): what the
 * saved-cart reminder lists. `fingerprint` names the lines and quantities; a reminder sets `reminded_fingerprint`
 * to it, so the same cart is never reminded twice and a changed cart is a new one. `currency` is the one the
 * customer shops in, so the reminder prices the lines as they saw them. Goes with the account.
 */
export const savedCarts = pgTable(
  "saved_carts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    lines: jsonb("lines").notNull(),
    fingerprint: text("fingerprint").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    remindedFingerprint: text("reminded_fingerprint"),
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    emailId: integer("email_id").references(() => outboxEmails.id, { onDelete: "set null" }),
    currency: text("currency").$type<"USD" | "INR">().notNull().default("USD"),
  },
  (table) => [
    index("saved_carts_updated_idx").on(table.updatedAt),
    check("saved_carts_currency_check", sql`${table.currency} in ('USD', 'INR')`),
  ],
);

/** Customers who asked for no saved-cart reminders. */
export const savedCartOptOuts = pgTable("saved_cart_opt_outs", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
