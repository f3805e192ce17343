-- Product search: full-text ranking plus trigram matching for typos ("nortn" finds Norton).
-- Written by hand: drizzle-kit does not manage extensions or these expression indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_search_fts_idx" ON "products" USING gin (to_tsvector('english', "name" || ' ' || "description"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_name_trgm_idx" ON "products" USING gin (lower("name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "brand_groups_name_trgm_idx" ON "brand_groups" USING gin (lower("name") gin_trgm_ops);
