import { and, asc, count, desc, eq, ne, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, licenceKeys, products } from "~db/schema";
import type { Section } from "~db/schema/catalogue";
import type { FieldErrors } from "~/lib/forms";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { parseMoney, rupeeCents, toDecimalString } from "~/lib/money";
import { isPhysicalSection, SECTION_ORDER } from "~/modules/catalogue/sections";
import { addLicenceKeys, type KeyEntry, keyPoolCounts } from "~/modules/orders/licence-keys.server";
import type { OrdersContext } from "~/modules/orders/orders.server";
import { getSettings } from "~/modules/orders/settings.server";
import { recordAudit } from "~/lib/audit-log.server";
import { LOW_KEY_POOL } from "./dashboard.server";
import { likePattern } from "./list-query";
import { deliverAwaitingKeys } from "~/modules/orders/fulfilment.server";
import { brandPageReason, reservedRouteReason } from "./product-routes";
import type { ProductForm } from "./schemas";

export const productListQuery = z.object({
  q: z.string().trim().max(200).catch(""),
  group: z.string().trim().max(60).catch(""),
  /** in: some to sell now; low: at or below the low-stock mark; out: none; uncounted: printers and routers without a count. */
  stock: z.enum(["", "in", "low", "out", "uncounted"]).catch(""),
  sort: z.enum(["name", "price", "group", "updated", "stock"]).catch("group"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(5).max(100).catch(25),
});

/**
 * What a product has to sell now: a printer's or router's stock count (null: not counted), a software product's
 * unused licence keys.
 */
const stockLeft = sql<
  number | null
>`(case when ${brandGroups.section} in ('printer', 'router') then ${products.stock} else (select count(*)::int from ${licenceKeys} where ${licenceKeys.productId} = ${products.id} and ${licenceKeys.orderLineId} is null) end)`;

const sorts = {
  name: products.name,
  price: products.priceCents,
  group: products.groupKey,
  updated: products.updatedAt,
};

/** The stock filter, with the low-stock mark of printers and routers (key pools are low below LOW_KEY_POOL). */
function stockFilter(filter: z.infer<typeof productListQuery>["stock"], lowStockAt: number): SQL | undefined {
  const physical = sql`${brandGroups.section} in ('printer', 'router')`;
  switch (filter) {
    case "in":
      return sql`(${stockLeft} > 0 or (${physical} and ${products.stock} is null))`;
    case "low":
      return sql`(${stockLeft} > 0 and ${stockLeft} <= case when ${physical} then ${lowStockAt}::int else ${LOW_KEY_POOL - 1}::int end)`;
    case "out":
      return sql`(${stockLeft} = 0)`;
    case "uncounted":
      return sql`(${physical} and ${products.stock} is null)`;
    default:
      return undefined;
  }
}

/** The where and order by of the admin's product list (its filters and sort), shared by the list and the export. */
async function productListSelection(db: Database, query: z.infer<typeof productListQuery>) {
  const filters: SQL[] = [];
  if (query.group) filters.push(eq(products.groupKey, query.group));
  const lowStockAt = (await getSettings(db)).lowStockThreshold;
  const byStock = stockFilter(query.stock, lowStockAt);
  if (byStock) filters.push(byStock);
  if (query.q) {
    const like = likePattern(query.q.toLowerCase());
    // A text starting with / is (part of) an address; anything else a name, as lower(name) like ..., which the
    // trigram index on lower(name) serves.
    filters.push(
      query.q.startsWith("/")
        ? sql`lower(${products.route}) like ${like}`
        : or(
            sql`lower(${products.name}) like ${like}`,
            eq(sql`lower(${products.route})`, query.q.toLowerCase()),
          )!,
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  // Stock sorts products without a count last either way.
  const order =
    query.sort === "stock"
      ? sql`${stockLeft} ${sql.raw(query.dir === "asc" ? "asc" : "desc")} nulls last`
      : query.dir === "asc"
        ? asc(sorts[query.sort])
        : desc(sorts[query.sort]);
  return { where, order, lowStockAt };
}

export async function listProducts(db: Database, query: z.infer<typeof productListQuery>) {
  const { where, order, lowStockAt } = await productListSelection(db, query);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: products.id,
        groupKey: products.groupKey,
        externalId: products.externalId,
        name: products.name,
        priceCents: products.priceCents,
        originalPriceCents: products.originalPriceCents,
        route: products.route,
        img: products.img,
        hidden: products.hidden,
        stock: products.stock,
        updatedAt: products.updatedAt,
        section: brandGroups.section,
        groupName: brandGroups.name,
      })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .where(where)
      .orderBy(order, asc(products.position), asc(products.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ n: count() })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .where(where),
  ]);
  const pools = new Map(
    (
      await keyPoolCounts(
        db,
        rows.map((row) => row.id),
      )
    ).map((pool) => [pool.productId, pool]),
  );
  return {
    rows: rows.map((row) => ({
      ...row,
      updatedAt: row.updatedAt.toISOString(),
      // Printers and routers are shipped: they have no key pool.
      keys: isPhysicalSection(row.section) ? null : (pools.get(row.id) ?? { available: 0, assigned: 0 }),
      lowStock: isPhysicalSection(row.section) && row.stock !== null && row.stock <= lowStockAt,
      lowKeys:
        !isPhysicalSection(row.section) && !row.hidden && (pools.get(row.id)?.available ?? 0) < LOW_KEY_POOL,
    })),
    total: total?.n ?? 0,
  };
}

