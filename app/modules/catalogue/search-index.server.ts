import { and, asc, count, eq, gt, inArray, lte } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { brandGroups, products, searchIndexChanges, searchIndexVersion } from "~db/schema";
import { type SearchIndex, searchIndexBuilder, updateSearchIndex } from "./search-index";

/**
 * Past this many products changed at once (an import), the catalogue is read again rather than updated product by
 * product: the update costs a pass over the index plus a read per product, the build one read of everything. The
 * change log (migration 0036) stands a statement changing more for a change to everything.
 */
const MOST_UPDATED = 5_000;

type Kept = { version: number; index: Promise<SearchIndex> };
/** Per database: the index of the catalogue at a version of search_index_version (the latest one asked for). */
const kept = new WeakMap<Database, Kept>();

/**
 * The products as the index reads them (visible ones, in catalogue order): those of `ids`, or those of the brands
 * at `brandPositions`.
 */
function indexedRows(db: Database, only: { ids: number[] } | { brandPositions: number[] }) {
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
    .where(
      and(
        eq(products.hidden, false),
        "ids" in only ? inArray(products.id, only.ids) : inArray(brandGroups.position, only.brandPositions),
      ),
    )
    .orderBy(asc(brandGroups.position), asc(products.position), asc(products.id));
}

/**
 * About how many products the whole catalogue is read in at a time: at 100,000 products, one read held every
 * product's row (its description) at once, and a store process kept the memory that took (50 MB of its 460).
 */
export const INDEX_READ_BATCH = 10_000;

/**
 * The index of the whole catalogue, read a few brands at a time (whole brands of at most about `batch` products,
 * in catalogue order) in one snapshot of the database, so that the batches agree with each other.
 */
export async function wholeSearchIndex(db: Database, batch = INDEX_READ_BATCH): Promise<SearchIndex> {
  return db.transaction(
    async (tx) => {
      const brands = await tx
        .select({ position: brandGroups.position, products: count() })
        .from(products)
        .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
        .where(eq(products.hidden, false))
        .groupBy(brandGroups.position)
        .orderBy(asc(brandGroups.position));
      const builder = searchIndexBuilder();
      let positions: number[] = [];
      let size = 0;
      for (const [at, brand] of brands.entries()) {
        positions.push(brand.position);
        size += brand.products;
        const next = brands[at + 1];
        if (!next || size + next.products > batch) {
          builder.add(await indexedRows(tx, { brandPositions: positions }));
          positions = [];
          size = 0;
        }
      }
      return builder.build();
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
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
  if (!complete || ids.size > MOST_UPDATED) return wholeSearchIndex(db);
  return updateSearchIndex(before, ids, await indexedRows(db, { ids: [...ids] }));
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
    index: found && found.version < version ? updatedIndex(db, found, version) : wholeSearchIndex(db),
  };
  kept.set(db, entry);
  // A failed build is not kept: the next request tries again.
  entry.index.catch(() => {
    if (kept.get(db) === entry) kept.delete(db);
  });
  return entry.index;
}
