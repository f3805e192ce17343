import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { addresses, type SavedAddress } from "~db/schema";
import type { SavedAddressInput } from "./schemas";

/** At most this many addresses per customer. */
export const MAX_ADDRESSES = 20;

// Every query here filters by the user: an address id alone never reads or changes anything.
const mine = (userId: string, id: number) => and(eq(addresses.id, id), eq(addresses.userId, userId));

export async function listAddresses(db: Database, userId: string): Promise<SavedAddress[]> {
  return db
    .select()
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id));
}

export async function defaultAddress(db: Database, userId: string): Promise<SavedAddress | null> {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true)));
  return row ?? null;
}

/** A saved address as a page gets it: who it goes to and where, without the row's bookkeeping (ids, owner, dates). */
export function addressForPage(address: SavedAddress) {
  const { name, line1, line2, city, region, postalCode, country, phone } = address;
  return { name, line1, line2, city, region, postalCode, country, phone };
}

const fields = ({ isDefault: _isDefault, ...address }: SavedAddressInput) => address;

export type AddressWrite = { ok: true; id: number } | { ok: false; reason: "not-found" | "too-many" };

async function clearDefault(tx: Transaction, userId: string, except?: number) {
  await tx
    .update(addresses)
    .set({ isDefault: false })
    .where(
      and(
        eq(addresses.userId, userId),
        eq(addresses.isDefault, true),
        except === undefined ? undefined : ne(addresses.id, except),
      ),
    );
}

/** Adds an address; the first one, or one marked so, becomes the default. */
export async function addAddress(
  db: Database,
  userId: string,
  input: SavedAddressInput,
): Promise<AddressWrite> {
  return db.transaction(async (tx) => {
    // One writer per user at a time: the count and the default stay consistent.
    await tx.execute(sql`select pg_advisory_xact_lock(72710002, hashtext(${userId}))`);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(addresses)
      .where(eq(addresses.userId, userId));
    if (count >= MAX_ADDRESSES) return { ok: false, reason: "too-many" } as const;
    const makeDefault = input.isDefault || count === 0;
    if (makeDefault) await clearDefault(tx, userId);
    const [row] = await tx
      .insert(addresses)
      .values({ ...fields(input), userId, isDefault: makeDefault })
      .returning({ id: addresses.id });
    return { ok: true, id: row!.id } as const;
  });
}

/** Changes one of the user's addresses; another user's id is "not-found". */
export async function updateAddress(
  db: Database,
  userId: string,
  id: number,
  input: SavedAddressInput,
): Promise<AddressWrite> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72710002, hashtext(${userId}))`);
    const [current] = await tx.select().from(addresses).where(mine(userId, id));
    if (!current) return { ok: false, reason: "not-found" } as const;
    // The default stays the default until another one is chosen.
    const isDefault = current.isDefault || input.isDefault;
    if (isDefault && !current.isDefault) await clearDefault(tx, userId, id);
    await tx
      .update(addresses)
      .set({ ...fields(input), isDefault, updatedAt: sql`now()` })
      .where(mine(userId, id));
    return { ok: true, id } as const;
  });
}

/** Makes one of the user's addresses the default. */
export async function setDefaultAddress(db: Database, userId: string, id: number): Promise<AddressWrite> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72710002, hashtext(${userId}))`);
    const [current] = await tx.select({ id: addresses.id }).from(addresses).where(mine(userId, id));
    if (!current) return { ok: false, reason: "not-found" } as const;
    await clearDefault(tx, userId, id);
    await tx
      .update(addresses)
      .set({ isDefault: true, updatedAt: sql`now()` })
      .where(mine(userId, id));
    return { ok: true, id } as const;
  });
}

/** Deletes one of the user's addresses; if it was the default, the oldest remaining one takes over. */
export async function deleteAddress(db: Database, userId: string, id: number): Promise<AddressWrite> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72710002, hashtext(${userId}))`);
    const [removed] = await tx.delete(addresses).where(mine(userId, id)).returning();
    if (!removed) return { ok: false, reason: "not-found" } as const;
    if (removed.isDefault) {
      const [next] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .orderBy(asc(addresses.createdAt), asc(addresses.id))
        .limit(1);
      if (next) await tx.update(addresses).set({ isDefault: true }).where(mine(userId, next.id));
    }
    return { ok: true, id } as const;
  });
}
