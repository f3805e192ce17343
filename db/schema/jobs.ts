import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The last run of each periodic job (the owner's daily low-stock digest): every process tries, and the one whose
 * update moves `last_run_at` past the interval runs it; the others see the fresh time and skip.
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }).notNull(),
});
