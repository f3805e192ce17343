import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, licenceKeys, orderLines, products, productVariants, type Section } from "~db/schema";
import { dependsOn } from "~/modules/content/content-version.server";
import type { Stock } from "./availability";
import { isPhysicalSection } from "./sections";
import { nameWithVariant } from "./variants";

/**
 * The tags a change of availability announces (migration 0024): `stock` whenever a product's stock count or free
 * keys change, for what shows the count (its own page); `card` when what its card shows changes (`card_stock`).
 */
export const stockTag = (productId: number) => `stock:${productId}`;
export const cardTag = (productId: number) => `card:${productId}`;

/**
 * Unused licence keys per product: what can be delivered right after payment. The product's own pool: keys of its
 * variants' pools are counted per variant (`freeVariantKeyCounts`).
 */
export async function freeKeyCounts(
  db: Database | Transaction,
  productIds: number[],
): Promise<Map<number, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: licenceKeys.productId, n: sql<number>`count(*)::int` })
    .from(licenceKeys)
    .where(
      and(
        inArray(licenceKeys.productId, productIds),
        isNull(licenceKeys.variantId),
        isNull(licenceKeys.orderLineId),
      ),
    )
    .groupBy(licenceKeys.productId);
  return new Map(rows.map((row) => [row.productId, row.n]));
}

/** Unused licence keys per variant. */
async function freeVariantKeyCounts(
  db: Database | Transaction,
  variantIds: number[],
): Promise<Map<number, number>> {
  if (variantIds.length === 0) return new Map();
  const rows = await db
    .select({ variantId: licenceKeys.variantId, n: sql<number>`count(*)::int` })
    .from(licenceKeys)
    .where(and(inArray(licenceKeys.variantId, variantIds), isNull(licenceKeys.orderLineId)))
    .groupBy(licenceKeys.variantId);
  return new Map(rows.map((row) => [row.variantId!, row.n]));
}

/** The stock count of printer and router variants (null: not counted). */
async function variantStockCounts(
  db: Database | Transaction,
  variantIds: number[],
): Promise<Map<number, number | null>> {
  if (variantIds.length === 0) return new Map();
  const rows = await db
    .select({ id: productVariants.id, stock: productVariants.stock })
    .from(productVariants)
    .where(inArray(productVariants.id, variantIds));
  return new Map(rows.map((row) => [row.id, row.stock]));
}

type StockSubject = { productId: number; section: Section; waitingOrders: boolean };

/** The stock count of printers and routers (null: not counted). */
export async function physicalStockCounts(
  db: Database | Transaction,
  productIds: number[],
): Promise<Map<number, number | null>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(inArray(products.id, productIds));
  return new Map(rows.map((row) => [row.id, row.stock]));
}

/**
 * The stock of each product: software counts its unused keys; printers and routers their stock count (units on
 * hand not yet reserved by an order), or null when the store does not count them.
 */
export async function stockOf(
  db: Database | Transaction,
  subjects: StockSubject[],
): Promise<Map<number, Stock>> {
  dependsOn(subjects.map((subject) => stockTag(subject.productId)));
  const software = subjects.filter((subject) => !isPhysicalSection(subject.section));
  const physical = subjects.filter((subject) => isPhysicalSection(subject.section));
  const [free, counted] = await Promise.all([
    freeKeyCounts(
      db,
      software.map((subject) => subject.productId),
    ),
    physicalStockCounts(
      db,
      physical.map((subject) => subject.productId),
    ),
  ]);
  return new Map(
    subjects.map((subject) => [
      subject.productId,
      {
        inStock: isPhysicalSection(subject.section)
          ? (counted.get(subject.productId) ?? null)
          : (free.get(subject.productId) ?? 0),
        waitingOrders: subject.waitingOrders,
      },
    ]),
  );
}

/**
 * The stock of each variant, as `stockOf` of a product: software counts the unused keys of the variant's pool;
 * printers and routers the variant's stock count. Whether it waits for stock is its product's choice.
 */
export async function variantStockOf(
  db: Database | Transaction,
  subjects: Array<StockSubject & { variantId: number }>,
): Promise<Map<number, Stock>> {
  dependsOn(subjects.map((subject) => stockTag(subject.productId)));
  const [free, counted] = await Promise.all([
    freeVariantKeyCounts(
      db,
      subjects.filter((subject) => !isPhysicalSection(subject.section)).map((subject) => subject.variantId),
    ),
    variantStockCounts(
      db,
      subjects.filter((subject) => isPhysicalSection(subject.section)).map((subject) => subject.variantId),
    ),
  ]);
  return new Map(
    subjects.map((subject) => [
      subject.variantId,
      {
        inStock: isPhysicalSection(subject.section)
          ? (counted.get(subject.variantId) ?? null)
          : (free.get(subject.variantId) ?? 0),
        waitingOrders: subject.waitingOrders,
      },
    ]),
  );
}

/** An order line as stock is concerned: its product and, when it was bought as one, its variant. */
export type StockLine = { productId: number; variantId: number | null; quantity: number };

/**
 * Locks the rows of products that cannot be ordered beyond their stock, of products with a stock count the
 * order takes from, and of products whose variants the order takes from (a variant's pool or count is guarded by
 * its product's row), for the rest of the transaction: two orders placed at once for the last units or keys are
 * checked one after the other, never both against the same count.
 */
export async function lockProductsForOrder(
  tx: Transaction,
  lines: Array<Pick<StockLine, "productId" | "variantId">>,
): Promise<void> {
  if (lines.length === 0) return;
  const withVariant = lines.filter((line) => line.variantId !== null).map((line) => line.productId);
  await tx
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        inArray(
          products.id,
          lines.map((line) => line.productId),
        ),
        or(
          eq(products.waitingOrders, false),
          isNotNull(products.stock),
          withVariant.length > 0 ? inArray(products.id, withVariant) : undefined,
        ),
      ),
    )
    .orderBy(asc(products.id))
    .for("update");
}

