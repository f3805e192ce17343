import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Attempt counters of the store's own limits (order lookup, new order links, contact and quote forms), kept in the
 * database so every server process counts the same attempts. The shape rate-limiter-flexible's Drizzle store uses:
 * one row per key, incremented by an atomic upsert.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true }),
});
