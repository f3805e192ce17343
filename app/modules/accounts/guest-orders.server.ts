/**
 * Orders placed as a guest with an e-mail address join the account of that address once the account has proven the
 * address its own: when the confirmation link (of a sign-up or of a new address) or a password reset link e-mailed
 * to it is opened, or when the customer asks on their orders page. Never before: whoever signs up with someone
 * else's address sees nothing of that person's orders. Written here, on the orders table itself (like
 * personal-data.server.ts), because better-auth's hooks in auth.server.ts run it and accounts import no other module.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orderEvents, orders, user } from "~db/schema";

const guestOrdersOf = (email: string) =>
  and(isNull(orders.userId), eq(sql`lower(${orders.email})`, email.trim().toLowerCase()));

/** Orders placed as a guest with this e-mail address and in no account yet. */
export async function claimableOrderCount(db: Database, email: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .where(guestOrdersOf(email));
  return row?.count ?? 0;
}

/** What added the orders: the link that confirmed the address, a password reset link, or the customer asking. */
export type JoinedBy = "email-confirmed" | "password-reset" | "customer";

const JOIN_MESSAGES: Record<JoinedBy, string> = {
  "email-confirmed":
    "Placed as a guest; added to the customer's account when they confirmed this e-mail address",
  "password-reset":
    "Placed as a guest; added to the customer's account when a password reset link proved this e-mail address theirs",
  customer: "Placed as a guest; added to the customer's account at their request",
};

export type JoinResult = { ok: true; joined: number[] } | { ok: false; reason: "unverified" };

/**
 * Adds the guest orders placed with the account's current address to the account, in one transaction, only if the
 * address is confirmed at that moment (read under a lock, so a change of address cannot slip in between). Each order
 * joins once: one already in an account is left alone however many of these run at the same time. Returns the
 * numbers of the orders it added, in order.
 */
export async function joinGuestOrders(db: Database, userId: string, by: JoinedBy): Promise<JoinResult> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ email: user.email, emailVerified: user.emailVerified })
      .from(user)
      .where(eq(user.id, userId))
      .for("share");
    if (!account?.emailVerified) return { ok: false, reason: "unverified" } as const;
    const rows = await tx
      .update(orders)
      .set({ userId, updatedAt: sql`now()` })
      .where(guestOrdersOf(account.email))
      .returning({ id: orders.id, number: orders.number });
    if (rows.length > 0) {
      await tx.insert(orderEvents).values(
        rows.map((row) => ({
          orderId: row.id,
          type: "claimed",
          actor: "customer",
          message: JOIN_MESSAGES[by],
          data: { by },
        })),
      );
    }
    return { ok: true, joined: rows.map((row) => row.number).sort((a, b) => a - b) } as const;
  });
}

/** The account's orders that were placed as a guest and joined it later, oldest first, with what added them. */
export async function ordersJoinedFromGuest(
  db: Database,
  userId: string,
): Promise<Array<{ number: number; by: JoinedBy }>> {
  const rows = await db
    .select({ number: orders.number, data: orderEvents.data })
    .from(orders)
    .innerJoin(orderEvents, and(eq(orderEvents.orderId, orders.id), eq(orderEvents.type, "claimed")))
    .where(eq(orders.userId, userId))
    .orderBy(asc(orders.number), asc(orderEvents.id));
  const joined = new Map<number, JoinedBy>();
  for (const row of rows) {
    // Orders added before the join said how carry no `by`: the customer's button was then the only way.
    const by = (row.data as { by?: JoinedBy } | null)?.by ?? "customer";
    if (!joined.has(row.number)) joined.set(row.number, by);
  }
  return [...joined].map(([number, by]) => ({ number, by }));
}
