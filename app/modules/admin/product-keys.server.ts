/** Licence key pools for the admin: counts per software product and a product's recent keys, never a key itself. */
import { and, asc, count, desc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { brandGroups, licenceKeys, orderLines, orders, products, productVariants } from "~db/schema";
import type { KeyEntry } from "~/modules/orders/licence-keys.server";
import type { OrdersContext } from "~/modules/orders/orders.server";
import { LOW_KEY_POOL } from "./dashboard.server";
import { likePattern, listQuerySchema, type ListPage, offsetOf } from "./list-query";
import { importKeys } from "./products.server";

/** Sections whose products are delivered as licence keys. */
const SOFTWARE = sql`${brandGroups.section} in ('antivirus', 'windows')`;

export const keyPoolQuery = listQuerySchema(["available", "assigned", "name"], {
  sort: "available",
  dir: "asc",
}).extend({
  /** The product whose pool is open (the dashboard links to /admin/keys?product=ID). */
  product: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  /** Only pools below the low mark. */
  low: z
    .enum(["1"])
    .optional()
    .catch(undefined)
    .transform((value) => value === "1"),
});

export type KeyPoolQuery = z.infer<typeof keyPoolQuery>;

export type KeyPoolRow = {
  id: number;
  name: string;
  route: string;
  groupName: string;
  hidden: boolean;
  available: number;
  assigned: number;
  low: boolean;
};

/** Every software product with its pool's counts; low pools first by default. */
export async function listKeyPools(db: Database, query: KeyPoolQuery): Promise<ListPage<KeyPoolRow>> {
  const pools = db
    .select({
      productId: licenceKeys.productId,
      available: sql<number>`count(*) filter (where ${licenceKeys.orderLineId} is null)`.as("available"),
      assigned: sql<number>`count(*) filter (where ${licenceKeys.orderLineId} is not null)`.as("assigned"),
    })
    .from(licenceKeys)
    .groupBy(licenceKeys.productId)
    .as("pools");
  const available = sql<number>`coalesce(${pools.available}, 0)`;
  const assigned = sql<number>`coalesce(${pools.assigned}, 0)`;
  const filters = [SOFTWARE];
  if (query.q) filters.push(sql`lower(${products.name}) like ${likePattern(query.q.toLowerCase())}`);
  if (query.low) filters.push(sql`${available} < ${LOW_KEY_POOL}`);
  const where = and(...filters);
  const column = { available, assigned, name: products.name }[
    query.sort as "available" | "assigned" | "name"
  ];
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: products.id,
        name: products.name,
        route: products.route,
        groupName: brandGroups.name,
        hidden: products.hidden,
        available: available.mapWith(Number),
        assigned: assigned.mapWith(Number),
      })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .leftJoin(pools, eq(pools.productId, products.id))
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(products.name), asc(products.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db
      .select({ n: count() })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .leftJoin(pools, eq(pools.productId, products.id))
      .where(where),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, low: !row.hidden && row.available < LOW_KEY_POOL })),
    total: total?.n ?? 0,
  };
}

/** A pool's unsold keys at what the store paid for them, and how many have no cost on record. */
const poolValue = {
  valueCents:
    sql<number>`coalesce(sum(${licenceKeys.costCents}) filter (where ${licenceKeys.orderLineId} is null), 0)`.mapWith(
      Number,
    ),
  uncosted:
    sql<number>`count(${licenceKeys.id}) filter (where ${licenceKeys.orderLineId} is null and ${licenceKeys.costCents} is null)`.mapWith(
      Number,
    ),
};

/** How many of a product's keys to show, newest first. */
export const RECENT_KEYS = 20;

/**
 * One product's pool: its counts, the orders still waiting for its keys and its newest keys as masked hints.
 * `software: false` for printers and routers (they have no keys); null when there is no such product.
 */
