import { and, count, eq, gt, gte, isNull, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { licenceKeyReports, licenceKeys, orderLines, orders, outboxEmails } from "~db/schema";
import { pendingReviewCount } from "./reviews.server";
import { lowKeyPools, lowPhysicalStock } from "~/modules/catalogue/stock.server";
import { expiringLicences, renewalsWon } from "~/modules/orders/renewals.server";
import { mayUse } from "~/modules/accounts/staff-roles";
import { getSettings } from "~/modules/orders/settings.server";

/** Below this many unused keys a software product's pool shows as low. */
export const LOW_KEY_POOL = 5;

const DAY = 24 * 60 * 60 * 1000;

/**
 * Orders and revenue (paid orders, by the day they were paid) for today, 7 and 30 days; UTC days; in dollars, and
 * orders in rupees summed apart. Test orders (placed while the store took test payments) moved no money: they are
 * left out, and counted apart for the 30 days.
 */
export async function salesSummary(db: Database, now = new Date()) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const windows = {
    today,
    week: new Date(today.getTime() - 6 * DAY),
    month: new Date(today.getTime() - 29 * DAY),
  };
  // Sums per currency (ADR 0039): dollars and rupees are never added together.
  const windowSums = (currency: "USD" | "INR") => {
    const real = sql`not ${orders.isTest} and ${orders.currency} = ${currency}`;
    const since = (from: Date) => sql`${real} and ${orders.paidAt} >= ${from}`;
    return {
      todayOrders: sql<number>`count(*) filter (where ${since(windows.today)})`.mapWith(Number),
      todayRevenue:
        sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${since(windows.today)}), 0)`.mapWith(
          Number,
        ),
      weekOrders: sql<number>`count(*) filter (where ${since(windows.week)})`.mapWith(Number),
      weekRevenue:
        sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${since(windows.week)}), 0)`.mapWith(
          Number,
        ),
      monthOrders: sql<number>`count(*) filter (where ${real})`.mapWith(Number),
      monthRevenue: sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${real}), 0)`.mapWith(
        Number,
      ),
    };
  };
  const inWindow = and(gte(orders.paidAt, windows.month), sql`${orders.paymentStatus} = 'paid'`);
  const [[row], [rupees], [tests]] = await Promise.all([
    db.select(windowSums("USD")).from(orders).where(inWindow),
    db.select(windowSums("INR")).from(orders).where(inWindow),
    db
      .select({ monthTestOrders: sql<number>`count(*) filter (where ${orders.isTest})`.mapWith(Number) })
      .from(orders)
      .where(inWindow),
  ]);
  const daily = await db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${orders.paidAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      revenueCents: sql<number>`sum(${orders.totalCents})`.mapWith(Number),
      orders: sql<number>`count(*)`.mapWith(Number),
    })
    .from(orders)
    .where(
      and(
        gte(orders.paidAt, windows.month),
        sql`${orders.paymentStatus} = 'paid'`,
        eq(orders.isTest, false),
        eq(orders.currency, "USD"),
      ),
    )
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  // Every one of the 30 days, with zeros where nothing sold.
  const byDay = new Map(daily.map((entry) => [entry.day, entry]));
  const chart = Array.from({ length: 30 }, (_, index) => {
    const day = new Date(windows.month.getTime() + index * DAY).toISOString().slice(0, 10);
    return { day, revenueCents: byDay.get(day)?.revenueCents ?? 0, orders: byDay.get(day)?.orders ?? 0 };
  });
  const summed = (sums: typeof row) => ({
    today: { orders: sums?.todayOrders ?? 0, revenueCents: sums?.todayRevenue ?? 0 },
    week: { orders: sums?.weekOrders ?? 0, revenueCents: sums?.weekRevenue ?? 0 },
    month: { orders: sums?.monthOrders ?? 0, revenueCents: sums?.monthRevenue ?? 0 },
  });
  return {
    /** Orders in dollars (the chart too). */
    ...summed(row),
    /** Orders in rupees, summed apart. */
    rupees: summed(rupees),
    testOrders: tests?.monthTestOrders ?? 0,
    chart,
  };
}

/**
 * What needs the store's attention: payments to confirm, keys to supply, parcels to send, e-mails that failed,
 * pools running dry.
 */
export async function workQueue(db: Database) {
  const lowStockAt = (await getSettings(db)).lowStockThreshold;
  const [[payment], [keys], [shipping], [failed], [reports], reviews, lowPools, lowStock] = await Promise.all(
    [
      db.select({ n: count() }).from(orders).where(eq(orders.status, "pending_payment")),
      db
        .select({ n: count() })
        .from(orders)
        .where(and(eq(orders.status, "paid"), gt(orders.awaitingKeys, 0))),
      db
        .select({ n: sql<number>`count(distinct ${orders.id})`.mapWith(Number) })
        .from(orders)
        .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
        .where(
          and(
            eq(orders.status, "paid"),
            eq(orderLines.kind, "physical"),
            isNull(orderLines.shipmentId),
            isNull(orderLines.refundedAt),
          ),
        ),
      // E-mails the outbox gave up on (every attempt failed): the owner resends them from /admin/emails.
      db.select({ n: count() }).from(outboxEmails).where(eq(outboxEmails.status, "failed")),
      // Keys customers say do not work, waiting for a replacement or a reply (/admin/key-reports).
      db.select({ n: count() }).from(licenceKeyReports).where(eq(licenceKeyReports.status, "open")),
      // Product reviews waiting for approval (/admin/reviews).
      pendingReviewCount(db),
      lowKeyPools(db, LOW_KEY_POOL),
      // Printers and routers at or below the low-stock mark (the lowStockThreshold setting).
      lowPhysicalStock(db, lowStockAt),
    ],
  );
  return {
    awaitingPayment: payment?.n ?? 0,
    awaitingKeys: keys?.n ?? 0,
    awaitingShipment: shipping?.n ?? 0,
    failedEmails: failed?.n ?? 0,
    openKeyReports: reports?.n ?? 0,
    pendingReviews: reviews,
    lowKeyPools: lowPools,
    lowStock,
  };
}

/**
 * Licence keys as money: what the unsold keys cost the store, and what the licences paid for in the last 30 days
 * earned over their keys' cost (lines before tax and after discount; refunded lines left out). Lines whose keys
 * include one imported without a cost are counted apart, never priced at zero.
 */
export async function keyEconomics(db: Database, now = new Date()) {
  const since = new Date(now.getTime() - 30 * DAY);
  const lineKeys = db
    .select({
      lineId: licenceKeys.orderLineId,
      costCents: sql<number>`sum(${licenceKeys.costCents})`.as("cost_cents"),
      uncosted: sql<number>`count(*) filter (where ${licenceKeys.costCents} is null)`.as("uncosted"),
    })
    .from(licenceKeys)
    // A key replaced as broken was paid for too; a refunded line's keys are left out with their line.
    .where(
      and(
        sql`${licenceKeys.orderLineId} is not null`,
        sql`(${licenceKeys.revokedAt} is null or ${licenceKeys.replacedByKeyId} is not null)`,
      ),
    )
    .groupBy(licenceKeys.orderLineId)
    .as("line_keys");
  const costed = sql`${lineKeys.uncosted} = 0`;
  const netCents = sql`${orderLines.lineTotalCents} - ${orderLines.discountCents}
    - case when ${orders.pricesIncludeTax} then ${orderLines.taxCents} else 0 end`;
  const [[pool], [sold]] = await Promise.all([
    db
      .select({
        valueCents: sql<number>`coalesce(sum(${licenceKeys.costCents}), 0)`.mapWith(Number),
        uncosted: sql<number>`count(*) filter (where ${licenceKeys.costCents} is null)`.mapWith(Number),
      })
      .from(licenceKeys)
      .where(isNull(licenceKeys.orderLineId)),
    db
      .select({
        revenueCents: sql<number>`coalesce(sum(${netCents}) filter (where ${costed}), 0)`.mapWith(Number),
        costCents: sql<number>`coalesce(sum(${lineKeys.costCents}) filter (where ${costed}), 0)`.mapWith(
          Number,
        ),
        lines: sql<number>`count(*) filter (where ${costed})`.mapWith(Number),
        uncostedLines: sql<number>`count(*) filter (where not ${costed})`.mapWith(Number),
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .innerJoin(lineKeys, eq(lineKeys.lineId, orderLines.id))
      .where(
        and(
          sql`${orders.paymentStatus} = 'paid'`,
          eq(orders.isTest, false),
          // Keys cost dollars: what they earned is worked out on orders in dollars.
          eq(orders.currency, "USD"),
          gte(orders.paidAt, since),
          isNull(orderLines.refundedAt),
        ),
      ),
  ]);
  return {
    /** The unsold keys at cost, and how many of them have no cost on record. */
    pool: { valueCents: pool?.valueCents ?? 0, uncosted: pool?.uncosted ?? 0 },
    /** The last 30 days' licence lines whose every key has a cost: revenue, cost, margin; the rest counted. */
    month: {
      revenueCents: sold?.revenueCents ?? 0,
      costCents: sold?.costCents ?? 0,
      marginCents: (sold?.revenueCents ?? 0) - (sold?.costCents ?? 0),
      lines: sold?.lines ?? 0,
      uncostedLines: sold?.uncostedLines ?? 0,
    },
  };
}

/**
 * Renewals, for the owner: licences of customers expiring in the next 30 days (how many, the soonest few), and the
 * renewals won in the last 30 days (the dashboard's longest period).
 */
export async function renewalsSummary(db: Database, now = new Date()) {
  const [expiring, won] = await Promise.all([expiringLicences(db, now), renewalsWon(db, now)]);
  return { expiring, won };
}

/** Paid orders on hold (ADR 0035): each waits for the owner to approve or reject it. */
export async function heldOrderCount(db: Database) {
  const [row] = await db.select({ n: count() }).from(orders).where(eq(orders.status, "held"));
  return row?.n ?? 0;
}

/**
 * The dashboard of a staff role (ADR 0037): each figure only for a role that may use the page it leads to, so money
 * (sales, key costs) reaches the owner and the orders role alone, and nobody sees a count they could not act on.
 */
export async function dashboardFor(db: Database, role: string) {
  const may = (path: string) => mayUse(role, path);
  const orderDesk = may("/admin/orders");
  const [sales, queue, keys, renewals, held] = await Promise.all([
    orderDesk ? salesSummary(db) : null,
    workQueue(db),
    may("/admin/keys") ? keyEconomics(db) : null,
    // The renewals block speaks of the reminder settings: the owner's.
    may("/admin/settings") ? renewalsSummary(db) : null,
    orderDesk ? heldOrderCount(db) : null,
  ]);
  const when = <T>(allowed: boolean, value: T) => (allowed ? value : null);
  return {
    sales,
    keys,
    renewals,
    held,
    queue: {
      awaitingPayment: when(orderDesk, queue.awaitingPayment),
      awaitingKeys: when(orderDesk, queue.awaitingKeys),
      awaitingShipment: when(orderDesk, queue.awaitingShipment),
      openKeyReports: when(may("/admin/key-reports"), queue.openKeyReports),
      failedEmails: when(may("/admin/emails"), queue.failedEmails),
      pendingReviews: when(may("/admin/reviews"), queue.pendingReviews),
      lowKeyPools: when(may("/admin/keys"), queue.lowKeyPools),
      lowStock: when(may("/admin/products/:id"), queue.lowStock),
    },
  };
}
