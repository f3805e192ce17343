import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { orders, session, user, type UserRole } from "~db/schema";
import { isStaffRole, OWNER_ROLE, ROLE_LABELS } from "~/modules/accounts/staff-roles";
import { recordAudit } from "~/lib/audit-log.server";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const userListQuery = listQuerySchema(["created", "name", "email", "status", "lastLogin", "role"], {
  sort: "created",
  dir: "desc",
});
type UserListQuery = ReturnType<typeof userListQuery.parse>;

const sorts = {
  created: user.createdAt,
  name: user.name,
  email: user.email,
  status: user.status,
  lastLogin: user.lastLogin,
  role: user.role,
};

export type AdminUserRow = {
  id: string;
  name: string;
  email: string;
  role: string | null;
  status: string;
  banned: boolean | null;
  emailVerified: boolean;
  lastLogin: Date | null;
  lastLogout: Date | null;
  timestamp: Date | null;
  createdAt: Date;
  orders: number;
};

/** One page of users (the spec's _user list): status, role, activity times and how many orders each has. */
export async function listUsers(db: Database, query: UserListQuery): Promise<ListPage<AdminUserRow>> {
  const filters: SQL[] = [];
  if (query.q)
    filters.push(or(ilike(user.email, likePattern(query.q)), ilike(user.name, likePattern(query.q)))!);
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = sorts[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        status: user.status,
        banned: user.banned,
        emailVerified: user.emailVerified,
        lastLogin: user.lastLogin,
        lastLogout: user.lastLogout,
        timestamp: user.timestamp,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(user.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(user).where(where),
  ]);
  // Counted for the page's users only (orders_user_idx), not for every row a deep page skips over.
  const counts =
    rows.length === 0
      ? []
      : await db
          .select({ userId: orders.userId, n: count() })
          .from(orders)
          .where(
            inArray(
              orders.userId,
              rows.map((row) => row.id),
            ),
          )
          .groupBy(orders.userId);
  const byUser = new Map(counts.map((entry) => [entry.userId, entry.n]));
  return { rows: rows.map((row) => ({ ...row, orders: byUser.get(row.id) ?? 0 })), total: total?.n ?? 0 };
}

export async function adminUser(db: Database, id: string) {
  const [found] = await db.select().from(user).where(eq(user.id, id));
  return found ?? null;
}

/** Who is acting: the signed-in admin (their own id matters: nobody takes away their own admin role). */
export type ActingAdmin = { id: string; email: string };

export type UserAction = { ok: true; message: string } | { ok: false; status: 404 | 409; message: string };

const USER_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A user id as it can appear in a URL; anything else cannot name a user. */
export const isUserId = (value: unknown): value is string => typeof value === "string" && USER_ID.test(value);

const notFound = (): UserAction => ({ ok: false, status: 404, message: "There is no such user" });

/** A user's orders for the admin, newest first (the ones placed while signed in to that account). */
export async function ordersOfUser(db: Database, id: string, limit = 50) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        number: orders.number,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        totalCents: orders.totalCents,
        currency: orders.currency,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .where(eq(orders.userId, id))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(limit),
    db.select({ n: count() }).from(orders).where(eq(orders.userId, id)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Gives a user a role: customer, owner or one staff role (ADR 0037), in one transaction with its audit entry. Nobody
 * changes their own role, the last owner stays an owner, and an account that leaves the staff loses every session
 * at once (it signs in again as a customer).
 */
export async function setUserRole(
  db: Database,
  id: string,
  role: UserRole,
  admin: ActingAdmin,
): Promise<UserAction> {
  if (!isUserId(id)) return notFound();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: user.id, email: user.email, role: user.role })
      .from(user)
      .where(eq(user.id, id))
      .for("update");
    if (!found) return notFound();
    const before = found.role ?? "user";
    if (found.id === admin.id && before !== role)
      return {
        ok: false,
        status: 409,
        message: "You cannot change your own role: ask another owner to do it",
      };
    if (before === role) return { ok: true, message: `${found.email} is already ${roleName(role)}` };
    if (before === OWNER_ROLE && (await ownerCount(tx)) <= 1)
      return {
        ok: false,
        status: 409,
        message: `${found.email} is the store's last owner: make another account an owner first`,
      };
    await tx.update(user).set({ role }).where(eq(user.id, id));
    const ended = isStaffRole(role)
      ? []
      : await tx.delete(session).where(eq(session.userId, id)).returning({ id: session.id });
    await recordAudit(tx, {
      actor: admin.email,
      action: "user.set-role",
      entity: "user",
      entityId: id,
      before: { email: found.email, role: before },
      after: { email: found.email, role, ...(ended.length > 0 ? { sessionsEnded: ended.length } : {}) },
    });
    return { ok: true, message: `${found.email} is now ${roleName(role)}` };
  });
}

