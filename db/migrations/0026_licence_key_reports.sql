CREATE TABLE "licence_key_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"licence_key_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	CONSTRAINT "licence_key_reports_status_check" CHECK ("licence_key_reports"."status" in ('open', 'replaced', 'rejected')),
	CONSTRAINT "licence_key_reports_reason_check" CHECK (length(btrim("licence_key_reports"."reason")) between 10 and 500)
);
--> statement-breakpoint
ALTER TABLE "licence_key_reports" ADD CONSTRAINT "licence_key_reports_licence_key_id_licence_keys_id_fk" FOREIGN KEY ("licence_key_id") REFERENCES "public"."licence_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "licence_key_reports_open_idx" ON "licence_key_reports" USING btree ("licence_key_id") WHERE "licence_key_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "licence_key_reports_status_idx" ON "licence_key_reports" USING btree ("status","created_at");