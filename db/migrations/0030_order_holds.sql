ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "client_ref" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_fingerprint" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hold_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "hold_decision" text;--> statement-breakpoint
CREATE INDEX "orders_client_ref_idx" ON "orders" USING btree ("client_ref","created_at") WHERE "orders"."client_ref" is not null;--> statement-breakpoint
CREATE INDEX "orders_card_fingerprint_idx" ON "orders" USING btree ("card_fingerprint","created_at") WHERE "orders"."card_fingerprint" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_hold_check" CHECK (("orders"."hold_decision" is null or "orders"."hold_decision" in ('approved', 'rejected'))
        and ("orders"."status" <> 'held' or ("orders"."hold_decision" is null and jsonb_array_length("orders"."hold_reasons") > 0)));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending_payment', 'paid', 'held', 'fulfilled', 'cancelled', 'refunded'));