CREATE TABLE "search_index_changes" (
	"version" integer NOT NULL,
	"product_id" integer
);
--> statement-breakpoint
CREATE INDEX "search_index_changes_version_idx" ON "search_index_changes" USING btree ("version");--> statement-breakpoint
-- Hand-written: the version of the search index now moves only when a statement changed what search matches or
-- how it ranks, and says which products it changed (a row without a product: all of them), so that a process can
-- update its index for them alone. Transition tables list the rows a statement wrote; PostgreSQL takes them only on
-- a trigger of one event without a column list, hence a trigger per event that compares the columns itself.
DROP TRIGGER "products_search_index_rows" ON "products";--> statement-breakpoint
DROP TRIGGER "products_search_index_text" ON "products";--> statement-breakpoint
DROP TRIGGER "brand_groups_search_index_rows" ON "brand_groups";--> statement-breakpoint
DROP TRIGGER "brand_groups_search_index_text" ON "brand_groups";--> statement-breakpoint
DROP FUNCTION "bump_search_index_version"();--> statement-breakpoint
CREATE FUNCTION "log_search_index_change"(changed integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	moved integer;
BEGIN
	-- The version row's lock is held to the commit: versions are taken in the order their statements commit.
	UPDATE "search_index_version" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO moved;
	-- Past 5,000 products (MOST_UPDATED in search-index.server.ts) a process reads the whole catalogue anyway.
	IF changed IS NULL OR cardinality(changed) > 5000 THEN
		INSERT INTO "search_index_changes" ("version", "product_id") VALUES (moved, NULL);
	ELSE
		INSERT INTO "search_index_changes" ("version", "product_id") SELECT moved, unnest(changed);
	END IF;
	DELETE FROM "search_index_changes" WHERE "version" <= moved - 1000;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "products_search_index_written"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed integer[];
BEGIN
	IF TG_OP = 'INSERT' THEN
		SELECT array_agg("id") INTO changed FROM new_rows;
	ELSIF TG_OP = 'DELETE' THEN
		SELECT array_agg("id") INTO changed FROM old_rows;
	ELSE
		SELECT array_agg(coalesce(n."id", o."id")) INTO changed
		FROM new_rows n FULL JOIN old_rows o ON o."id" = n."id"
		WHERE n."id" IS NULL OR o."id" IS NULL
			OR (o."name", o."description", o."hidden", o."group_key", o."position", o."categories")
				IS DISTINCT FROM (n."name", n."description", n."hidden", n."group_key", n."position", n."categories");
	END IF;
	IF changed IS NOT NULL THEN
		PERFORM "log_search_index_change"(changed);
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "search_index_everything_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "log_search_index_change"(NULL);
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "products_search_index_inserted" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_search_index_written"();--> statement-breakpoint
CREATE TRIGGER "products_search_index_updated" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_search_index_written"();--> statement-breakpoint
CREATE TRIGGER "products_search_index_deleted" AFTER DELETE ON "products" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "products_search_index_written"();--> statement-breakpoint
CREATE TRIGGER "products_search_index_truncated" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "search_index_everything_changed"();--> statement-breakpoint
CREATE TRIGGER "brand_groups_search_index_rows" AFTER INSERT OR DELETE OR TRUNCATE ON "brand_groups" FOR EACH STATEMENT EXECUTE FUNCTION "search_index_everything_changed"();--> statement-breakpoint
CREATE TRIGGER "brand_groups_search_index_text" AFTER UPDATE OF "key", "name", "section", "position" ON "brand_groups" FOR EACH STATEMENT EXECUTE FUNCTION "search_index_everything_changed"();
