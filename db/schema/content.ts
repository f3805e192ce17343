import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { jsonb } from "./json";

export type BrandContact = { supportPhone: string; supportEmail: string; website: string };
export type BrandBenefit = { title: string; desc: string; icon: string };
export type BrandTestimonial = { quote: string; author: string };

/** The support content of a brand; Windows7, Windows8 and Windowsxp point at one shared entry. */
export const brandContent = pgTable("brand_content", {
  key: text("key").primaryKey(),
  title: text("title").notNull(),
  bannerImg: text("banner_img").notNull(),
  backgroundImage: text("background_image").notNull().default(""),
  logo: text("logo").notNull(),
  whyChoose: text("why_choose").notNull(),
  contact: jsonb("contact").$type<BrandContact>().notNull(),
  benefits: jsonb("benefits").$type<BrandBenefit[]>().notNull(),
  features: jsonb("features").$type<string[]>().notNull(),
  testimonials: jsonb("testimonials").$type<BrandTestimonial[]>().notNull(),
  sample: boolean("sample").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The single company-details document: the phone in local and international format. */
export const companyDetails = pgTable(
  "company_details",
  {
    id: integer("id").primaryKey().default(1),
    phone: text("phone").notNull(),
    phonecall: text("phonecall").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("company_details_single_row", sql`${table.id} = 1`)],
);

/**
 * Default web info: the store's name, support e-mail and its two offices (address: India, address2: USA). Its phone
 * is the company details' phone: one record for the fact (docs/decisions/0029-one-record-per-fact.md).
 */
export const webInfo = pgTable(
  "web_info",
  {
    id: integer("id").primaryKey().default(1),
    name: text("name").notNull(),
    address: text("address").notNull(),
    address2: text("address2").notNull(),
    email: text("email").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("web_info_single_row", sql`${table.id} = 1`)],
);

export const seoRecords = pgTable(
  "seo_records",
  {
    id: serial("id").primaryKey(),
    route: text("route").notNull().unique(),
    title: text("title"),
    description: text("description").notNull().default(""),
    keywords: text("keywords").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Every page looks its record up by lower(route); one record per route whatever the letters' case.
    uniqueIndex("seo_records_route_lower_idx").on(sql`lower(${table.route})`),
    index("seo_records_title_idx").on(table.title),
    // The admin list's search (ILIKE '%...%').
    index("seo_records_route_trgm_idx").using("gin", table.route.op("gin_trgm_ops")),
    index("seo_records_title_trgm_idx").using("gin", table.title.op("gin_trgm_ops")),
  ],
);

/** Brand-page meta tags; only some brands (mcafee, norton) have an entry, the rest use the default. */
export const productMetadata = pgTable("product_metadata", {
  key: text("key").primaryKey(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  keywords: text("keywords").notNull(),
});

export const banners = pgTable(
  "banners",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    subtitle: text("subtitle").notNull().default(""),
    image: text("image").notNull(),
    alt: text("alt").notNull(),
    link: text("link").notNull(),
    position: integer("position").notNull().default(0),
    active: boolean("active").notNull().default(true),
  },
  (table) => [index("banners_position_idx").on(table.position, table.id)],
);

/** Blog posts live on the external blog; the store keeps a teaser linking there. */
export const blogPosts = pgTable(
  "blog_posts",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    image: text("image").notNull(),
    publishedAt: date("published_at").notNull(),
  },
  (table) => [
    // The home page's newest teasers and the admin list's sorts and search.
    index("blog_posts_published_idx").on(table.publishedAt),
    index("blog_posts_title_idx").on(table.title),
    index("blog_posts_title_trgm_idx").using("gin", table.title.op("gin_trgm_ops")),
    index("blog_posts_slug_trgm_idx").using("gin", table.slug.op("gin_trgm_ops")),
  ],
);

export type ServicePackage = { name: string; priceCents: number; description: string; features: string[] };

export const services = pgTable("services", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  summary: text("summary").notNull(),
  body: text("body").notNull(),
  packages: jsonb("packages").$type<ServicePackage[]>().notNull(),
  position: integer("position").notNull().default(0),
});

/** Editable Markdown pages: policies, about, disclaimer. */
export const pages = pgTable("pages", {
  slug: text("slug").primaryKey(),
  title: text("title").notNull(),
  body: text("body").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type BrandContent = typeof brandContent.$inferSelect;
export type SeoRecord = typeof seoRecords.$inferSelect;
