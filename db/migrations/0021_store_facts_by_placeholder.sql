-- Texts that repeated the store's name, support e-mail and phone name them by placeholder, filled at each render
-- (app/modules/content/store-facts.server.ts), so a renamed store is renamed on every page.
UPDATE "seo_records" SET
  "title" = replace(replace(replace("title", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}'),
  "description" = replace(replace(replace("description", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}'),
  "keywords" = replace(replace(replace("keywords", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}')
FROM "web_info" w, "company_details" c
WHERE w."name" <> '' AND w."email" <> '' AND c."phone" <> '';--> statement-breakpoint
UPDATE "product_metadata" SET
  "title" = replace(replace(replace("title", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}'),
  "description" = replace(replace(replace("description", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}'),
  "keywords" = replace(replace(replace("keywords", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}')
FROM "web_info" w, "company_details" c
WHERE w."name" <> '' AND w."email" <> '' AND c."phone" <> '';--> statement-breakpoint
UPDATE "pages" SET
  "title" = replace(replace(replace("title", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}'),
  "body" = replace(replace(replace("body", w."name", '{store}'), w."email", '{email}'), c."phone", '{phone}')
FROM "web_info" w, "company_details" c
WHERE w."name" <> '' AND w."email" <> '' AND c."phone" <> '';
