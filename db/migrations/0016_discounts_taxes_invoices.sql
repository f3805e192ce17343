CREATE TABLE "document_counters" (
	"kind" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"order_id" integer NOT NULL,
	"refund_id" integer,
	"credit_for_invoice_id" integer,
	"total_cents" integer NOT NULL,
	"tax_cents" integer DEFAULT 0 NOT NULL,
	"snapshot" jsonb NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('invoice', 'credit_note')),
	CONSTRAINT "invoices_credit_check" CHECK (("invoices"."kind" = 'invoice' and "invoices"."refund_id" is null and "invoices"."credit_for_invoice_id" is null)
        or ("invoices"."kind" = 'credit_note' and "invoices"."refund_id" is not null and "invoices"."credit_for_invoice_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"percent_basis_points" integer,
	"amount_cents" integer,
	"scope" text DEFAULT 'order' NOT NULL,
	"scope_values" text[] DEFAULT '{}'::text[] NOT NULL,
	"min_subtotal_cents" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"includes_shipping" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_value_check" CHECK (("promotions"."kind" = 'percent' and "promotions"."percent_basis_points" between 1 and 10000 and "promotions"."amount_cents" is null)
        or ("promotions"."kind" = 'fixed' and "promotions"."amount_cents" > 0 and "promotions"."percent_basis_points" is null)),
	CONSTRAINT "promotions_scope_check" CHECK ("promotions"."scope" in ('order', 'section', 'brands', 'products')),
	CONSTRAINT "promotions_dates_check" CHECK ("promotions"."ends_at" is null or "promotions"."starts_at" is null or "promotions"."ends_at" > "promotions"."starts_at"),
	CONSTRAINT "promotions_limits_check" CHECK ("promotions"."min_subtotal_cents" >= 0 and "promotions"."uses" >= 0
        and ("promotions"."usage_limit" is null or "promotions"."usage_limit" >= 1)
        and ("promotions"."per_customer_limit" is null or "promotions"."per_customer_limit" >= 1))
);
--> statement-breakpoint
CREATE TABLE "tax_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"product_kind" text DEFAULT 'all' NOT NULL,
	"name" text NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"applies_to_shipping" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rules_rate_check" CHECK ("tax_rules"."rate_basis_points" between 0 and 10000),
	CONSTRAINT "tax_rules_kind_check" CHECK ("tax_rules"."product_kind" in ('all', 'software', 'hardware', 'service'))
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_totals_check";--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "taxes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_rate_basis_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promotion_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_breakdown" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_tax_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_refund_id_order_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."order_refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_kind_number_idx" ON "invoices" USING btree ("kind","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_invoice_idx" ON "invoices" USING btree ("order_id") WHERE "invoices"."kind" = 'invoice';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_refund_idx" ON "invoices" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "invoices_issued_idx" ON "invoices" USING btree ("issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_lower_idx" ON "promotions" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "tax_rules_place_idx" ON "tax_rules" USING btree ("country","region");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_discount_tax_check" CHECK ("order_lines"."discount_cents" between 0 and "order_lines"."line_total_cents" and "order_lines"."tax_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_totals_check" CHECK ("orders"."total_cents" = "orders"."subtotal_cents" + "orders"."shipping_cents" - "orders"."discount_cents"
        + case when "orders"."prices_include_tax" then 0 else "orders"."tax_cents" end
        and "orders"."subtotal_cents" >= 0 and "orders"."shipping_cents" >= 0 and "orders"."tax_cents" >= 0
        and "orders"."discount_cents" >= 0 and "orders"."discount_cents" <= "orders"."subtotal_cents" + "orders"."shipping_cents"
        and "orders"."shipping_discount_cents" between 0 and least("orders"."discount_cents", "orders"."shipping_cents")
        and "orders"."shipping_tax_cents" between 0 and "orders"."tax_cents");--> statement-breakpoint
-- Hand-written (keep this block when the migration is regenerated): a credit note names the invoice it corrects,
-- and each document kind starts its count at 0.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credit_for_invoice_id_fk" FOREIGN KEY ("credit_for_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
INSERT INTO "document_counters" ("kind", "last_number") VALUES ('invoice', 0), ('credit_note', 0);
