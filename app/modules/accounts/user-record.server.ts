import { desc, eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orders, user } from "~db/schema";
import type { WireUserRecord } from "./user-record";

/** How many of the user's latest orders the record carries. */
export const RECORD_ORDERS = 20;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The live user record of a user, or null when it no longer exists. */
export async function getUserRecord(db: Database, uid: string): Promise<WireUserRecord | null> {
  const [row] = await db.select().from(user).where(eq(user.id, uid));
  if (!row) return null;
  const recent = await db
    .select({
      number: orders.number,
      status: orders.status,
      totalCents: orders.totalCents,
      currency: orders.currency,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(eq(orders.userId, uid))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(RECORD_ORDERS);
  return {
    uid: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    status: row.status,
    lastLogin: iso(row.lastLogin),
    lastLogout: iso(row.lastLogout),
    timestamp: iso(row.timestamp),
    orders: recent.map((order) => {
      const ms = order.createdAt.getTime();
      return {
        number: order.number,
        status: order.status,
        totalCents: order.totalCents,
        currency: order.currency,
        timestamp: { seconds: Math.floor(ms / 1000), nanoseconds: (ms % 1000) * 1e6 },
      };
    }),
  };
}
