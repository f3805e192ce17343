ALTER TABLE "promotions" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_currency_check" CHECK ("orders"."currency" in ('USD', 'INR'));--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_currency_check" CHECK ("promotions"."currency" in ('USD', 'INR'));