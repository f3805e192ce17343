import { sql } from "drizzle-orm";
import { bigint, check, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { jsonb } from "./json";

/**
 * One stored file (the spec's "stored file object"). The bytes live in the storage driver (local disk or S3) under
 * `<bucket>/<full_path>#<generation>`; a new upload to the same path is a new generation, so the record and the bytes
 * it points to always agree.
 */
export const storageObjects = pgTable(
  "storage_objects",
  {
    id: serial("id").primaryKey(),
    bucket: text("bucket").notNull(),
    fullPath: text("full_path").notNull(),
    /** The last segment of full_path. */
    name: text("name").notNull(),
    /** Random id of the stored bytes; changes with every upload to this path. */
    generation: text("generation").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    /** MD5 of the stored bytes, base64. */
    md5: text("md5").notNull(),
    cacheControl: text("cache_control"),
    contentDisposition: text("content_disposition"),
    contentEncoding: text("content_encoding"),
    contentLanguage: text("content_language"),
    customMetadata: jsonb("custom_metadata")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Whoever holds one of these may download the object without signing in. */
    downloadTokens: text("download_tokens")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The account that uploaded it (an accounts user id); null when uploaded by the system. */
    ownerId: text("owner_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("storage_objects_bucket_path_idx").on(table.bucket, table.fullPath),
    check("storage_objects_size_check", sql`${table.size} >= 0`),
  ],
);

export type StorageObjectRow = typeof storageObjects.$inferSelect;