/**
 * Takes counted stock for an order's lines, inside the order's transaction after `lockProductsForOrder`: each line
 * takes what it asks for, or what is left when the product takes backorders (the rest is owed). Returns the units
 * taken per line, in the order given; the stock never goes below zero (a check constraint says so too).
 */
export async function reserveStock(tx: Transaction, lines: StockLine[]): Promise<number[]> {
  await lockProductsForOrder(tx, lines);
  const [counted, countedVariants] = await Promise.all([
    physicalStockCounts(
      tx,
      lines.filter((line) => line.variantId === null).map((line) => line.productId),
    ),
    variantStockCounts(
      tx,
      lines.flatMap((line) => (line.variantId === null ? [] : [line.variantId])),
    ),
  ]);
  const taken: number[] = [];
  for (const line of lines) {
    const counts = line.variantId === null ? counted : countedVariants;
    const id = line.variantId ?? line.productId;
    const left = counts.get(id);
    if (left === null || left === undefined) {
      taken.push(0);
      continue;
    }
    const take = Math.min(left, line.quantity);
    counts.set(id, left - take);
    taken.push(take);
    if (take === 0) continue;
    if (line.variantId === null)
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${take}` })
        .where(and(eq(products.id, line.productId), isNotNull(products.stock)));
    else
      await tx
        .update(productVariants)
        .set({ stock: sql`${productVariants.stock} - ${take}` })
        .where(and(eq(productVariants.id, line.variantId), isNotNull(productVariants.stock)));
  }
  return taken;
}

/**
 * Gives back the stock an order's unshipped lines reserved (a cancelled or refunded order): once, since the lines
 * are zeroed in the same statement. A product whose stock is no longer counted gets nothing back.
 */
export async function releaseStock(tx: Transaction, orderId: number, lineIds?: number[]): Promise<number> {
  const lines = await tx
    .select({
      id: orderLines.id,
      productId: orderLines.productId,
      variantId: orderLines.variantId,
      variantSku: orderLines.variantSku,
      reserved: orderLines.stockReserved,
    })
    .from(orderLines)
    .where(
      and(
        eq(orderLines.orderId, orderId),
        gt(orderLines.stockReserved, 0),
        lineIds ? inArray(orderLines.id, lineIds) : undefined,
      ),
    )
    .orderBy(asc(orderLines.id))
    .for("update");
  let released = 0;
  for (const line of lines) {
    await tx.update(orderLines).set({ stockReserved: 0 }).where(eq(orderLines.id, line.id));
    if (line.variantId !== null) {
      await tx
        .update(productVariants)
        .set({ stock: sql`${productVariants.stock} + ${line.reserved}` })
        .where(and(eq(productVariants.id, line.variantId), isNotNull(productVariants.stock)));
      released += line.reserved;
      continue;
    }
    // A variant deleted since: its units are not the product's to get back.
    if (line.productId === null || line.variantSku !== null) continue;
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${line.reserved}` })
      .where(and(eq(products.id, line.productId), isNotNull(products.stock)));
    released += line.reserved;
  }
  return released;
}

/**
 * Pools on sale with fewer unused licence keys than `below`, emptiest first: what to top up. A product sold in
 * variants sells from each variant's pool (its own would never be sold), so each variant on sale is a pool here,
 * named "Product (variant)"; a product without variants is one pool.
 */
export async function lowKeyPools(db: Database | Transaction, below: number) {
  const unused = sql<number>`count(${licenceKeys.id})`.mapWith(Number);
  const onSale = and(sql`${brandGroups.section} in ('antivirus', 'windows')`, eq(products.hidden, false));
  const [ofProducts, ofVariants] = await Promise.all([
    db
      .select({ productId: products.id, name: products.name, available: unused })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .leftJoin(
        licenceKeys,
        and(
          eq(licenceKeys.productId, products.id),
          isNull(licenceKeys.variantId),
          isNull(licenceKeys.orderLineId),
        ),
      )
      .where(
        and(
          onSale,
          sql`not exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id})`,
        ),
      )
      .groupBy(products.id, products.name)
      .having(sql`count(${licenceKeys.id}) < ${below}`),
    db
      .select({
        productId: products.id,
        name: products.name,
        variant: productVariants.sku,
        variantLabel: productVariants.label,
        available: unused,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .leftJoin(
        licenceKeys,
        and(eq(licenceKeys.variantId, productVariants.id), isNull(licenceKeys.orderLineId)),
      )
      .where(and(onSale, eq(productVariants.hidden, false)))
      .groupBy(productVariants.id, products.id, products.name)
      .having(sql`count(${licenceKeys.id}) < ${below}`),
  ]);
  return [
    ...ofProducts.map((row) => ({ ...row, variant: null })),
    ...ofVariants.map(({ variantLabel, name, ...row }) => ({
      ...row,
      name: nameWithVariant(name, variantLabel),
    })),
  ].sort((a, b) => a.available - b.available || a.name.localeCompare(b.name));
}

/** Counted printers and routers on sale with `atMost` units or fewer, emptiest first: stock to reorder. */
export async function lowPhysicalStock(db: Database | Transaction, atMost: number) {
  return db
    .select({
      productId: products.id,
      name: products.name,
      stock: sql<number>`${products.stock}`.mapWith(Number),
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(
      and(
        sql`${brandGroups.section} in ('printer', 'router')`,
        eq(products.hidden, false),
        lte(products.stock, atMost),
      ),
    )
    .orderBy(asc(products.stock), asc(products.name));
}
