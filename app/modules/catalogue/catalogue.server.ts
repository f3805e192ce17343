import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import {
  type BrandContent,
  brandContent,
  brandGroups,
  type ProductSpecification,
  products,
  productVariants,
  type Section,
} from "~db/schema";
import { dependsOn } from "~/modules/content/content-version.server";
import { cardTag } from "./stock.server";
import { cardRatingColumn, type RatingSummary } from "./reviews.server";
import type { ServerContext } from "~/context";
import { offsetOf, PAGE_SIZE, type Paged, pageCountOf } from "./pagination";
import { isSection } from "./sections";
import { brandIds, sectionTaggedIds, taggedIds } from "./search-index";
import { currentSearchIndex } from "./search-index.server";

/** What a product card needs; prices in cents. */
export const productCardColumns = {
  id: products.id,
  name: products.name,
  priceCents: products.priceCents,
  originalPriceCents: products.originalPriceCents,
  inrPriceCents: products.inrPriceCents,
  img: products.img,
  route: products.route,
  groupKey: products.groupKey,
  brandName: brandGroups.name,
  /**
   * A printer's or router's stock count when it is low (at or under the lowStockThreshold setting), else null: a card
   * says nothing more, and carries nothing more, so that only a change it shows invalidates the pages showing it.
   */
  stock: sql<number | null>`card_stock(${products.stock})`,
  waitingOrders: products.waitingOrders,
  /**
   * A product sold in variants is sold at its variants' prices, not its own: those on sale, in the shop's order. The
   * card picks the cheapest in the shopper's currency (cheapestVariant), since the owner's own rupee prices can
   * order them otherwise than dollars do. Null for a product sold without variants.
   */
  variantPrices: sql<VariantPrice[] | null>`(
    select json_agg(
      json_build_object(
        'priceCents', variant.price_cents,
        'originalPriceCents', variant.original_price_cents,
        'inrPriceCents', variant.inr_price_cents
      )
      order by variant.position, variant.id
    )
    from ${productVariants} variant
    where variant.product_id = ${products.id} and not variant.hidden
  )`,
  /** The stars: approved reviews' average to one decimal and their count; null without any. */
  rating: cardRatingColumn(products.id),
};

/** A variant's price as a card needs it. */
type VariantPrice = { priceCents: number; originalPriceCents: number; inrPriceCents: number | null };

export type ProductCard = {
  id: number;
  name: string;
  priceCents: number;
  originalPriceCents: number;
  inrPriceCents: number | null;
  img: string;
  route: string;
  groupKey: string;
  brandName: string;
  stock: number | null;
  waitingOrders: boolean;
  variantPrices: VariantPrice[] | null;
  rating: RatingSummary | null;
};

/** Cards read: the pages showing them depend on what each shows of its stock. */
function shown<T extends { id: number }>(cards: T[]): T[] {
  dependsOn(cards.map((card) => cardTag(card.id)));
  return cards;
}

