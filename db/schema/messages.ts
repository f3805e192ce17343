import { index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** Messages from the contact form, read by the admin. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [
    index("contact_messages_created_idx").on(table.createdAt),
    // The inbox's search by e-mail (ILIKE '%...%').
    index("contact_messages_email_trgm_idx").using("gin", table.email.op("gin_trgm_ops")),
  ],
);

/** Quote requests from the digital-service pages, read by the admin. */
export const quoteRequests = pgTable(
  "quote_requests",
  {
    id: serial("id").primaryKey(),
    serviceSlug: text("service_slug").notNull(),
    packageName: text("package_name").notNull().default(""),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    company: text("company").notNull().default(""),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
  },
  (table) => [
    index("quote_requests_created_idx").on(table.createdAt),
    index("quote_requests_email_trgm_idx").using("gin", table.email.op("gin_trgm_ops")),
  ],
);
