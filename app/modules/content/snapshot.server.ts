import {
  collectDependencies,
  type ContentMark,
  type ContentVersion,
  dependsOn,
} from "./content-version.server";

/**
 * Most entries kept per process. An entry is what one public page read (a product page's data, a search's
 * results, the header's data): a few KB to a few tens of KB, so the snapshot stays within tens of MB however large
 * the catalogue is (docs/decisions/0022-public-data-snapshot.md).
 */
export const SNAPSHOT_MAX_ENTRIES = 2000;

/** A value, where changes stood when its read began, and the tags it read (complete once it resolves). */
type Entry = { value: Promise<unknown>; mark: ContentMark; tags: Set<string> };

/** The entries read at one content version, least recently used first (a Map keeps insertion order). */
class Snapshot {
  version = -1;
  entries = new Map<string, Entry>();
}

const snapshots = new WeakMap<ContentVersion, Snapshot>();

function snapshotOf(contentVersion: ContentVersion): Snapshot {
  let snapshot = snapshots.get(contentVersion);
  if (!snapshot) {
    const created = new Snapshot();
    snapshot = created;
    snapshots.set(contentVersion, created);
    // What was read before a change is of no use after it: freed at once rather than at the next read.
    contentVersion.onChange(() => created.entries.clear());
  }
  return snapshot;
}

/**
 * What public pages read from the database, kept in memory for the content version it was read at: `load` runs
 * once per key and version (requests asking at the same time share it) and its value is served until the version
 * changes, or until a tag it read changes (`dependsOn`: a product's availability). While changes cannot be heard (`live()` false), or the caller has no content version, every read goes to
 * the database; after a write this process answered, its change is counted first (`catchUp()`). A value whose read
 * overlapped a change is never served at the newer version: it is kept under the version its read started at.
 * Values are shared between requests: callers must not change them.
 */
export function fromSnapshot<T>(
  { contentVersion }: { contentVersion?: ContentVersion },
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  // Without a content version (a script, a test of the query itself) there is nothing to keep values for.
  if (!contentVersion?.live()) return Promise.resolve(load());
  // After a write this process answered, its change counts first (one round trip on PostgreSQL): the writer's
  // next page shows the write.
  if (contentVersion.behind()) {
    return contentVersion.catchUp().then(
      () => fromSnapshot({ contentVersion }, key, load),
      () => load(),
    );
  }
  const snapshot = snapshotOf(contentVersion);
  const version = contentVersion.current();
  if (snapshot.version !== version) {
    snapshot.entries.clear();
    snapshot.version = version;
  }
  const found = snapshot.entries.get(key);
  if (found && contentVersion.fresh(found.mark, found.tags)) {
    // Most recently used goes last.
    snapshot.entries.delete(key);
    snapshot.entries.set(key, found);
    return withDependencies(found) as Promise<T>;
  }
  const tags = new Set<string>();
  const mark = contentVersion.mark();
  // A real promise: a query builder is a thenable that runs its query again each time it is awaited.
  const entry: Entry = { value: Promise.resolve(collectDependencies(tags, load)), mark, tags };
  snapshot.entries.delete(key);
  snapshot.entries.set(key, entry);
  if (snapshot.entries.size > SNAPSHOT_MAX_ENTRIES) {
    snapshot.entries.delete(snapshot.entries.keys().next().value!);
  }
  // A failed read is not kept: the next request tries again.
  entry.value.catch(() => {
    if (snapshot.entries.get(key) === entry) snapshot.entries.delete(key);
  });
  return withDependencies(entry) as Promise<T>;
}

/** An entry's value, telling whatever is collecting (a page being kept) the tags it read, itself or from earlier. */
function withDependencies(entry: Entry): Promise<unknown> {
  return entry.value.then((value) => {
    dependsOn(entry.tags);
    return value;
  });
}

/** How many entries this process keeps now (for tests and the benchmark). */
export function snapshotSize(contentVersion: ContentVersion): number {
  return snapshots.get(contentVersion)?.entries.size ?? 0;
}
