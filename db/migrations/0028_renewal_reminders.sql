CREATE TABLE "renewal_reminder_opt_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_reminder_opt_outs_who_check" CHECK (("renewal_reminder_opt_outs"."user_id" is null) <> ("renewal_reminder_opt_outs"."email" is null) and ("renewal_reminder_opt_outs"."email" is null or "renewal_reminder_opt_outs"."email" = lower("renewal_reminder_opt_outs"."email")))
);
--> statement-breakpoint
CREATE TABLE "renewal_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"licence_key_id" integer NOT NULL,
	"days" integer NOT NULL,
	"email_id" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_reminders_days_check" CHECK ("renewal_reminders"."days" between 0 and 365)
);
--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "renewal_reminder_opt_outs" ADD CONSTRAINT "renewal_reminder_opt_outs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_licence_key_id_licence_keys_id_fk" FOREIGN KEY ("licence_key_id") REFERENCES "public"."licence_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_reminders" ADD CONSTRAINT "renewal_reminders_email_id_outbox_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."outbox_emails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_reminder_opt_outs_user_idx" ON "renewal_reminder_opt_outs" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_reminder_opt_outs_email_idx" ON "renewal_reminder_opt_outs" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_reminders_key_days_idx" ON "renewal_reminders" USING btree ("licence_key_id","days");--> statement-breakpoint
CREATE INDEX "licence_keys_expires_idx" ON "licence_keys" USING btree ("expires_at") WHERE "licence_keys"."order_line_id" is not null and "licence_keys"."revoked_at" is null and "licence_keys"."expires_at" is not null;