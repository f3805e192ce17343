ALTER TABLE "promotions" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_currency_check" CHECK ("orders"."currency" in ('USD', 'INR'));--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_currency_check" CHECK ("promotions"."currency" in ('USD', 'INR'));--> statement-breakpoint
-- Hand-written (keep this block when the migration is regenerated): an order's currency never changes after it is
-- placed (ADR 0036); every amount of it, its invoices and its payment are in that currency.
CREATE FUNCTION "orders_currency_is_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.currency IS DISTINCT FROM OLD.currency THEN
		RAISE EXCEPTION 'the currency of order % cannot change (it is %)', OLD.number, OLD.currency USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "orders_currency_is_fixed" BEFORE UPDATE OF "currency" ON "orders" FOR EACH ROW EXECUTE FUNCTION "orders_currency_is_fixed"();