/** The cards of products by id, in that order: prices and stock as they are now, hidden ones left out. */
export async function productCardsById(db: Database, ids: number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const cards = await db
    .select(productCardColumns)
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    // Hidden since the catalogue index was read (a write that overlapped): left out all the same.
    .where(and(inArray(products.id, ids), eq(products.hidden, false)));
  const byId = new Map(shown(cards).map((card) => [card.id, card]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Visible products carrying a category tag (best-seller, top-rated, ...), in catalogue order (brand position,
 * product position, id: stable, so that pages never repeat or skip a product): picked in the catalogue index.
 */
export async function productsWithTag(
  { db }: Pick<ServerContext, "db">,
  tag: string,
  limit?: number,
  offset = 0,
): Promise<ProductCard[]> {
  const { ids } = taggedIds(await currentSearchIndex(db), tag, offset, limit);
  return productCardsById(db, ids);
}

/** One page of the visible products carrying a category tag, in catalogue order; null past the last page. */
export async function productsWithTagPage(
  { db }: Pick<ServerContext, "db">,
  tag: string,
  page: number,
): Promise<Paged<ProductCard> | null> {
  const { ids, total } = taggedIds(await currentSearchIndex(db), tag, offsetOf(page), PAGE_SIZE);
  if (page > pageCountOf(total)) return null;
  return pageOf(await productCardsById(db, ids), total, page);
}

/** A page of `total` items, or null when the page is past the last one (the first page always exists). */
function pageOf<T>(items: T[], total: number, page: number): Paged<T> | null {
  const pageCount = pageCountOf(total);
  return page > pageCount ? null : { items, total, page, pageCount };
}

export type NavGroup = { key: string; slug: string; name: string; section: string };

/** Brand groups for the category menu and footer, in catalogue order. */
/** The shop's names of some brands, by their keys ("hp" -> "HP"); keys that are no brand are left out. */
export async function brandNames(
  db: Database | Transaction,
  keys: string[],
): Promise<Record<string, string>> {
  if (keys.length === 0) return {};
  const brands = await db
    .select({ key: brandGroups.key, name: brandGroups.name })
    .from(brandGroups)
    .where(inArray(brandGroups.key, [...new Set(keys)]));
  return Object.fromEntries(brands.map((brand) => [brand.key, brand.name]));
}

export async function getNavigation({ db }: Pick<ServerContext, "db">): Promise<NavGroup[]> {
  return db
    .select({
      key: brandGroups.key,
      slug: brandGroups.slug,
      name: brandGroups.name,
      section: brandGroups.section,
    })
    .from(brandGroups)
    .orderBy(asc(brandGroups.position));
}

/** A brand group as pages show it: name, where its brand page is, and its official website. */
export type BrandSummary = {
  key: string;
  slug: string;
  name: string;
  section: Section;
  officialWebsite: string;
  /** The company named in the reseller notice. */
  owner: string;
};

const brandSummaryColumns = {
  key: brandGroups.key,
  slug: brandGroups.slug,
  name: brandGroups.name,
  section: brandGroups.section,
  officialWebsite: brandGroups.officialWebsite,
  owner: sql<string>`coalesce(nullif(${brandGroups.owner}, ''), ${brandGroups.name})`,
};

export type BrandTile = BrandSummary & { logo: string; productCount: number };

/** Brand groups (of one section, or all) with their logo and how many products are on sale (counted in the index). */
export async function brandTiles({ db }: Pick<ServerContext, "db">, section?: Section): Promise<BrandTile[]> {
  const [tiles, index] = await Promise.all([
    db
      .select({ ...brandSummaryColumns, logo: brandContent.logo })
      .from(brandGroups)
      .innerJoin(brandContent, eq(brandContent.key, brandGroups.contentKey))
      .where(section ? eq(brandGroups.section, section) : undefined)
      .orderBy(asc(brandGroups.position)),
    currentSearchIndex(db),
  ]);
  return tiles.map((tile) => ({ ...tile, productCount: index.brands.get(tile.key)?.products.length ?? 0 }));
}

/** A section's showcase: its best sellers first, then its top-rated products, in catalogue order. */
export async function sectionHighlights(
  { db }: Pick<ServerContext, "db">,
  section: Section,
  limit = 8,
): Promise<ProductCard[]> {
  const ids = sectionTaggedIds(await currentSearchIndex(db), section, ["best-seller", "top-rated"], limit);
  return productCardsById(db, ids);
}

export type ProductDetail = {
  id: number;
  externalId: string;
  groupKey: string;
  name: string;
  description: string;
  priceCents: number;
  originalPriceCents: number;
  inrPriceCents: number | null;
  img: string;
  route: string;
  specifications: ProductSpecification[];
  /** Whether it may be ordered while out of stock (see Stock). */
  waitingOrders: boolean;
  brand: BrandSummary;
};

/**
 * The visible product whose stored route equals the path, case-insensitively:
 * one probe of the unique index on lower(route).
 */
export async function productByRoute(
  { db }: Pick<ServerContext, "db">,
  path: string,
): Promise<ProductDetail | null> {
  const [row] = await db
    .select({
      id: products.id,
      externalId: products.externalId,
      groupKey: products.groupKey,
      name: products.name,
      description: products.description,
      priceCents: products.priceCents,
      originalPriceCents: products.originalPriceCents,
      inrPriceCents: products.inrPriceCents,
      img: products.img,
      route: products.route,
      specifications: products.specifications,
      waitingOrders: products.waitingOrders,
      brand: brandSummaryColumns,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(and(eq(sql`lower(${products.route})`, sql`lower(${path})`), eq(products.hidden, false)))
    .limit(1);
  return row ?? null;
}

export type BrandContentData = Pick<
  BrandContent,
  | "title"
  | "bannerImg"
  | "logo"
  | "whyChoose"
  | "contact"
  | "benefits"
  | "features"
  | "testimonials"
  | "sample"
>;

export type BrandWithContent = { brand: BrandSummary; content: BrandContentData };

const brandContentColumns = {
  title: brandContent.title,
  bannerImg: brandContent.bannerImg,
  logo: brandContent.logo,
  whyChoose: brandContent.whyChoose,
  contact: brandContent.contact,
  benefits: brandContent.benefits,
  features: brandContent.features,
  testimonials: brandContent.testimonials,
  sample: brandContent.sample,
};

/** A brand group by its lower-case slug (and section, on a brand page), with its support content. */
export async function brandWithContent(
  { db }: Pick<ServerContext, "db">,
  slug: string,
  section?: Section,
): Promise<BrandWithContent | null> {
  const [row] = await db
    .select({ brand: brandSummaryColumns, content: brandContentColumns })
    .from(brandGroups)
    .innerJoin(brandContent, eq(brandContent.key, brandGroups.contentKey))
    .where(
      and(eq(brandGroups.slug, slug.toLowerCase()), section ? eq(brandGroups.section, section) : undefined),
    )
    .limit(1);
  return row ?? null;
}

/** A brand's visible products, in catalogue order (a stable one: products.id breaks ties), `limit` from `offset`. */
export async function brandProducts(
  { db }: Pick<ServerContext, "db">,
  groupKey: string,
  { limit, offset = 0 }: { limit: number; offset?: number },
): Promise<ProductCard[]> {
  return shown(
    await db
      .select(productCardColumns)
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .where(and(eq(products.groupKey, groupKey), eq(products.hidden, false)))
      .orderBy(asc(products.position), asc(products.id))
      .limit(limit)
      .offset(offset),
  );
}

/** One page of a brand's visible products (picked in the catalogue index); null past the last page. */
export async function brandProductsPage(
  { db }: Pick<ServerContext, "db">,
  groupKey: string,
  page: number,
): Promise<Paged<ProductCard> | null> {
  const { ids, total } = brandIds(await currentSearchIndex(db), groupKey, offsetOf(page), PAGE_SIZE);
  if (page > pageCountOf(total)) return null;
  return pageOf(await productCardsById(db, ids), total, page);
}

/**
 * The route of the visible product that a path names by its section's spelling when the product's own route is
 * spelt otherwise: the spec keeps PC Matic's products at /antvirus/pcmatic/{slug}, and shoppers type
 * /antivirus/pcmatic/{slug}. Case-insensitive, like product routes; null when no product, or more than one, fits.
 */
export async function productRouteInSection(
  { db }: Pick<ServerContext, "db">,
  path: string,
): Promise<string | null> {
  const [first, ...rest] = path.split("/").filter(Boolean);
  const section = first?.toLowerCase();
  if (!section || !isSection(section) || rest.length === 0) return null;
  const routeAfterPrefix = sql`lower(substring(${products.route} from '^/[^/]+(/.*)$'))`;
  const found = await db
    .select({ route: products.route })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(
      and(
        eq(products.hidden, false),
        eq(brandGroups.section, section),
        sql`lower(${products.route}) not like ${`/${section}/%`}`,
        eq(routeAfterPrefix, `/${rest.join("/").toLowerCase()}`),
      ),
    )
    .limit(2);
  return found.length === 1 ? found[0]!.route : null;
}

export type CataloguePage =
  | { kind: "product"; product: ProductDetail }
  | { kind: "brand"; brand: BrandSummary; content: BrandContentData; products: Paged<ProductCard> }
  /** Another spelling of a product's route: the page answers with a permanent redirect there. */
  | { kind: "moved"; to: string };

/**
 * What a path outside the fixed routes shows: a product at its own route (case-insensitive), else the brand page
 * /{section}/{brand} of a group of that section, else a product whose route spells its section otherwise (a
 * redirect), else nothing (404).
 */
export async function resolveCataloguePath(
  context: Pick<ServerContext, "db">,
  pathname: string,
  /** The page of a brand page's products; a page past the last one is no page (null). */
  page = 1,
): Promise<CataloguePage | null> {
  const path = pathname.replace(/\/+$/, "") || "/";
  const product = await productByRoute(context, path);
  if (product) return { kind: "product", product };
  const segments = path.split("/").filter(Boolean);
  const section = segments[0]?.toLowerCase() ?? "";
  if (segments.length === 2 && isSection(section)) {
    const found = await brandWithContent(context, segments[1]!, section);
    if (found) {
      const products = await brandProductsPage(context, found.brand.key, page);
      return products ? { kind: "brand", ...found, products } : null;
    }
  }
  const route = await productRouteInSection(context, path);
  return route ? { kind: "moved", to: route } : null;
}
