-- Hand-written: an order taking stock or keys changes only the pages that show that product's availability, so it
-- announces tags on content_changes instead of the empty payload that invalidates every page (migration 0015).
-- `stock:<id>` moves with every change of a product's stock count or free keys (its own page shows the count);
-- `card:<id>` only when what its product card shows of the stock changes (`card_stock`). Pages record the tags they
-- read (app/modules/content/content-version.server.ts). Any other change to a product row is still store-wide.

-- The low-stock mark: the lowStockThreshold setting, or 5 (LOW_STOCK_DEFAULT in app/modules/catalogue/availability.ts).
CREATE FUNCTION "low_stock_threshold"() RETURNS numeric LANGUAGE sql STABLE AS $$
	SELECT coalesce(
		(SELECT CASE WHEN jsonb_typeof("value") = 'number' THEN ("value" #>> '{}')::numeric END
		FROM "settings" WHERE "key" = 'lowStockThreshold'),
		5)
$$;--> statement-breakpoint
-- What a product card shows of a stock count: the count when low (or none left), nothing otherwise.
CREATE FUNCTION "card_stock"("stock" integer) RETURNS integer LANGUAGE sql STABLE AS $$
	SELECT CASE WHEN "stock" <= "low_stock_threshold"() THEN "stock" END
$$;--> statement-breakpoint
-- Announces tags; too many for one notification's payload (8000 bytes) is announced as a store-wide change.
CREATE FUNCTION "notify_content_tags"("tags" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF cardinality("tags") > 200 THEN
		PERFORM pg_notify('content_changes', '');
	ELSIF cardinality("tags") > 0 THEN
		PERFORM pg_notify('content_changes', array_to_string("tags", ' '));
	END IF;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "notify_product_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- A row changed in anything but its stock count may show on any page (names, prices, menus).
	IF (SELECT count(*) FROM "old_rows") <> (SELECT count(*) FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id")
		OR EXISTS (
			SELECT 1 FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
			WHERE to_jsonb(o) - 'stock' - 'updated_at' IS DISTINCT FROM to_jsonb(n) - 'stock' - 'updated_at'
		) THEN
		PERFORM pg_notify('content_changes', '');
		RETURN NULL;
	END IF;
	PERFORM "notify_content_tags"(coalesce((
		SELECT array_agg("tag" ORDER BY "tag") FROM (
			SELECT 'stock:' || o."id" AS "tag" FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
			WHERE o."stock" IS DISTINCT FROM n."stock"
			UNION ALL
			SELECT 'card:' || o."id" FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
			WHERE "card_stock"(o."stock") IS DISTINCT FROM "card_stock"(n."stock")
		) AS "changed"
	), '{}'));
	RETURN NULL;
END;
$$;--> statement-breakpoint
-- A key pool's count shows on its product's page only: cards say nothing of keys.
CREATE FUNCTION "notify_key_pool_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"ids" integer[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		SELECT array_agg(DISTINCT "product_id") INTO "ids" FROM "new_rows";
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg(DISTINCT "product_id") INTO "ids" FROM "old_rows";
	ELSE
		SELECT array_agg(DISTINCT "product_id") INTO "ids"
		FROM (SELECT "product_id" FROM "old_rows" UNION SELECT "product_id" FROM "new_rows") AS "touched";
	END IF;
	PERFORM "notify_content_tags"(coalesce((SELECT array_agg('stock:' || "id") FROM unnest("ids") AS "id"), '{}'));
	RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER "products_content_change" ON "products";--> statement-breakpoint
CREATE TRIGGER "products_content_change" AFTER INSERT OR DELETE OR TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "products_update_content_change" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "notify_product_update"();--> statement-breakpoint
DROP TRIGGER "licence_keys_content_change" ON "licence_keys";--> statement-breakpoint
CREATE TRIGGER "licence_keys_content_change" AFTER TRUNCATE ON "licence_keys" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "licence_keys_insert_content_change" AFTER INSERT ON "licence_keys" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "notify_key_pool_change"();--> statement-breakpoint
CREATE TRIGGER "licence_keys_update_content_change" AFTER UPDATE ON "licence_keys" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "notify_key_pool_change"();--> statement-breakpoint
CREATE TRIGGER "licence_keys_delete_content_change" AFTER DELETE ON "licence_keys" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "notify_key_pool_change"();
