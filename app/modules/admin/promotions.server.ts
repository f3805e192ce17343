import type { Currency } from "~/lib/money";
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, orders, products, promotions } from "~db/schema";
import type { Promotion } from "~db/schema/pricing";
import { brandNames } from "~/modules/catalogue/catalogue.server";
import { SECTION_ORDER } from "~/modules/catalogue/sections";
import { recordAudit } from "~/lib/audit-log.server";
import { isUniqueViolation, NOT_FOUND, refused, type WriteResult } from "./content-db.server";
import { likePattern, type ListPage, offsetOf } from "./list-query";
import { describeTerms, type ScopeNames } from "./promotion-terms";
import {
  PROMOTION_STATUSES,
  type PromotionInput,
  type PromotionListQuery,
  type PromotionStatus,
  scopeField,
} from "./promotions-schemas";

/**
 * The store owner's side of discount codes: the list with each code's status, uses and revenue, and the writes
 * (create, edit, pause, resume, delete), each in one transaction with its audit entry. Applying codes to carts and
 * counting their uses is checkout's work; this module never changes `uses` or an order.
 */

/**
 * Where a code stands at `now`, as SQL, so the list filters and counts by the same rule it shows: paused first (the
 * owner's choice), then expired, used up, not started yet, else active.
 */
function statusAt(now: Date): SQL<PromotionStatus> {
  return sql<PromotionStatus>`case
    when ${promotions.paused} then 'paused'
    when ${promotions.endsAt} is not null and ${promotions.endsAt} <= ${now} then 'expired'
    when ${promotions.usageLimit} is not null and ${promotions.uses} >= ${promotions.usageLimit} then 'used_up'
    when ${promotions.startsAt} is not null and ${promotions.startsAt} > ${now} then 'scheduled'
    else 'active' end`;
}

/**
 * What the orders that used each code came to: orders not cancelled and not test orders (no money moved), in the
 * code's currency (never dollars and rupees added together), their totals less what was refunded, and the discount
 * they were given; and every order that names the code, cancelled, test and other-currency ones too (a code with
 * any is kept).
 */
function usageOfCodes(db: Database) {
  const counted = sql`${orders.status} <> 'cancelled' and not ${orders.isTest} and ${orders.currency} = ${promotions.currency}`;
  return db
    .select({
      promotionId: orders.promotionId,
      orders: sql<number>`count(*) filter (where ${counted})`.as("orders"),
      revenueCents:
        sql<number>`sum(${orders.totalCents} - ${orders.refundedCents}) filter (where ${counted})`.as(
          "revenue_cents",
        ),
      discountCents: sql<number>`sum(${orders.discountCents}) filter (where ${counted})`.as("discount_cents"),
      placed: sql<number>`count(*)`.as("placed"),
    })
    .from(orders)
    .innerJoin(promotions, eq(promotions.id, orders.promotionId))
    .where(isNotNull(orders.promotionId))
    .groupBy(orders.promotionId)
    .as("usage");
}

/** A code's figures from its orders (see usageOfCodes), zero for a code no order used. */
function figuresOf(usage: ReturnType<typeof usageOfCodes>) {
  return {
    orders: sql<number>`coalesce(${usage.orders}, 0)`.mapWith(Number),
    revenueCents: sql<number>`coalesce(${usage.revenueCents}, 0)`.mapWith(Number),
    discountCents: sql<number>`coalesce(${usage.discountCents}, 0)`.mapWith(Number),
    ordersPlaced: sql<number>`coalesce(${usage.placed}, 0)`.mapWith(Number),
  };
}

