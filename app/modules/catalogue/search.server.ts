import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { brandGroups, products, searchIndexVersion } from "~db/schema";
import type { ServerContext } from "~/context";
import { type ProductCard, productCardColumns } from "./catalogue.server";
import { offsetOf, PAGE_SIZE, type Paged, pageCountOf } from "./pagination";
import { searchWords } from "./search";
import { buildSearchIndex, rankProducts, type SearchIndex } from "./search-index";

/** The best matches a search keeps, shown a page at a time: a shopper refines a query rather than read further. */
export const SEARCH_RESULT_LIMIT = 240;

type Kept = { version: number; index: Promise<SearchIndex> };
/** Per database: the index of the catalogue at a version of search_index_version (the latest one asked for). */
const kept = new WeakMap<Database, Kept>();

/** The visible products as the index reads them, in catalogue order. */
async function loadIndex(db: Database): Promise<SearchIndex> {
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      description: products.description,
      groupKey: products.groupKey,
      brandName: brandGroups.name,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.hidden, false))
    .orderBy(asc(brandGroups.position), asc(products.position), asc(products.id));
  return buildSearchIndex(rows);
}

/**
 * The search index of the catalogue as it is now: one primary-key read of the catalogue's search version, and the
 * index kept for it, or built again (searches asking at once share the build). The version is read before the
 * products, so an index is never older than the version it is kept under.
 */
export async function currentSearchIndex(db: Database): Promise<SearchIndex> {
  const [row] = await db
    .select({ version: searchIndexVersion.version })
    .from(searchIndexVersion)
    .where(eq(searchIndexVersion.id, 1));
  const version = row?.version ?? -1;
  const found = kept.get(db);
  if (found && found.version === version) return found.index;
  const entry: Kept = { version, index: loadIndex(db) };
  kept.set(db, entry);
  // A failed build is not kept: the next search tries again.
  entry.index.catch(() => {
    if (kept.get(db) === entry) kept.delete(db);
  });
  return entry.index;
}

/** The ids of the visible products matching the query, best first (see rankProducts); no words, no results. */
export async function searchProductIds(
  { db }: Pick<ServerContext, "db">,
  query: string,
  limit = SEARCH_RESULT_LIMIT,
): Promise<number[]> {
  const words = searchWords(query);
  if (words.length === 0) return [];
  return rankProducts(await currentSearchIndex(db), words, limit);
}

/** The cards of products by id, in that order: prices and stock as they are now, hidden ones left out. */
async function cardsOf(db: Database, ids: number[]): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const cards = await db
    .select(productCardColumns)
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    // Hidden since the index was built (a write this search overlapped): left out all the same.
    .where(and(inArray(products.id, ids), eq(products.hidden, false)));
  const byId = new Map(cards.map((card) => [card.id, card]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Every result of a search (at most `limit`), best first, as cards. */
export async function searchProducts(
  context: Pick<ServerContext, "db">,
  query: string,
  limit = SEARCH_RESULT_LIMIT,
): Promise<ProductCard[]> {
  return cardsOf(context.db, await searchProductIds(context, query, limit));
}

/**
 * One page of a search's results: ranked in memory, then only that page's cards read. Null past the last page (a
 * search without results has one, empty, page). The total is exact: every result up to SEARCH_RESULT_LIMIT.
 */
export async function searchPage(
  context: Pick<ServerContext, "db">,
  query: string,
  page: number,
): Promise<Paged<ProductCard> | null> {
  const ids = await searchProductIds(context, query);
  const pageCount = pageCountOf(ids.length);
  if (page > pageCount) return null;
  const start = offsetOf(page);
  const items = await cardsOf(context.db, ids.slice(start, start + PAGE_SIZE));
  return { items, total: ids.length, page, pageCount };
}
