CREATE TABLE "product_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"user_id" text,
	"order_id" integer,
	"rating" smallint NOT NULL,
	"body" text NOT NULL,
	"author_name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sample" boolean DEFAULT false NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"moderated_at" timestamp with time zone,
	"moderated_by" text,
	CONSTRAINT "product_reviews_rating_check" CHECK ("product_reviews"."rating" between 1 and 5),
	CONSTRAINT "product_reviews_body_check" CHECK (length(btrim("product_reviews"."body")) between 10 and 2000),
	CONSTRAINT "product_reviews_author_check" CHECK (length(btrim("product_reviews"."author_name")) between 1 and 40),
	CONSTRAINT "product_reviews_status_check" CHECK ("product_reviews"."status" in ('pending', 'approved', 'hidden')),
	CONSTRAINT "product_reviews_owner_check" CHECK ("product_reviews"."sample" or "product_reviews"."user_id" is not null),
	CONSTRAINT "product_reviews_reply_check" CHECK (("product_reviews"."reply" is null) = ("product_reviews"."replied_at" is null) and ("product_reviews"."reply" is null or length(btrim("product_reviews"."reply")) between 2 and 1000))
);
--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_reviews_product_user_idx" ON "product_reviews" USING btree ("product_id","user_id");--> statement-breakpoint
CREATE INDEX "product_reviews_public_idx" ON "product_reviews" USING btree ("product_id","status","created_at");--> statement-breakpoint
CREATE INDEX "product_reviews_status_idx" ON "product_reviews" USING btree ("status","created_at");--> statement-breakpoint
-- Hand-written: an approved review shows on its product's page, on every card of it (stars) and in its structured
-- data, so a write that can change what is public announces a store-wide change (migration 0015). A customer's new
-- review waits for the owner (pending) and changes no public page: an insert announces only when it inserts an
-- approved review (the demo's samples). Moderation (approve, hide, reply) and deletions always announce.
CREATE FUNCTION "notify_review_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM "new_rows" WHERE "status" = 'approved') THEN
		PERFORM pg_notify('content_changes', '');
	END IF;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "product_reviews_insert_content_change" AFTER INSERT ON "product_reviews" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "notify_review_insert"();--> statement-breakpoint
CREATE TRIGGER "product_reviews_content_change" AFTER UPDATE OR DELETE OR TRUNCATE ON "product_reviews" FOR EACH STATEMENT EXECUTE FUNCTION "notify_content_change"();
