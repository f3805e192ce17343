import type { ServerContext } from "~/context";
import { type ProductCard, productCardsById } from "./catalogue.server";
import { offsetOf, PAGE_SIZE, type Paged, pageCountOf } from "./pagination";
import { searchWords } from "./search";
import { rankProducts } from "./search-index";
import { currentSearchIndex } from "./search-index.server";

/** The best matches a search keeps, shown a page at a time: a shopper refines a query rather than read further. */
export const SEARCH_RESULT_LIMIT = 240;

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

/** Every result of a search (at most `limit`), best first, as cards. */
export async function searchProducts(
  context: Pick<ServerContext, "db">,
  query: string,
  limit = SEARCH_RESULT_LIMIT,
): Promise<ProductCard[]> {
  return productCardsById(context.db, await searchProductIds(context, query, limit));
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
  const items = await productCardsById(context.db, ids.slice(start, start + PAGE_SIZE));
  return { items, total: ids.length, page, pageCount };
}