export async function keyPoolDetail(db: Database, productId: number) {
  const [product] = await db
    .select({
      id: products.id,
      name: products.name,
      route: products.route,
      hidden: products.hidden,
      groupName: brandGroups.name,
      software: sql<boolean>`${SOFTWARE}`,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.id, productId));
  if (!product) return null;
  const [[counts], [waiting], recent, variants] = await Promise.all([
    db
      .select({
        available: sql<number>`count(*) filter (where ${licenceKeys.orderLineId} is null)`.mapWith(Number),
        assigned: sql<number>`count(*) filter (where ${licenceKeys.orderLineId} is not null)`.mapWith(Number),
        ...poolValue,
      })
      .from(licenceKeys)
      .where(eq(licenceKeys.productId, productId)),
    db
      .select({ n: sql<number>`count(distinct ${orders.id})`.mapWith(Number) })
      .from(orders)
      .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
      .where(and(eq(orders.status, "paid"), gt(orders.awaitingKeys, 0), eq(orderLines.productId, productId))),
    db
      .select({
        id: licenceKeys.id,
        hint: licenceKeys.keyHint,
        createdAt: licenceKeys.createdAt,
        assignedAt: licenceKeys.assignedAt,
        revokedAt: licenceKeys.revokedAt,
        orderNumber: orders.number,
        supplier: licenceKeys.supplier,
        costCents: licenceKeys.costCents,
        batch: licenceKeys.batch,
      })
      .from(licenceKeys)
      .leftJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .leftJoin(orders, eq(orders.id, orderLines.orderId))
      .where(eq(licenceKeys.productId, productId))
      .orderBy(desc(licenceKeys.id))
      .limit(RECENT_KEYS),
    variantsOf(db, productId),
  ]);
  return {
    product: { ...product, software: Boolean(product.software) },
    available: counts?.available ?? 0,
    assigned: counts?.assigned ?? 0,
    /** What the unsold keys cost the store, and how many of them were imported without a cost. */
    valueCents: counts?.valueCents ?? 0,
    uncosted: counts?.uncosted ?? 0,
    waitingOrders: waiting?.n ?? 0,
    /** Empty for a product sold without variants; otherwise its keys are imported per variant. */
    variants: variants.map(({ sku, label, available, valueCents, uncosted }) => ({
      sku,
      label,
      available,
      valueCents,
      uncosted,
    })),
    recent: recent.map((key) => ({
      id: key.id,
      hint: key.hint,
      createdAt: key.createdAt.toISOString(),
      assignedAt: key.assignedAt?.toISOString() ?? null,
      /** Set when the line it was sold on was refunded: kept against that order, never sold again. */
      revokedAt: key.revokedAt?.toISOString() ?? null,
      orderNumber: key.orderNumber,
      supplier: key.supplier,
      costCents: key.costCents,
      batch: key.batch,
    })),
  };
}

export type PoolImport =
  | { ok: true; added: number; duplicates: number; delivered: number[] }
  | { ok: false; status: 400 | 404; error: string };

/**
 * Adds keys to a software product's pool (see importKeys: duplicates are skipped, waiting orders are served).
 * Printers and routers are shipped and take no keys.
 */
export async function importPoolKeys(
  ctx: OrdersContext,
  productId: number,
  keys: KeyEntry[],
  admin: string,
  /** The variant's SKU (any case), which a product sold by variant needs and one without refuses. */
  variantSku?: string,
): Promise<PoolImport> {
  const [product] = await ctx.db
    .select({ name: products.name, software: sql<boolean>`${SOFTWARE}` })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.id, productId));
  if (!product) return { ok: false, status: 404, error: "This product no longer exists" };
  if (!product.software) {
    return {
      ok: false,
      status: 400,
      error: `${product.name} is shipped, not sold by licence key: it has no key pool`,
    };
  }
  const variants = await variantsOf(ctx.db, productId);
  const asked = variantSku?.trim() ?? "";
  if (variants.length === 0) {
    if (asked === "") return { ok: true, ...(await importKeys(ctx, productId, keys, admin)) };
    return { ok: false, status: 400, error: `${product.name} has no variants: add its keys without one` };
  }
  // A product sold by variant sells only from its variants' pools: keys of its own would never be sold.
  const variant = variants.find((candidate) => candidate.sku.toLowerCase() === asked.toLowerCase());
  if (!variant) {
    const choices = variants.map((candidate) => candidate.sku).join(", ");
    return {
      ok: false,
      status: 400,
      error:
        asked === ""
          ? `${product.name} is sold by variant: choose the variant these keys are for (${choices})`
          : `${product.name} has no variant ${asked}: choose one of ${choices}`,
    };
  }
  return { ok: true, ...(await importKeys(ctx, productId, keys, admin, variant)) };
}

/** A product's variants in the order its page lists them, with the keys each has left to sell. */
function variantsOf(db: Database, productId: number) {
  return db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      label: productVariants.label,
      available:
        sql<number>`count(${licenceKeys.id}) filter (where ${licenceKeys.orderLineId} is null)`.mapWith(
          Number,
        ),
      ...poolValue,
    })
    .from(productVariants)
    .leftJoin(licenceKeys, eq(licenceKeys.variantId, productVariants.id))
    .where(eq(productVariants.productId, productId))
    .groupBy(productVariants.id)
    .orderBy(asc(productVariants.position), asc(productVariants.id));
}
