CREATE TABLE "storage_objects" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"full_path" text NOT NULL,
	"name" text NOT NULL,
	"generation" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"md5" text NOT NULL,
	"cache_control" text,
	"content_disposition" text,
	"content_encoding" text,
	"content_language" text,
	"custom_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"download_tokens" text[] DEFAULT '{}'::text[] NOT NULL,
	"owner_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storage_objects_size_check" CHECK ("storage_objects"."size" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "storage_objects_bucket_path_idx" ON "storage_objects" USING btree ("bucket","full_path");