import { and, asc, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, products } from "~db/schema";
import type { ServerContext } from "~/context";
import { type ProductCard, productCardColumns } from "./catalogue.server";
import { offsetOf, PAGE_SIZE, type Paged, pageCountOf } from "./pagination";
import { searchWords } from "./search";

/** The best matches a search keeps, shown a page at a time: a shopper refines a query rather than read further. */
export const SEARCH_RESULT_LIMIT = 240;
/** How alike a query word and a word of a product or brand name must be (pg_trgm word similarity, 0 to 1). */
export const WORD_SIMILARITY_THRESHOLD = 0.4;
/** Results scoring below this share of the best result are left out (they matched one stray word). */
const RELATIVE_SCORE_CUTOFF = 0.4;

/**
 * The stored full-text document of a product (name words weighted above description words), with its GIN index
 * products_search_vector_idx: matched and ranked as stored, never worked out again per row.
 */
const searchDocument = products.searchVector;
/** The expressions of the trigram indexes products_name_trgm_idx and brand_groups_name_trgm_idx. */
const productName = sql`lower(${products.name})`;
const brandName = sql`lower(${brandGroups.name})`;

/**
 * How well one query word matches a product (0 to about 1): the best of its similarity to the product name,
 * 1.25 x its similarity to the brand name (a brand is the strongest signal), and 0.8 when the stemmed word is in
 * the name or description.
 */
const wordScore = (word: string) =>
  sql<number>`greatest(word_similarity(${word}, ${productName}), 1.25 * word_similarity(${word}, ${brandName}), case when ${searchDocument} @@ plainto_tsquery('english', ${word}) then 0.8 else 0 end)::float8`;

/**
 * Ids of the products matching any word, from three index scans: full text (stemmed), and trigram word
 * similarity to a product name or a brand name (so typos match: "nortn", "kasperski").
 */
function candidateIds(db: Database | Transaction, words: string[]) {
  const anyWord = sql`to_tsquery('english', ${words.join(" | ")})`;
  const similarToAnyWord = (column: SQL) => or(...words.map((word) => sql`${column} %> ${word}`))!;
  // UNION ALL: the IN that uses it removes duplicates; a plain UNION invites sorted scans that skip the indexes.
  return unionAll(
    db
      .select({ id: products.id })
      .from(products)
      .where(sql`${searchDocument} @@ ${anyWord}`),
    db.select({ id: products.id }).from(products).where(similarToAnyWord(productName)),
    db
      .select({ id: products.id })
      .from(brandGroups)
      .innerJoin(products, eq(products.groupKey, brandGroups.key))
      .where(similarToAnyWord(brandName)),
  );
}

const visibleCandidates = (db: Database | Transaction, words: string[]) =>
  and(eq(products.hidden, false), inArray(products.id, candidateIds(db, words)));

/**
 * The ranked search. A product scores the weighted average of its word scores, each word weighted by how rare it
 * is among the matches (inverse document frequency, from `documentFrequency`: "kasperski" outweighs "antivirus"),
 * plus 0.5 when every word is in its text, plus a small full-text rank. Run it inside a transaction that set the
 * similarity threshold (see searchProducts).
 */
export function searchQuery(
  db: Database | Transaction,
  words: string[],
  weights: number[] = words.map(() => 1),
  limit = SEARCH_RESULT_LIMIT,
) {
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  const weighted = words.map((word, index) => sql`${weights[index] ?? 1}::float8 * ${wordScore(word)}`);
  const score = sql<number>`((${sql.join(weighted, sql` + `)}) / ${totalWeight}::float8
    + case when ${searchDocument} @@ plainto_tsquery('english', ${words.join(" ")}) then 0.5 else 0 end
    + 0.1 * ts_rank(${searchDocument}, to_tsquery('english', ${words.join(" | ")})))::float8`;
  return db
    .select({ ...productCardColumns, score: score.as("score") })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(visibleCandidates(db, words))
    .orderBy(desc(sql`score`), asc(brandGroups.position), asc(products.position))
    .limit(limit);
}

/** How many matching products each word matches, and how many match at all. */
async function documentFrequency(db: Database | Transaction, words: string[]) {
  const [row] = await db
    .select({
      matches: sql<number>`count(*)::int`,
      perWord: sql<number[]>`array[${sql.join(
        words.map((word) => sql`count(*) filter (where ${wordScore(word)} >= ${WORD_SIMILARITY_THRESHOLD})`),
        sql`, `,
      )}]::int[]`,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(visibleCandidates(db, words));
  return { matches: row?.matches ?? 0, perWord: row?.perWord ?? [] };
}

/**
 * Visible products matching the query, best first: Postgres full-text search plus pg_trgm similarity for typos.
 * Results far below the best one (a stray word matched) are left out. No words, no results.
 */
export async function searchProducts(
  { db }: Pick<ServerContext, "db">,
  query: string,
  limit = SEARCH_RESULT_LIMIT,
): Promise<ProductCard[]> {
  const words = searchWords(query);
  if (words.length === 0) return [];
  const rows = await db.transaction(async (tx) => {
    // SET LOCAL: the threshold of the %> operator holds for this transaction only (and works on PGlite too).
    await tx.execute(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY_THRESHOLD)}, true)`,
    );
    const frequency = await documentFrequency(tx, words);
    if (frequency.matches === 0) return [];
    const weights = words.map((_, index) =>
      Math.log(1 + frequency.matches / Math.max(1, frequency.perWord[index] ?? 0)),
    );
    return searchQuery(tx, words, weights, limit);
  });
  const best = rows[0]?.score ?? 0;
  return rows
    .filter((row) => row.score >= best * RELATIVE_SCORE_CUTOFF)
    .map(({ score: _score, ...card }) => card);
}

/** One page of a search's results; null past the last page (a search without results has one, empty, page). */
export function searchResultsPage(results: ProductCard[], page: number): Paged<ProductCard> | null {
  const pageCount = pageCountOf(results.length);
  if (page > pageCount) return null;
  const start = offsetOf(page);
  return { items: results.slice(start, start + PAGE_SIZE), total: results.length, page, pageCount };
}
