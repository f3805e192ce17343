-- Hand-written: the content version. Every statement that writes a table whose rows a public page shows announces
-- itself on the channel content_changes, at commit and only if it commits (PostgreSQL sends a transaction's
-- identical notifications once). Each server process LISTENs, and drops what it rendered or read from memory.
-- A new table that public pages read must get this trigger too: tests/integration/content-version.test.ts lists
-- every table as public or private, so a new one fails it until it is placed.
CREATE FUNCTION "notify_content_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('content_changes', '');
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "brand_groups_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "brand_groups" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "products_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "licence_keys_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "licence_keys" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "brand_content_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "brand_content" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "company_details_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "company_details" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "web_info_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "web_info" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "seo_records_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "seo_records" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "product_metadata_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_metadata" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "banners_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "banners" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "blog_posts_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "blog_posts" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "services_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "services" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "pages_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pages" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();--> statement-breakpoint
CREATE TRIGGER "settings_content_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "settings" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();
