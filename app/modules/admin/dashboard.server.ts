import { and, count, eq, gt, gte, isNull, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orderLines, orders, outboxEmails } from "~db/schema";
import { lowKeyPools, lowPhysicalStock } from "~/modules/catalogue/stock.server";
import { getSettings } from "~/modules/orders/settings.server";

/** Below this many unused keys a software product's pool shows as low. */
export const LOW_KEY_POOL = 5;

const DAY = 24 * 60 * 60 * 1000;

/**
 * Orders and revenue (paid orders, by the day they were paid) for today, 7 and 30 days; UTC days. Test orders (placed
 * while the store took test payments) moved no money: they are left out, and counted apart for the 30 days.
 */
export async function salesSummary(db: Database, now = new Date()) {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const windows = {
    today,
    week: new Date(today.getTime() - 6 * DAY),
    month: new Date(today.getTime() - 29 * DAY),
  };
  const real = sql`not ${orders.isTest}`;
  const [row] = await db
    .select({
      todayOrders:
        sql<number>`count(*) filter (where ${real} and ${orders.paidAt} >= ${windows.today})`.mapWith(Number),
      todayRevenue:
        sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${real} and ${orders.paidAt} >= ${windows.today}), 0)`.mapWith(
          Number,
        ),
      weekOrders:
        sql<number>`count(*) filter (where ${real} and ${orders.paidAt} >= ${windows.week})`.mapWith(Number),
      weekRevenue:
        sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${real} and ${orders.paidAt} >= ${windows.week}), 0)`.mapWith(
          Number,
        ),
      monthOrders: sql<number>`count(*) filter (where ${real})`.mapWith(Number),
      monthRevenue: sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${real}), 0)`.mapWith(
        Number,
      ),
      monthTestOrders: sql<number>`count(*) filter (where ${orders.isTest})`.mapWith(Number),
    })
    .from(orders)
    .where(and(gte(orders.paidAt, windows.month), sql`${orders.paymentStatus} = 'paid'`));
  const daily = await db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${orders.paidAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      revenueCents: sql<number>`sum(${orders.totalCents})`.mapWith(Number),
      orders: sql<number>`count(*)`.mapWith(Number),
    })
    .from(orders)
    .where(
      and(gte(orders.paidAt, windows.month), sql`${orders.paymentStatus} = 'paid'`, eq(orders.isTest, false)),
    )
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  // Every one of the 30 days, with zeros where nothing sold.
  const byDay = new Map(daily.map((entry) => [entry.day, entry]));
  const chart = Array.from({ length: 30 }, (_, index) => {
    const day = new Date(windows.month.getTime() + index * DAY).toISOString().slice(0, 10);
    return { day, revenueCents: byDay.get(day)?.revenueCents ?? 0, orders: byDay.get(day)?.orders ?? 0 };
  });
  return {
    today: { orders: row?.todayOrders ?? 0, revenueCents: row?.todayRevenue ?? 0 },
    week: { orders: row?.weekOrders ?? 0, revenueCents: row?.weekRevenue ?? 0 },
    month: { orders: row?.monthOrders ?? 0, revenueCents: row?.monthRevenue ?? 0 },
    testOrders: row?.monthTestOrders ?? 0,
    chart,
  };
}

/**
 * What needs the store's attention: payments to confirm, keys to supply, parcels to send, e-mails that failed,
 * pools running dry.
 */
export async function workQueue(db: Database) {
  const lowStockAt = (await getSettings(db)).lowStockThreshold;
  const [[payment], [keys], [shipping], [failed], lowPools, lowStock] = await Promise.all([
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
    lowKeyPools(db, LOW_KEY_POOL),
    // Printers and routers at or below the low-stock mark (the lowStockThreshold setting).
    lowPhysicalStock(db, lowStockAt),
  ]);
  return {
    awaitingPayment: payment?.n ?? 0,
    awaitingKeys: keys?.n ?? 0,
    awaitingShipment: shipping?.n ?? 0,
    failedEmails: failed?.n ?? 0,
    lowKeyPools: lowPools,
    lowStock,
  };
}

/** Paid orders on hold (ADR 0035): each waits for the owner to approve or reject it. */
export async function heldOrderCount(db: Database) {
  const [row] = await db.select({ n: count() }).from(orders).where(eq(orders.status, "held"));
  return row?.n ?? 0;
}