/** Most products one export writes: the import takes 5,000 rows per file. */
export const EXPORT_MAX_ROWS = 50_000;

/**
 * The products of the list's filters and sort, whole, in that order, for the CSV export (up to EXPORT_MAX_ROWS).
 */
export async function productsForExport(db: Database, query: z.infer<typeof productListQuery>) {
  const { where, order } = await productListSelection(db, query);
  const rows = await db
    .select({ product: products })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(where)
    .orderBy(order, asc(products.position), asc(products.id))
    .limit(EXPORT_MAX_ROWS);
  return rows.map((row) => row.product);
}

/** The brand groups a product can belong to, in the catalogue's order, for the form's select. */
export async function brandGroupOptions(db: Database) {
  const rows = await db
    .select({ key: brandGroups.key, name: brandGroups.name, section: brandGroups.section })
    .from(brandGroups)
    .orderBy(asc(brandGroups.position), asc(brandGroups.key));
  return rows.sort((a, b) => SECTION_ORDER.indexOf(a.section) - SECTION_ORDER.indexOf(b.section));
}

/** A product as the edit form shows it (its fields as the admin typed them), or null. */
export async function productForEdit(db: Database, id: number) {
  const [row] = await db
    .select({ product: products, section: brandGroups.section })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.id, id));
  if (!row) return null;
  const { product, section } = row;
  return {
    id: product.id,
    section,
    updatedAt: product.updatedAt.toISOString(),
    values: productFormValues(product),
  };
}

/** A stored product as the text fields of the product form (and of a CSV row). */
export function productFormValues(product: typeof products.$inferSelect) {
  return {
    groupKey: product.groupKey,
    externalId: product.externalId,
    name: product.name,
    description: product.description,
    price: toDecimalString(product.priceCents),
    originalPrice:
      product.originalPriceCents === product.priceCents ? "" : toDecimalString(product.originalPriceCents),
    inrPrice: product.inrPriceCents === null ? "" : toDecimalString(product.inrPriceCents),
    categories: product.categories.join(", "),
    img: product.img,
    route: product.route,
    specifications: product.specifications.map((spec) => `${spec.label}: ${spec.value}`).join("\n"),
    hidden: product.hidden ? "true" : "",
    waitingOrders: product.waitingOrders ? "wait" : "refuse",
    stock: product.stock === null ? "" : String(product.stock),
  };
}

export function toRow(form: ProductForm) {
  return {
    groupKey: form.groupKey,
    externalId: form.externalId,
    name: form.name,
    description: form.description,
    priceCents: parseMoney(form.price),
    originalPriceCents: parseMoney(form.originalPrice ?? form.price),
    inrPriceCents: rupeeCents(form.inrPrice),
    categories: form.categories,
    img: form.img,
    route: form.route,
    specifications: form.specifications,
    hidden: form.hidden,
    waitingOrders: form.waitingOrders,
    stock: form.stock,
  };
}

export type SaveResult = { ok: true; id: number } | { ok: false; errors: FieldErrors };

/** What the database alone can say about a product form: the brand exists, the id and the route are free. */
async function conflicts(db: Database, form: ProductForm, exceptId?: number): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const [group] = await db
    .select({ key: brandGroups.key, section: brandGroups.section })
    .from(brandGroups)
    .where(eq(brandGroups.key, form.groupKey));
  if (!group) errors.groupKey = "Choose a brand from the list";
  else if (typeof form.stock === "number" && !isPhysicalSection(group.section))
    errors.stock = "Software counts its licence keys: leave the stock empty";
  const others = exceptId === undefined ? undefined : ne(products.id, exceptId);
  const [sameId] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.groupKey, form.groupKey), eq(products.externalId, form.externalId), others));
  if (sameId) errors.externalId = "Another product of this brand has this id";
  const [sameRoute] = await db
    .select({ name: products.name })
    .from(products)
    .where(and(eq(sql`lower(${products.route})`, form.route.toLowerCase()), others));
  if (sameRoute) errors.route = `This address belongs to ${sameRoute.name}`;
  else {
    const reserved = reservedRouteReason(form.route) ?? (await brandPageAt(db, form.route));
    if (reserved) errors.route = reserved;
  }
  return errors;
}

