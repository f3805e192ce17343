ALTER TABLE "licence_keys" ADD COLUMN "supplier" text;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD COLUMN "cost_cents" integer;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD COLUMN "batch" text;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_cost_check" CHECK ("licence_keys"."cost_cents" between 0 and 100000000);--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_supplier_check" CHECK (length("licence_keys"."supplier") between 1 and 100);--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_batch_check" CHECK (length("licence_keys"."batch") between 1 and 100);