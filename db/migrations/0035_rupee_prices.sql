ALTER TABLE "product_variants" ADD COLUMN "inr_price_cents" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "inr_price_cents" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_inr_price_check" CHECK ("product_variants"."inr_price_cents" is null or "product_variants"."inr_price_cents" > 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_inr_price_check" CHECK ("products"."inr_price_cents" is null or "products"."inr_price_cents" > 0);