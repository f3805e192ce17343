import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { licenceKeys, products, type Section } from "~db/schema";
import type { Stock } from "./availability";
import { isPhysicalSection } from "./sections";

/** Unused licence keys per product: what can be delivered right after payment. */
export async function freeKeyCounts(
  db: Database | Transaction,
  productIds: number[],
): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: licenceKeys.productId, n: sql<number>`count(*)::int` })
    .from(licenceKeys)
    .where(and(inArray(licenceKeys.productId, productIds), isNull(licenceKeys.orderLineId)))
    .groupBy(licenceKeys.productId);
  return new Map(rows.map((row) => [row.productId, row.n]));
}

type StockSubject = { productId: number; section: Section; waitingOrders: boolean };

/** The stock of each product: software counts its unused keys; printers and routers are not counted yet. */
export async function stockOf(
  db: Database | Transaction,
  subjects: StockSubject[],
): Promise<Map<number, Stock>> {
  const software = subjects.filter((subject) => !isPhysicalSection(subject.section));
  const free = await freeKeyCounts(
    db,
    software.map((subject) => subject.productId),
  );
  return new Map(
    subjects.map((subject) => [
      subject.productId,
      {
        inStock: isPhysicalSection(subject.section) ? null : (free.get(subject.productId) ?? 0),
        waitingOrders: subject.waitingOrders,
      },
    ]),
  );
}

/**
 * Locks the rows of products that cannot be ordered beyond their stock, for the rest of the transaction: two
 * orders placed at once for the last keys are checked one after the other, never both against the same count.
 */
export async function lockProductsForOrder(tx: Transaction, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  await tx
    .select({ id: products.id })
    .from(products)
    .where(and(inArray(products.id, productIds), eq(products.waitingOrders, false)))
    .orderBy(asc(products.id))
    .for("update");
}
