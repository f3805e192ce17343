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
  uniqueIndex,
} from "drizzle-orm/pg-core";

export const PROMOTION_KINDS = ["percent", "fixed"] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];
/** What a code discounts: the whole order, the lines of some sections, of some brand groups, or some products. */
export const PROMOTION_SCOPES = ["order", "section", "brands", "products"] as const;
export type PromotionScope = (typeof PROMOTION_SCOPES)[number];

/**
 * A discount code. Amounts are integer cents; a percentage is in basis points (1000 = 10%). The use count is kept
 * on the row and raised in the order's transaction under a row lock, so concurrent orders never pass the limit.
 */
export const promotions = pgTable(
  "promotions",
  {
    id: serial("id").primaryKey(),
    /** What customers type, as the admin wrote it; matched in any case (unique in lower case). */
    code: text("code").notNull(),
    /** The admin's own words about it (never shown to customers). */
    description: text("description").notNull().default(""),
    kind: text("kind").$type<PromotionKind>().notNull(),
    /** percent: 1 to 10000 basis points (0.01% to 100%); null for fixed. */
    percentBasisPoints: integer("percent_basis_points"),
    /** fixed: the amount off in cents, more than 0; null for percent. */
    amountCents: integer("amount_cents"),
    scope: text("scope").$type<PromotionScope>().notNull().default("order"),
    /** section: section names; brands: brand group keys; products: product ids as text. Empty for order. */
    scopeValues: text("scope_values")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * What amountCents and minSubtotalCents are in ('USD' or 'INR', ADR 0036): a fixed code applies only to carts
     * in it; a percent code in dollars works in rupees too, its minimum at the store's rate.
     */
    currency: text("currency").$type<"USD" | "INR">().notNull().default("USD"),
    /** The cart's subtotal (before any discount) must reach this. */
    minSubtotalCents: integer("min_subtotal_cents").notNull().default(0),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    /** Orders that may use it in all (null: no limit). */
    usageLimit: integer("usage_limit"),
    /** Orders one customer (by e-mail address) may use it for (null: no limit). */
    perCustomerLimit: integer("per_customer_limit"),
    /** Whether the code also takes its percentage (or what is left of its amount) off shipping. */
    includesShipping: boolean("includes_shipping").notNull().default(false),
    paused: boolean("paused").notNull().default(false),
    /** Orders placed with it and not cancelled. */
    uses: integer("uses").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("promotions_code_lower_idx").on(sql`lower(${table.code})`),
    check(
      "promotions_value_check",
      sql`(${table.kind} = 'percent' and ${table.percentBasisPoints} between 1 and 10000 and ${table.amountCents} is null)
        or (${table.kind} = 'fixed' and ${table.amountCents} > 0 and ${table.percentBasisPoints} is null)`,
    ),
    check("promotions_currency_check", sql`${table.currency} in ('USD', 'INR')`),
    check("promotions_scope_check", sql`${table.scope} in ('order', 'section', 'brands', 'products')`),
    check(
      "promotions_dates_check",
      sql`${table.endsAt} is null or ${table.startsAt} is null or ${table.endsAt} > ${table.startsAt}`,
    ),
    check(
      "promotions_limits_check",
      sql`${table.minSubtotalCents} >= 0 and ${table.uses} >= 0
        and (${table.usageLimit} is null or ${table.usageLimit} >= 1)
        and (${table.perCustomerLimit} is null or ${table.perCustomerLimit} >= 1)`,
    ),
  ],
);

/** What a tax rule taxes: every line, or one kind of product. */
export const TAX_PRODUCT_KINDS = ["all", "software", "hardware", "service"] as const;
export type TaxProductKind = (typeof TAX_PRODUCT_KINDS)[number];

/**
 * A tax the store charges where it is registered: a rate (basis points, 1800 = 18%) by country and, where it
 * matters, region (a US state, an Indian state: ISO 3166-2 subdivision code without the country, "NY", "KA").
 * For an address, the rules of its exact region apply if there are any, otherwise those of the whole country
 * (region ''). Several rules that apply at once are all charged (CGST and SGST), each on the same base.
 */
export const taxRules = pgTable(
  "tax_rules",
  {
    id: serial("id").primaryKey(),
    /** ISO 3166-1 alpha-2. */
    country: text("country").notNull(),
    /** '' for the whole country. */
    region: text("region").notNull().default(""),
    productKind: text("product_kind").$type<TaxProductKind>().notNull().default("all"),
    /** Printed on checkout, order, e-mail and invoice: "CGST", "NY sales tax". */
    name: text("name").notNull(),
    /** 0 to 10000 (0% to 100%). */
    rateBasisPoints: integer("rate_basis_points").notNull(),
    /** Whether shipping is taxed at this rate too. */
    appliesToShipping: boolean("applies_to_shipping").notNull().default(false),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("tax_rules_place_idx").on(table.country, table.region),
    check("tax_rules_rate_check", sql`${table.rateBasisPoints} between 0 and 10000`),
    check("tax_rules_kind_check", sql`${table.productKind} in ('all', 'software', 'hardware', 'service')`),
  ],
);

export type Promotion = typeof promotions.$inferSelect;
export type TaxRule = typeof taxRules.$inferSelect;
