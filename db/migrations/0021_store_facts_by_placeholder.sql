-- The demo store's texts repeated its name, support e-mail and phone; they name them by placeholder now, filled at
-- each render (app/modules/content/store-facts.server.ts), so a renamed store is renamed on every page. Only the
-- demo's own literals are replaced: an owner's name may be a common word found elsewhere in their texts.
UPDATE "seo_records" SET
  "title" = replace(replace(replace("title", 'KeyHaven Tech Store', '{store}'), 'support@example.com', '{email}'), '(212) 555-0100', '{phone}'),
  "description" = replace(replace(replace("description", 'KeyHaven Tech Store', '{store}'), 'support@example.com', '{email}'), '(212) 555-0100', '{phone}'),
  "keywords" = replace(replace(replace("keywords", 'KeyHaven Tech Store', '{store}'), 'support@example.com', '{email}'), '(212) 555-0100', '{phone}');--> statement-breakpoint
UPDATE "product_metadata" SET
  "title" = replace("title", 'KeyHaven Tech Store', '{store}'),
  "description" = replace("description", 'KeyHaven Tech Store', '{store}'),
  "keywords" = replace("keywords", 'KeyHaven Tech Store', '{store}');--> statement-breakpoint
UPDATE "pages" SET
  "title" = replace("title", 'KeyHaven Tech Store', '{store}'),
  "body" = replace(replace(replace("body", 'KeyHaven Tech Store', '{store}'), 'support@example.com', '{email}'), '(212) 555-0100', '{phone}');