export type PromotionRow = {
  id: number;
  code: string;
  description: string;
  terms: string;
  status: PromotionStatus;
  uses: number;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  startsAt: string | null;
  endsAt: string | null;
  orders: number;
  /** What revenueCents and discountCents are in: the code's currency. */
  currency: Currency;
  revenueCents: number;
  discountCents: number;
  /** Every order that names it, cancelled ones too: a code with any cannot be deleted. */
  ordersPlaced: number;
  createdAt: string;
};

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** One page of discount codes, with how many there are of each status (for the filter). */
export async function listPromotions(
  db: Database,
  query: PromotionListQuery,
  now = new Date(),
): Promise<ListPage<PromotionRow> & { counts: Record<PromotionStatus, number> }> {
  const status = statusAt(now);
  const usage = usageOfCodes(db);
  const figures = figuresOf(usage);
  const search = query.q
    ? or(ilike(promotions.code, likePattern(query.q)), ilike(promotions.description, likePattern(query.q)))
    : undefined;
  const where = and(search, query.status === "all" ? undefined : sql`${status} = ${query.status}`);
  const direction = query.dir === "asc" ? asc : desc;
  const order: SQL[] =
    query.sort === "code"
      ? [direction(sql`lower(${promotions.code})`)]
      : query.sort === "uses"
        ? [direction(promotions.uses)]
        : query.sort === "revenue"
          ? [direction(figures.revenueCents)]
          : query.sort === "ends"
            ? [sql`${promotions.endsAt} ${sql.raw(query.dir === "asc" ? "asc" : "desc")} nulls last`]
            : [direction(promotions.createdAt)];
  const [rows, [total], counted] = await Promise.all([
    db
      .select({ promotion: promotions, status, ...figures })
      .from(promotions)
      .leftJoin(usage, eq(usage.promotionId, promotions.id))
      .where(where)
      .orderBy(...order, direction(promotions.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(promotions).where(where),
    db
      .select({ status, n: count() })
      .from(promotions)
      .where(search)
      .groupBy(sql`1`),
  ]);
  const known = await scopeNames(
    db,
    rows.map((row) => row.promotion),
  );
  const counts = Object.fromEntries(PROMOTION_STATUSES.map((name) => [name, 0])) as Record<
    PromotionStatus,
    number
  >;
  for (const row of counted) counts[row.status] = row.n;
  return {
    total: total?.n ?? 0,
    counts,
    rows: rows.map(({ promotion, ...figures }) => ({
      id: promotion.id,
      code: promotion.code,
      description: promotion.description,
      terms: describeTerms(promotion, known),
      uses: promotion.uses,
      usageLimit: promotion.usageLimit,
      perCustomerLimit: promotion.perCustomerLimit,
      startsAt: iso(promotion.startsAt),
      endsAt: iso(promotion.endsAt),
      createdAt: promotion.createdAt.toISOString(),
      currency: promotion.currency,
      ...figures,
    })),
  };
}

/** The names of the brands and products some codes apply to. */
async function scopeNames(
  db: Database,
  codes: Pick<Promotion, "scope" | "scopeValues">[],
): Promise<ScopeNames> {
  const brandKeys = codes.flatMap((code) => (code.scope === "brands" ? code.scopeValues : []));
  const productIds = codes
    .flatMap((code) => (code.scope === "products" ? code.scopeValues : []))
    .filter((id) => /^\d{1,9}$/.test(id))
    .map(Number);
  const [brands, productRows] = await Promise.all([
    brandNames(db, brandKeys),
    productIds.length
      ? db
          .select({ id: products.id, name: products.name })
          .from(products)
          .where(inArray(products.id, [...new Set(productIds)]))
      : [],
  ]);
  return {
    brands,
    products: Object.fromEntries(productRows.map((row) => [String(row.id), row.name])),
  };
}

/** What the form offers to apply a code to: the sections, the brand groups and the products, in catalogue order. */
export async function promotionScopeOptions(db: Database) {
  const [brandRows, productRows] = await Promise.all([
    db
      .select({ key: brandGroups.key, name: brandGroups.name, section: brandGroups.section })
      .from(brandGroups)
      .orderBy(asc(brandGroups.position), asc(brandGroups.key)),
    db
      .select({ id: products.id, name: products.name, groupKey: products.groupKey, hidden: products.hidden })
      .from(products)
      .orderBy(asc(products.position), asc(products.id)),
  ]);
  const brands = brandRows.sort(
    (a, b) => SECTION_ORDER.indexOf(a.section) - SECTION_ORDER.indexOf(b.section),
  );
  return {
    brands,
    // Products under their brand, brands in the order above.
    products: brands.flatMap((brand) =>
      productRows
        .filter((product) => product.groupKey === brand.key)
        .map((product) => ({ ...product, id: String(product.id), brandName: brand.name })),
    ),
  };
}

export type PromotionOptions = Awaited<ReturnType<typeof promotionScopeOptions>>;

/** One code for its edit page: the stored row, its status, terms in words and figures, and its latest orders. */
export async function promotionForEdit(db: Database, id: number, now = new Date()) {
  const usage = usageOfCodes(db);
  const [found] = await db
    .select({ promotion: promotions, status: statusAt(now), ...figuresOf(usage) })
    .from(promotions)
    .leftJoin(usage, eq(usage.promotionId, promotions.id))
    .where(eq(promotions.id, id));
  if (!found) return null;
  const [known, latest] = await Promise.all([
    scopeNames(db, [found.promotion]),
    db
      .select({
        number: orders.number,
        email: orders.email,
        status: orders.status,
        totalCents: orders.totalCents,
        currency: orders.currency,
        discountCents: orders.discountCents,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .where(eq(orders.promotionId, id))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(10),
  ]);
  const { promotion, ...figures } = found;
  return {
    ...figures,
    currency: promotion.currency,
    promotion,
    terms: describeTerms(promotion, known),
    latestOrders: latest.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
  };
}

const codeTaken = (code: string) => `The code ${code} is taken: another discount code has it (in any case)`;

/** Refusals for what a code applies to that is not in the catalogue (a forged or stale form). */
async function unknownScopeValues(tx: Transaction, input: PromotionInput) {
  if (input.scope === "brands") {
    const found = await tx
      .select({ key: brandGroups.key })
      .from(brandGroups)
      .where(inArray(brandGroups.key, input.scopeValues));
    const missing = input.scopeValues.filter((key) => !found.some((row) => row.key === key));
    if (missing.length) return { [scopeField("brands")]: `No such brand: ${missing.slice(0, 5).join(", ")}` };
  }
  if (input.scope === "products") {
    const ids = input.scopeValues.map(Number).filter((id) => id <= 2_147_483_647);
    const found = ids.length
      ? await tx.select({ id: products.id }).from(products).where(inArray(products.id, ids))
      : [];
    const missing = input.scopeValues.filter((id) => !found.some((row) => String(row.id) === id));
    if (missing.length)
      return {
        [scopeField("products")]:
          `These products are not in the catalogue (any more): ${missing.slice(0, 5).join(", ")}`,
      };
  }
  return null;
}

async function takenBy(tx: Transaction, code: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: promotions.id })
    .from(promotions)
    .where(
      and(
        sql`lower(${promotions.code}) = lower(${code})`,
        exceptId === undefined ? undefined : ne(promotions.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * An end the owner may not set: a new code ending now or before would never work. An existing code is ended with
 * Pause or by setting its end to the current time, so on edit an end up to END_NOW_SLACK_MS ago counts as "now"
 * (the field takes whole minutes, and saving takes a moment); an older one is refused. An end left as it was is
 * not checked again: an expired code's other fields stay editable.
 */
const END_NOW_SLACK_MS = 5 * 60_000;
const END_IN_PAST = "The end date is in the past: the code would never work";
const END_IN_PAST_ON_EDIT =
  "The end date is in the past: to end the code now, pause it or set the end to the current time";

/** Adds a discount code; refused when its text is taken (in any case) or it names what the catalogue lacks. */
export async function createPromotion(
  db: Database,
  input: PromotionInput,
  admin: string,
  now = new Date(),
): Promise<WriteResult> {
  if (input.endsAt && input.endsAt <= now) return refused({ endsAt: END_IN_PAST });
  try {
    return await db.transaction(async (tx): Promise<WriteResult> => {
      const unknown = await unknownScopeValues(tx, input);
      if (unknown) return refused(unknown);
      if (await takenBy(tx, input.code)) return refused({ code: codeTaken(input.code) });
      const [after] = await tx.insert(promotions).values(input).returning();
      await recordAudit(tx, {
        actor: admin,
        action: "promotion.create",
        entity: "promotion",
        entityId: after!.id,
        after,
      });
      return { ok: true, id: after!.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refused({ code: codeTaken(input.code) });
    throw error;
  }
}

/**
 * Changes a code's terms. Orders already placed keep what they were charged (their own snapshot), and the use
 * count stays: a limit set below it makes the code used up.
 */
export async function updatePromotion(
  db: Database,
  id: number,
  input: PromotionInput,
  admin: string,
  now = new Date(),
): Promise<WriteResult> {
  try {
    return await db.transaction(async (tx): Promise<WriteResult> => {
      const [before] = await tx.select().from(promotions).where(eq(promotions.id, id)).for("update");
      if (!before) return NOT_FOUND;
      if (
        input.endsAt &&
        input.endsAt.getTime() !== before.endsAt?.getTime() &&
        input.endsAt.getTime() < now.getTime() - END_NOW_SLACK_MS
      )
        return refused({ endsAt: END_IN_PAST_ON_EDIT });
      const unknown = await unknownScopeValues(tx, input);
      if (unknown) return refused(unknown);
      if (await takenBy(tx, input.code, id)) return refused({ code: codeTaken(input.code) });
      const [after] = await tx
        .update(promotions)
        .set({ ...input, updatedAt: sql`now()` })
        .where(eq(promotions.id, id))
        .returning();
      await recordAudit(tx, {
        actor: admin,
        action: "promotion.update",
        entity: "promotion",
        entityId: id,
        before,
        after,
      });
      return { ok: true, id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refused({ code: codeTaken(input.code) });
    throw error;
  }
}

/** Pauses a code (checkout refuses it) or lets it run again; false when there is no such code. */
export async function setPromotionPaused(db: Database, id: number, paused: boolean, admin: string) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(promotions).where(eq(promotions.id, id)).for("update");
    if (!before) return false;
    const [after] = await tx
      .update(promotions)
      .set({ paused, updatedAt: sql`now()` })
      .where(eq(promotions.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: paused ? "promotion.pause" : "promotion.resume",
      entity: "promotion",
      entityId: id,
      before,
      after,
    });
    return true;
  });
}

export type DeleteOutcome =
  | { ok: true }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "used"; orders: number };

/**
 * Deletes a code no order has used. A code with orders is kept (pause it instead): its uses and revenue are
 * counted from the orders that name it, and its text must stay taken, or a new code with the same text would
 * start again from no uses for customers who had reached their limit. The row lock orders this against a checkout
 * placing an order with the code, which locks the row to count the use.
 */
export async function deletePromotion(db: Database, id: number, admin: string): Promise<DeleteOutcome> {
  return db.transaction(async (tx): Promise<DeleteOutcome> => {
    const [before] = await tx.select().from(promotions).where(eq(promotions.id, id)).for("update");
    if (!before) return { ok: false, reason: "not-found" };
    const [used] = await tx.select({ n: count() }).from(orders).where(eq(orders.promotionId, id));
    const orderCount = Math.max(used?.n ?? 0, before.uses);
    if (orderCount > 0) return { ok: false, reason: "used", orders: orderCount };
    await tx.delete(promotions).where(eq(promotions.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: "promotion.delete",
      entity: "promotion",
      entityId: id,
      before,
    });
    return { ok: true };
  });
}
