CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "waiting_orders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "access_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written (keep this block when the migration is regenerated): order histories written before customers were
-- shown words instead of codes.
UPDATE "order_events" SET "message" = CASE "message"
	WHEN 'Order placed, to be paid by bank-transfer' THEN 'Order placed, to be paid by bank transfer'
	WHEN 'Order placed, to be paid by stripe' THEN 'Order placed, to be paid by card'
	WHEN 'Order placed, to be paid by sandbox' THEN 'Order placed, to be paid with a test payment'
	ELSE "message" END
WHERE "type" = 'placed';--> statement-breakpoint
UPDATE "order_events" SET "message" = CASE
	WHEN "message" = 'Paid with the sandbox method' THEN 'Paid with a test payment'
	WHEN "message" LIKE 'Paid by card (Stripe %)' THEN 'Paid by card'
	ELSE "message" END
WHERE "type" = 'paid';--> statement-breakpoint
UPDATE "order_events" SET "message" = regexp_replace("message", ': the pool is empty$', ' by e-mail')
WHERE "type" = 'keys_waiting';
