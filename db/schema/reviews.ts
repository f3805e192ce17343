import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { user } from "./accounts";
import { products } from "./catalogue";
import { orders } from "./orders";

export const REVIEW_STATUSES = ["pending", "approved", "hidden"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * A verified buyer's review of a product: 1 to 5 stars and a short plain text, once per product and account. It waits
 * for the owner (pending), who approves it (public) or hides it (off the page), and may reply under it. Sample
 * reviews of the demo store have no account and say so on the page (`sample`).
 */
export const productReviews = pgTable(
  "product_reviews",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The reviewer; null only for a sample review. Deleting the account deletes its reviews. */
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    /** The paid order the product was bought in (evidence for the owner); null for a sample or a deleted order. */
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    rating: smallint("rating").notNull(),
    body: text("body").notNull(),
    /** The name shown with the review, as the customer chose it ("Ana M."). */
    authorName: text("author_name").notNull(),
    status: text("status").$type<ReviewStatus>().notNull().default("pending"),
    /** Demo content, shown marked as a sample and left out of structured data. */
    sample: boolean("sample").notNull().default(false),
    /** The store's public answer, shown under the review. */
    reply: text("reply"),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    moderatedAt: timestamp("moderated_at", { withTimezone: true }),
    /** "admin:<email>" of the last approval or hiding. */
    moderatedBy: text("moderated_by"),
  },
  (table) => [
    // Once per product and account (a sample has no account: null never collides).
    uniqueIndex("product_reviews_product_user_idx").on(table.productId, table.userId),
    index("product_reviews_public_idx").on(table.productId, table.status, table.createdAt),
    index("product_reviews_status_idx").on(table.status, table.createdAt),
    check("product_reviews_rating_check", sql`${table.rating} between 1 and 5`),
    check("product_reviews_body_check", sql`length(btrim(${table.body})) between 10 and 2000`),
    check("product_reviews_author_check", sql`length(btrim(${table.authorName})) between 1 and 40`),
    check("product_reviews_status_check", sql`${table.status} in ('pending', 'approved', 'hidden')`),
    check("product_reviews_owner_check", sql`${table.sample} or ${table.userId} is not null`),
    check(
      "product_reviews_reply_check",
      sql`(${table.reply} is null) = (${table.repliedAt} is null) and (${table.reply} is null or length(btrim(${table.reply})) between 2 and 1000)`,
    ),
  ],
);
