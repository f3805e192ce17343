CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"sku" text NOT NULL,
	"label" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"price_cents" integer NOT NULL,
	"original_price_cents" integer NOT NULL,
	"stock" integer,
	"term_months" integer,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_id_product_key" UNIQUE("id","product_id"),
	CONSTRAINT "product_variants_sku_check" CHECK ("product_variants"."sku" ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
	CONSTRAINT "product_variants_label_check" CHECK (length(btrim("product_variants"."label")) between 1 and 100),
	CONSTRAINT "product_variants_price_check" CHECK ("product_variants"."price_cents" >= 0 and "product_variants"."original_price_cents" >= 0),
	CONSTRAINT "product_variants_stock_check" CHECK ("product_variants"."stock" is null or "product_variants"."stock" >= 0),
	CONSTRAINT "product_variants_term_check" CHECK ("product_variants"."term_months" is null or "product_variants"."term_months" between 1 and 120)
);
--> statement-breakpoint
ALTER TABLE "licence_keys" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_id" integer;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_sku" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_label" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "term_months" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_lower_idx" ON "product_variants" USING btree (lower("sku"));--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position","id");--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_variant_fk" FOREIGN KEY ("variant_id","product_id") REFERENCES "public"."product_variants"("id","product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "licence_keys_variant_available_idx" ON "licence_keys" USING btree ("variant_id","id") WHERE "licence_keys"."order_line_id" is null and "licence_keys"."variant_id" is not null;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_variant_check" CHECK (("order_lines"."variant_sku" is null) = ("order_lines"."variant_label" is null)
        and ("order_lines"."term_months" is null or ("order_lines"."variant_sku" is not null and "order_lines"."term_months" > 0)));--> statement-breakpoint
-- Hand-written: what a product's variants show (labels, prices, which are on sale) may be on any page, as a product
-- row is (migration 0024); an order taking a counted variant's units changes only its product's own page.
CREATE FUNCTION "notify_variant_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (SELECT count(*) FROM "old_rows") <> (SELECT count(*) FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id")
		OR EXISTS (
			SELECT 1 FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
			WHERE to_jsonb(o) - 'stock' - 'updated_at' IS DISTINCT FROM to_jsonb(n) - 'stock' - 'updated_at'
		) THEN
		PERFORM pg_notify('content_changes', '');
		RETURN NULL;
	END IF;
	PERFORM "notify_content_tags"(coalesce((
		SELECT array_agg(DISTINCT 'stock:' || o."product_id") FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
		WHERE o."stock" IS DISTINCT FROM n."stock"
	), '{}'));
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "product_variants_content_change" AFTER INSERT OR DELETE OR TRUNCATE ON "product_variants" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "product_variants_update_content_change" AFTER UPDATE ON "product_variants" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "notify_variant_update"();