/** The brand page a two-segment address like /antivirus/norton is (a product there would hide it), or null. */
export async function brandPageAt(db: Database | Transaction, route: string): Promise<string | null> {
  const segments = route.toLowerCase().split("/").filter(Boolean);
  if (segments.length !== 2 || !(SECTION_ORDER as string[]).includes(segments[0]!)) return null;
  const brands = await db
    .select({ name: brandGroups.name, section: brandGroups.section, slug: brandGroups.slug })
    .from(brandGroups)
    .where(and(eq(brandGroups.section, segments[0] as Section), eq(brandGroups.slug, segments[1]!)));
  return brandPageReason(route, brands);
}

export async function createProduct(db: Database, form: ProductForm, admin: string): Promise<SaveResult> {
  const errors = await conflicts(db, form);
  if (Object.keys(errors).length) return { ok: false, errors };
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(products).values(toRow(form)).returning();
    await recordAudit(tx, {
      actor: admin,
      action: "product.create",
      entity: "product",
      entityId: row!.id,
      after: row,
    });
    return { ok: true, id: row!.id };
  });
}

export async function updateProduct(
  db: Database,
  id: number,
  form: ProductForm,
  admin: string,
): Promise<SaveResult> {
  const errors = await conflicts(db, form, id);
  if (Object.keys(errors).length) return { ok: false, errors };
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!before) return { ok: false, errors: { form: "This product no longer exists" } };
    const [after] = await tx
      .update(products)
      .set({ ...toRow(form), updatedAt: sql`now()` })
      .where(eq(products.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "product.update",
      entity: "product",
      entityId: id,
      before,
      after,
    });
    return { ok: true, id };
  });
}

/** Hides or shows a product; false when there is no such product. */
export async function setProductHidden(
  db: Database,
  id: number,
  hidden: boolean,
  admin: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ hidden: products.hidden }).from(products).where(eq(products.id, id));
    if (!before) return false;
    await tx
      .update(products)
      .set({ hidden, updatedAt: sql`now()` })
      .where(eq(products.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: hidden ? "product.hide" : "product.show",
      entity: "product",
      entityId: id,
      before,
      after: { hidden },
    });
    return true;
  });
}

/** Deletes a product that never had licence keys; orders keep their snapshots. Otherwise: hide it. */
export async function deleteProduct(
  db: Database,
  id: number,
  admin: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!before) return { ok: false, error: "This product no longer exists" };
    const [keys] = await tx.select({ n: count() }).from(licenceKeys).where(eq(licenceKeys.productId, id));
    if ((keys?.n ?? 0) > 0)
      return { ok: false, error: "This product has licence keys on record: hide it instead of deleting it" };
    await tx.delete(products).where(eq(products.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: "product.delete",
      entity: "product",
      entityId: id,
      before,
    });
    return { ok: true };
  });
}

/** The suppliers and batches an import named, for its audit entry (never the keys). */
function importSources(keys: KeyEntry[]) {
  const sources = keys.filter((entry) => typeof entry !== "string");
  const distinct = (values: Array<string | null | undefined>) => [
    ...new Set(values.filter((value): value is string => Boolean(value))),
  ];
  const suppliers = distinct(sources.map((entry) => entry.supplier));
  const batches = distinct(sources.map((entry) => entry.batch));
  return {
    ...(suppliers.length > 0 ? { suppliers } : {}),
    ...(batches.length > 0 ? { batches } : {}),
  };
}

/** Adds keys to a product's pool, then serves orders that were waiting for them. */
export async function importKeys(
  ctx: OrdersContext & { cipher: KeyCipher },
  productId: number,
  keys: KeyEntry[],
  admin: string,
  /** The variant whose pool takes them; none for a product sold without variants. */
  variant?: { id: number; sku: string },
) {
  const report = await ctx.db.transaction(async (tx) => {
    const result = await addLicenceKeys(tx, ctx.cipher, productId, keys, variant?.id ?? null);
    await recordAudit(tx, {
      actor: admin,
      action: "keys.import",
      entity: "product",
      entityId: productId,
      after: {
        ...result,
        ...(variant ? { variant: variant.sku } : {}),
        ...importSources(keys),
      },
    });
    return result;
  });
  const delivered = await deliverAwaitingKeys(ctx, productId);
  return { ...report, delivered };
}
