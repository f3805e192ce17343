CREATE TABLE "brand_groups" (
	"key" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"section" text NOT NULL,
	"official_website" text NOT NULL,
	"content_key" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "brand_groups_slug_unique" UNIQUE("slug"),
	CONSTRAINT "brand_groups_section_check" CHECK ("brand_groups"."section" in ('antivirus', 'windows', 'printer', 'router'))
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_key" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"price_cents" integer NOT NULL,
	"original_price_cents" integer NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"img" text NOT NULL,
	"route" text NOT NULL,
	"specifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_check" CHECK ("products"."price_cents" >= 0 and "products"."original_price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"image" text NOT NULL,
	"alt" text NOT NULL,
	"link" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blog_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"excerpt" text NOT NULL,
	"image" text NOT NULL,
	"published_at" date NOT NULL,
	CONSTRAINT "blog_posts_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "brand_content" (
	"key" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"banner_img" text NOT NULL,
	"background_image" text DEFAULT '' NOT NULL,
	"logo" text NOT NULL,
	"why_choose" text NOT NULL,
	"contact" jsonb NOT NULL,
	"benefits" jsonb NOT NULL,
	"features" jsonb NOT NULL,
	"testimonials" jsonb NOT NULL,
	"sample" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_details" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"phone" text NOT NULL,
	"phonecall" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_details_single_row" CHECK ("company_details"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"slug" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_metadata" (
	"key" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"keywords" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seo_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"route" text NOT NULL,
	"title" text,
	"description" text DEFAULT '' NOT NULL,
	"keywords" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seo_records_route_unique" UNIQUE("route")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"slug" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"body" text NOT NULL,
	"packages" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "web_info" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"phonecall" text NOT NULL,
	"address" text NOT NULL,
	"address2" text NOT NULL,
	"email" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_info_single_row" CHECK ("web_info"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "brand_groups" ADD CONSTRAINT "brand_groups_content_key_brand_content_key_fk" FOREIGN KEY ("content_key") REFERENCES "public"."brand_content"("key") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_group_key_brand_groups_key_fk" FOREIGN KEY ("group_key") REFERENCES "public"."brand_groups"("key") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "brand_groups_section_idx" ON "brand_groups" USING btree ("section","position");--> statement-breakpoint
CREATE UNIQUE INDEX "products_group_external_id_idx" ON "products" USING btree ("group_key","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_route_lower_idx" ON "products" USING btree (lower("route"));--> statement-breakpoint
CREATE INDEX "products_categories_idx" ON "products" USING gin ("categories");