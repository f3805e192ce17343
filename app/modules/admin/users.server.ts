import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orders, user } from "~db/schema";
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

// Written out in full: inside the subquery a bare "id" would name the order's id.
const orderCount = sql<number>`(select count(*) from ${orders} where ${orders.userId} = "user"."id")`.mapWith(
  Number,
);

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
        orders: orderCount,
      })
      .from(user)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(user.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(user).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function adminUser(db: Database, id: string) {
  const [found] = await db.select().from(user).where(eq(user.id, id));
  return found ?? null;
}
