import { asc, eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { brandGroups, products, searchIndexVersion } from "~db/schema";
import { buildSearchIndex, type SearchIndex } from "./search-index";

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
      section: brandGroups.section,
      categories: products.categories,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.hidden, false))
    .orderBy(asc(brandGroups.position), asc(products.position), asc(products.id));
  return buildSearchIndex(rows);
}

/**
 * The catalogue index as the catalogue is now: one primary-key read of search_index_version (which triggers move
 * with every write to what the index holds, in the writing statement), and the index kept for that version, or
 * built again (requests asking at once share the build). The version is read before the products, so an index is
 * never older than the version it is kept under.
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
  // A failed build is not kept: the next request tries again.
  entry.index.catch(() => {
    if (kept.get(db) === entry) kept.delete(db);
  });
  return entry.index;
}
