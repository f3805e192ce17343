-- The store's phone lives in company_details alone. A store whose company details were never saved keeps the phone
-- its web info held; where both exist, company_details (what the storefront showed) stays.
INSERT INTO "company_details" ("id", "phone", "phonecall")
SELECT 1, "phone", "phonecall" FROM "web_info" WHERE "id" = 1
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
ALTER TABLE "web_info" DROP COLUMN "phone";--> statement-breakpoint
ALTER TABLE "web_info" DROP COLUMN "phonecall";
