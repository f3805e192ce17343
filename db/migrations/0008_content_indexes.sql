CREATE INDEX "banners_position_idx" ON "banners" USING btree ("position","id");--> statement-breakpoint
CREATE INDEX "blog_posts_published_idx" ON "blog_posts" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "blog_posts_title_idx" ON "blog_posts" USING btree ("title");--> statement-breakpoint
CREATE INDEX "blog_posts_title_trgm_idx" ON "blog_posts" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "blog_posts_slug_trgm_idx" ON "blog_posts" USING gin ("slug" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "seo_records_route_lower_idx" ON "seo_records" USING btree (lower("route"));--> statement-breakpoint
CREATE INDEX "seo_records_title_idx" ON "seo_records" USING btree ("title");--> statement-breakpoint
CREATE INDEX "seo_records_route_trgm_idx" ON "seo_records" USING gin ("route" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "seo_records_title_trgm_idx" ON "seo_records" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_messages_email_trgm_idx" ON "contact_messages" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "quote_requests_email_trgm_idx" ON "quote_requests" USING gin ("email" gin_trgm_ops);