import {
  and,
  asc,
  count,
  eq,
  inArray,
  isNull,
  isNotNull,
  min,
  type SQL,
  sql,
  type SQLWrapper,
} from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { licenceKeys, orderLines } from "~db/schema";
import { type KeyCipher, keyHint, normalizeKey } from "~/lib/key-cipher.server";

export type KeyImportReport = { added: number; duplicates: number };

/**
 * When a key of a term of `months` bought at `paid` stops working, in the database's calendar arithmetic (31 January
 * plus a month is the last day of February): a key, its order's documents and the buyer's pages all date it so.
 */
export const termEnd = (paid: SQLWrapper, months: number | SQLWrapper) =>
  sql<Date>`${paid} + make_interval(months => ${months}::int)`;

/** Where a key came from, as the owner imported it: each part null when not said. */
export type KeySource = { supplier: string | null; costCents: number | null; batch: string | null };

/** A key to add, bare or with where it came from. */
export type KeyEntry = string | ({ key: string } & Partial<KeySource>);

/**
 * Adds keys to a product's pool (or to one of its variants' pools), encrypted, each with its supplier, cost and
 * batch when given; a key already known (to any product) is skipped, not added twice.
 */
export async function addLicenceKeys(
  tx: Database | Transaction,
  cipher: KeyCipher,
  productId: number,
  keys: KeyEntry[],
  variantId: number | null = null,
): Promise<KeyImportReport> {
  // The first spelling of a key in the import is the one kept, with its source.
  const seen = new Set<string>();
  const unique = keys
    .map((entry) => (typeof entry === "string" ? { key: entry } : entry))
    .filter(({ key }) => {
      const normal = normalizeKey(key);
      if (normal === "" || seen.has(normal)) return false;
      seen.add(normal);
      return true;
    });
  if (unique.length === 0) return { added: 0, duplicates: keys.length };
  const inserted = await tx
    .insert(licenceKeys)
    .values(
      unique.map(({ key, supplier = null, costCents = null, batch = null }) => ({
        productId,
        variantId,
        keyCiphertext: cipher.encrypt(key.trim()),
        keyFingerprint: cipher.fingerprint(key.trim()),
        keyHint: keyHint(key.trim()),
        supplier,
        costCents,
        batch,
      })),
    )
    .onConflictDoNothing({ target: licenceKeys.keyFingerprint })
    .returning({ id: licenceKeys.id });
  return { added: inserted.length, duplicates: keys.length - inserted.length };
}

/**
 * Gives each software line of an order as many unused keys as its quantity, from its variant's pool, or from its
 * product's own pool when it was bought without a variant. Rows are locked and skipped by concurrent allocations
 * (SKIP LOCKED), so two orders never get the same key. A key of a line with a term expires that many months after
 * `paidAt` (the order's payment, however much later the key arrives). Returns how many keys were missing.
 */
export async function allocateKeys(
  tx: Transaction,
  lines: Array<{
    id: number;
    productId: number | null;
    variantId: number | null;
    variantSku: string | null;
    termMonths: number | null;
    quantity: number;
  }>,
  paidAt: Date | SQL,
): Promise<number> {
  let missing = 0;
  for (const line of lines) {
    // A product deleted since, or a variant deleted since (its keys went with it): nothing left to give.
    if (line.productId === null || (line.variantSku !== null && line.variantId === null)) {
      missing += line.quantity;
      continue;
    }
    // A key replaced after it was reported broken is not one of the line's: the key given for it is.
    const [{ n: already } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(licenceKeys)
      .where(and(eq(licenceKeys.orderLineId, line.id), isNull(licenceKeys.replacedByKeyId)));
    const needed = line.quantity - already;
    if (needed <= 0) continue;
    const free = await tx
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(
        and(
          eq(licenceKeys.productId, line.productId),
          line.variantId === null ? isNull(licenceKeys.variantId) : eq(licenceKeys.variantId, line.variantId),
          isNull(licenceKeys.orderLineId),
        ),
      )
      .orderBy(asc(licenceKeys.id))
      .limit(needed)
      .for("update", { skipLocked: true });
    if (free.length > 0) {
      const paid = paidAt instanceof Date ? sql`${paidAt.toISOString()}::timestamptz` : paidAt;
      await tx
        .update(licenceKeys)
        .set({
          orderLineId: line.id,
          assignedAt: sql`now()`,
          expiresAt: line.termMonths === null ? null : termEnd(paid, line.termMonths),
        })
        .where(
          inArray(
            licenceKeys.id,
            free.map((row) => row.id),
          ),
        );
    }
    missing += needed - free.length;
  }
  return missing;
}

/**
 * When the keys of each line of an order expire (the earliest, should they ever differ), for lines whose keys
 * have a term: lines with perpetual keys, or none yet, are not in the map.
 */
export async function keyExpiryForOrder(db: Database | Transaction, orderId: number) {
  const rows = await db
    .select({ lineId: orderLines.id, expiresAt: min(licenceKeys.expiresAt) })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .where(
      and(eq(orderLines.orderId, orderId), isNotNull(licenceKeys.expiresAt), isNull(licenceKeys.revokedAt)),
    )
    .groupBy(orderLines.id);
  return new Map(rows.map((row) => [row.lineId, row.expiresAt!]));
}

/** The keys delivered for an order's lines, decrypted, for the buyer's order page and e-mail (revoked keys never). */
export async function keysForOrder(db: Database | Transaction, cipher: KeyCipher, orderId: number) {
  const rows = await db
    .select({ lineId: licenceKeys.orderLineId, sealed: licenceKeys.keyCiphertext })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .where(
      and(eq(orderLines.orderId, orderId), isNotNull(licenceKeys.orderLineId), isNull(licenceKeys.revokedAt)),
    )
    .orderBy(asc(licenceKeys.id));
  const byLine = new Map<number, string[]>();
  for (const row of rows) {
    const list = byLine.get(row.lineId!) ?? [];
    list.push(cipher.decrypt(row.sealed));
    byLine.set(row.lineId!, list);
  }
  return byLine;
}

/**
 * The order's lines whose delivered keys a refund withdrew (revoked, not replaced by another key): a line refunded
 * before any key reached it, like a held order rejected, has none to say "no longer work" of.
 */
export async function linesWithWithdrawnKeys(db: Database | Transaction, orderId: number) {
  const rows = await db
    .selectDistinct({ lineId: licenceKeys.orderLineId })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .where(
      and(
        eq(orderLines.orderId, orderId),
        isNotNull(licenceKeys.revokedAt),
        isNull(licenceKeys.replacedByKeyId),
      ),
    );
  return new Set(rows.map((row) => row.lineId!));
}

/** Available and assigned counts per product, for the admin and for low-pool warnings. */
export async function keyPoolCounts(db: Database, productIds?: number[]) {
  return db
    .select({
      productId: licenceKeys.productId,
      available: sql<number>`count(*) filter (where ${licenceKeys.orderLineId} is null)`.mapWith(Number),
      assigned: sql<number>`count(*) filter (where ${licenceKeys.orderLineId} is not null)`.mapWith(Number),
    })
    .from(licenceKeys)
    .where(productIds ? inArray(licenceKeys.productId, productIds) : undefined)
    .groupBy(licenceKeys.productId);
}
