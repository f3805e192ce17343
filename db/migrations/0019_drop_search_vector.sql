DROP INDEX "products_search_vector_idx";--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "search_vector";