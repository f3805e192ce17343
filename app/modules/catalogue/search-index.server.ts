import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { brandGroups, products, searchIndexChanges, searchIndexVersion } from "~db/schema";
import { buildSearchIndex, type SearchIndex, updateSearchIndex } from "./search-index";

/**
 * Past this many products changed at once (an import), the catalogue is read again rather than updated product by
 * product: the update costs a pass over the index plus a read per product, the build one read of everything. The
 * change log (migration 0036) stands a statement changing more for a change to everything.
 */
const MOST_UPDATED = 5_000;

type Kept = { version: number; index: Promise<SearchIndex> };
/** Per database: the index of the catalogue at a version of search_index_version (the latest one asked for). */
const kept = new WeakMap<Database, Kept>();

/** The products as the index reads them (visible ones, in catalogue order), all of them or those of `ids`. */
function indexedRows(db: Database, ids?: number[]) {
  return db
    .select({
      id: products.id,
      name: products.name,
      description: products.description,
      groupKey: products.groupKey,
      brandName: brandGroups.name,
      section: brandGroups.section,
      categories: products.categories,
      brandPosition: brandGroups.position,
      position: products.position,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(and(eq(products.hidden, false), ids ? inArray(products.id, ids) : undefined))
    .orderBy(asc(brandGroups.position), asc(products.position), asc(products.id));
}

/**
 * The index at `version` made from the one at `from`: for the products the versions between changed, when the
 * change log still has every one of them and none changed a brand or everything; otherwise read whole.
 */
async function updatedIndex(db: Database, from: Kept, version: number): Promise<SearchIndex> {
  const [before, changes] = await Promise.all([
    from.index,
    db
      .select({ version: searchIndexChanges.version, productId: searchIndexChanges.productId })
      .from(searchIndexChanges)
      .where(and(gt(searchIndexChanges.version, from.version), lte(searchIndexChanges.version, version))),
  ]);
  const versions = new Set(changes.map((change) => change.version));
  const ids = new Set<number>();
  for (const change of changes) if (change.productId !== null) ids.add(change.productId);
  const complete =
    versions.size === version - from.version && changes.every((change) => change.productId !== null);
  if (!complete || ids.size > MOST_UPDATED) return buildSearchIndex(await indexedRows(db));
  return updateSearchIndex(before, ids, await indexedRows(db, [...ids]));
}

/**
 * The catalogue index as the catalogue is now: one primary-key read of search_index_version (which triggers move
 * with every write to what the index holds, in the writing statement), and the index kept for that version, or
 * made again: updated for the products changed since the version kept (search_index_changes), or built from the
 * whole catalogue. Requests asking at once share the work. The version is read before the products, so an index is
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
  const entry: Kept = {
    version,
    index:
      found && found.version < version
        ? updatedIndex(db, found, version)
        : indexedRows(db).then(buildSearchIndex),
  };
  kept.set(db, entry);
  // A failed build is not kept: the next request tries again.
  entry.index.catch(() => {
    if (kept.get(db) === entry) kept.delete(db);
  });
  return entry.index;
}
