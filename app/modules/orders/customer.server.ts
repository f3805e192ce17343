import { asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orderLines, orders } from "~db/schema";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { keysForOrder } from "./licence-keys.server";

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
