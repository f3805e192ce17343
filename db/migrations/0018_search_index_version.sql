CREATE TABLE "search_index_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_index_version_single_row" CHECK ("search_index_version"."id" = 1)
);
--> statement-breakpoint
-- Hand-written: the search index's version moves with every statement that may change what search matches or how it
-- ranks (not with price or stock writes, so a sale leaves the index alone).
INSERT INTO "search_index_version" ("id", "version") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION "bump_search_index_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "search_index_version" SET "version" = "version" + 1 WHERE "id" = 1;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "products_search_index_rows" AFTER INSERT OR DELETE OR TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "bump_search_index_version"();--> statement-breakpoint
CREATE TRIGGER "products_search_index_text" AFTER UPDATE OF "name", "description", "hidden", "group_key", "position", "categories" ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "bump_search_index_version"();--> statement-breakpoint
CREATE TRIGGER "brand_groups_search_index_rows" AFTER INSERT OR DELETE OR TRUNCATE ON "brand_groups" FOR EACH STATEMENT EXECUTE FUNCTION "bump_search_index_version"();--> statement-breakpoint
CREATE TRIGGER "brand_groups_search_index_text" AFTER UPDATE OF "key", "name", "section", "position" ON "brand_groups" FOR EACH STATEMENT EXECUTE FUNCTION "bump_search_index_version"();
