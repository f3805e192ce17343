import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orderLines, orders } from "~db/schema";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { keysForOrder } from "./licence-keys.server";
import { recordEvent } from "./orders.server";

/** How many orders the account's order list shows. */
export const ORDERS_PAGE = 50;

/** A signed-in customer's orders (only theirs: filtered by user id), newest first, with lines and keys. */
export async function ordersForUser(
  ctx: { db: Database; cipher: KeyCipher },
  userId: string,
  limit = ORDERS_PAGE,
) {
  const list = await ctx.db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  if (list.length === 0) return [];
  const lines = await ctx.db
    .select()
    .from(orderLines)
    .where(
      inArray(
        orderLines.orderId,
        list.map((order) => order.id),
      ),
    )
    .orderBy(asc(orderLines.id));
  const keys = await Promise.all(list.map((order) => keysForOrder(ctx.db, ctx.cipher, order.id)));
  return list.map((order, index) => ({
    order,
    lines: lines
      .filter((line) => line.orderId === order.id)
      .map((line) => ({ ...line, keys: keys[index]!.get(line.id) ?? [] })),
  }));
}

const guestOrdersOf = (email: string) =>
  and(isNull(orders.userId), eq(sql`lower(${orders.email})`, email.trim().toLowerCase()));

/** Orders placed as a guest with this e-mail address, not yet in any account. */
export async function claimableOrderCount(db: Database, email: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .where(guestOrdersOf(email));
  return row?.count ?? 0;
}

export type ClaimResult = { ok: true; claimed: number[] } | { ok: false; reason: "unverified" };

/**
 * Adds the guest orders placed with the account's e-mail address to the account: only once the address is
 * verified (whoever proves the address owns its orders).
 */
export async function claimGuestOrders(
  db: Database,
  account: { id: string; email: string; emailVerified: boolean },
): Promise<ClaimResult> {
  if (!account.emailVerified) return { ok: false, reason: "unverified" };
  const claimed = await db.transaction(async (tx) => {
    const rows = await tx
      .update(orders)
      .set({ userId: account.id, updatedAt: sql`now()` })
      .where(guestOrdersOf(account.email))
      .returning({ id: orders.id, number: orders.number });
    for (const row of rows) {
      await recordEvent(tx, row.id, "claimed", "customer", "Added to the customer's account");
    }
    return rows;
  });
  return { ok: true, claimed: claimed.map((row) => row.number).sort((a, b) => a - b) };
}