const roleName = (role: UserRole) =>
  isStaffRole(role)
    ? role === OWNER_ROLE
      ? "an owner"
      : `${ROLE_LABELS[role].toLowerCase()} staff`
    : "a customer";

/** How many owners the store has (locked by the caller's transaction on the row it changes). */
async function ownerCount(tx: Transaction) {
  const owners = await tx.select({ id: user.id }).from(user).where(eq(user.role, OWNER_ROLE)).for("update");
  return owners.length;
}

/**
 * A ban or unban of one user: in one transaction, the user's row locked with what a ban changes, given to `change`;
 * an id that is no user's is not found.
 */
async function withBanState(
  db: Database,
  id: string,
  change: (
    tx: Transaction,
    found: { id: string; email: string; banned: boolean | null; banReason: string | null },
  ) => Promise<UserAction>,
): Promise<UserAction> {
  if (!isUserId(id)) return notFound();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: user.id, email: user.email, banned: user.banned, banReason: user.banReason })
      .from(user)
      .where(eq(user.id, id))
      .for("update");
    return found ? change(tx, found) : notFound();
  });
}

/**
 * Bans a user (better-auth's admin fields: they cannot sign in again) and ends every session they have, in one
 * transaction with its audit entry. An admin cannot ban themselves.
 */
export async function banUser(
  db: Database,
  id: string,
  reason: string,
  admin: ActingAdmin,
): Promise<UserAction> {
  return withBanState(db, id, async (tx, found) => {
    if (found.id === admin.id) return { ok: false, status: 409, message: "You cannot ban yourself" };
    await tx.update(user).set({ banned: true, banReason: reason, banExpires: null }).where(eq(user.id, id));
    const ended = await tx.delete(session).where(eq(session.userId, id)).returning({ id: session.id });
    await recordAudit(tx, {
      actor: admin.email,
      action: "user.ban",
      entity: "user",
      entityId: id,
      before: { email: found.email, banned: found.banned ?? false, banReason: found.banReason },
      after: { email: found.email, banned: true, banReason: reason, sessionsEnded: ended.length },
    });
    const sessions = ended.length === 1 ? "1 session" : `${ended.length} sessions`;
    return { ok: true, message: `${found.email} is banned; ${sessions} ended` };
  });
}

export async function unbanUser(db: Database, id: string, admin: ActingAdmin): Promise<UserAction> {
  return withBanState(db, id, async (tx, found) => {
    if (!found.banned) return { ok: true, message: `${found.email} is not banned` };
    await tx.update(user).set({ banned: false, banReason: null, banExpires: null }).where(eq(user.id, id));
    await recordAudit(tx, {
      actor: admin.email,
      action: "user.unban",
      entity: "user",
      entityId: id,
      before: { email: found.email, banned: true, banReason: found.banReason },
      after: { email: found.email, banned: false, banReason: null },
    });
    return { ok: true, message: `${found.email} can sign in again` };
  });
}
