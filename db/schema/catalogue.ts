import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { jsonb } from "./json";
import { brandContent } from "./content";

export type Section = "antivirus" | "windows" | "printer" | "router";

/** A brand key of the spec (McAfee, PCMatic, Windows7, hp, ...) and the products sold under it. */
export const brandGroups = pgTable(
  "brand_groups",
  {
    key: text("key").primaryKey(),
    /** Lower-case key, used in URLs (/antivirus/mcafee, /support/mcafee). */
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    section: text("section").$type<Section>().notNull(),
    officialWebsite: text("official_website").notNull(),
    /** Who owns the brand, for the reseller notice ("Microsoft" for the Windows editions); empty: the brand's name. */
    owner: text("owner").notNull().default(""),
    contentKey: text("content_key")
      .notNull()
      .references(() => brandContent.key, { onUpdate: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (table) => [
    check(
      "brand_groups_section_check",
      sql`${table.section} in ('antivirus', 'windows', 'printer', 'router')`,
    ),
    index("brand_groups_section_idx").on(table.section, table.position),
  ],
);

export type ProductSpecification = { label: string; value: string };

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    groupKey: text("group_key")
      .notNull()
      .references(() => brandGroups.key, { onUpdate: "cascade", onDelete: "restrict" }),
    /** The catalogue's own id: unique within its group only. */
    externalId: text("external_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    priceCents: integer("price_cents").notNull(),
    originalPriceCents: integer("original_price_cents").notNull(),
    /** The owner's own price in rupees (paise), in place of the dollar price at the store's rate; null: the rate's. */
    inrPriceCents: integer("inr_price_cents"),
    categories: text("categories")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    img: text("img").notNull(),
    /** The path as given by the catalogue, kept as is (including /antvirus/pcmatic/...). */
    route: text("route").notNull(),
    /** Label/value pairs in display order (a JSON object would lose the order in jsonb). */
    specifications: jsonb("specifications")
      .$type<ProductSpecification[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    position: integer("position").notNull().default(0),
    hidden: boolean("hidden").notNull().default(false),
    /**
     * Whether the product can be ordered while out of stock (a software product's key pool empty): the order waits
     * and the keys follow within the store's promised time. Otherwise the product shows as unavailable.
     */
    waitingOrders: boolean("waiting_orders").notNull().default(true),
    /**
     * Units on hand of a printer or router, less those reserved by orders not yet shipped; null when not counted
     * (software counts its key pool instead). Orders take from it in their transaction (`reserveStock`).
     */
    stock: integer("stock"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("products_group_external_id_idx").on(table.groupKey, table.externalId),
    // Case-insensitive route lookup is one probe of this index: where lower(route) = lower($1).
    uniqueIndex("products_route_lower_idx").on(sql`lower(${table.route})`),
    index("products_categories_idx").using("gin", table.categories),
    // A brand page's products, a page at a time in catalogue order, without a sort.
    index("products_group_position_idx").on(table.groupKey, table.position, table.id),
    check("products_price_check", sql`${table.priceCents} >= 0 and ${table.originalPriceCents} >= 0`),
    check("products_inr_price_check", sql`${table.inrPriceCents} is null or ${table.inrPriceCents} > 0`),
    check("products_stock_check", sql`${table.stock} is null or ${table.stock} >= 0`),
  ],
);

export type BrandGroup = typeof brandGroups.$inferSelect;
export type Product = typeof products.$inferSelect;

/**
 * A way a product is sold: "1 device, 1 year", "OEM". Each has its own SKU, price, original price and either a key
 * pool of its own (software: licence_keys.variant_id) or a stock count (printers and routers). A product with no
 * variants is sold as itself, at its own price and from its own pool, as before variants existed.
 */
export const productVariants = pgTable(
  "product_variants",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** Unique store-wide, in any case: the `?variant=` of its page and what a cart line names. */
    sku: text("sku").notNull(),
    label: text("label").notNull(),
    position: integer("position").notNull().default(0),
    priceCents: integer("price_cents").notNull(),
    originalPriceCents: integer("original_price_cents").notNull(),
    /** As products.inr_price_cents: the variant's own price in rupees, or null for the rate's. */
    inrPriceCents: integer("inr_price_cents"),
    /** Units on hand of a printer or router variant, as products.stock; null when not counted (software). */
    stock: integer("stock"),
    /** How long a key of it lasts from the payment date; null: perpetual. */
    termMonths: integer("term_months"),
    hidden: boolean("hidden").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("product_variants_sku_lower_idx").on(sql`lower(${table.sku})`),
    // The target of licence_keys' (variant_id, product_id) key: a key's variant is always one of its product's.
    unique("product_variants_id_product_key").on(table.id, table.productId),
    index("product_variants_product_idx").on(table.productId, table.position, table.id),
    check("product_variants_sku_check", sql`${table.sku} ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'`),
    check("product_variants_label_check", sql`length(btrim(${table.label})) between 1 and 100`),
    check("product_variants_price_check", sql`${table.priceCents} >= 0 and ${table.originalPriceCents} >= 0`),
    check(
      "product_variants_inr_price_check",
      sql`${table.inrPriceCents} is null or ${table.inrPriceCents} > 0`,
    ),
    check("product_variants_stock_check", sql`${table.stock} is null or ${table.stock} >= 0`),
    check(
      "product_variants_term_check",
      sql`${table.termMonths} is null or ${table.termMonths} between 1 and 120`,
    ),
  ],
);

export type ProductVariant = typeof productVariants.$inferSelect;

/**
 * One row counting the changes to what search matches and ranks (product names, descriptions, visibility, brand
 * and catalogue order; not prices or stock): triggers bump it in the writing statement, so every process sees a
 * change at the commit, and a process keeps its in-memory search index until the count moves
 * (app/modules/catalogue/search-index.server.ts).
 */
export const searchIndexVersion = pgTable(
  "search_index_version",
  {
    id: integer("id").primaryKey().default(1),
    version: integer("version").notNull().default(0),
  },
  (table) => [check("search_index_version_single_row", sql`${table.id} = 1`)],
);

/**
 * Which products each version of search_index_version changed (the same triggers write both), so that a process
 * updates its index for those products instead of reading the whole catalogue again. A row without a product stands
 * for a change to every product (a brand renamed or moved, the table emptied). Only the last 1,000 versions are kept:
 * a process further behind reads the catalogue again.
 */
export const searchIndexChanges = pgTable(
  "search_index_changes",
  {
    version: integer("version").notNull(),
    productId: integer("product_id"),
  },
  (table) => [index("search_index_changes_version_idx").on(table.version)],
);
