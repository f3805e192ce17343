import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, session, user } from "~db/schema";
import { type Auth, createAuth } from "~/modules/accounts/auth.server";
import { type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import { signUpConfirmed } from "../../../tests/support/accounts";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { checkout, testEnv, useDemoStore } from "../../../tests/support/orders";
import { banUser, listUsers, ordersOfUser, setUserRole, unbanUser, userListQuery } from "./users.server";

const env = testEnv({ PUBLIC_URL: "http://shop.test" });

describe.each(drivers)("running users from the admin area on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    auth = createAuth({
      db: database.db,
      env,
      logger: recordingLogger().logger,
      mailer: { kick() {} },
      rateLimit: false,
    });
  });

  async function post(path: string, body: unknown) {
    const response = await auth.handler(
      new Request(`http://shop.test/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://shop.test" },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }
  const PASSWORD = "correct horse battery";
  /** A customer who signed up and opened the confirmation link (which signs in). */
  async function signUp(name: string, email: string) {
    return (await signUpConfirmed(auth, database.db, "http://shop.test", { name, email, password: PASSWORD }))
      .id;
  }
  const signIn = (email: string) => post("/sign-in/email", { email, password: PASSWORD });
  const row = async (id: string) => (await database.db.select().from(user).where(eq(user.id, id)))[0]!;
  const auditOf = (id: string) =>
    database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "user"), eq(auditLog.entityId, id)))
      .orderBy(auditLog.id);

  it("lists users with their order counts, searchable and sortable", async () => {
    const id = await signUp("Grace Hopper", "grace.list@example.com");
    await signUp("Alan Turing", "alan.list@example.com");
    for (let i = 0; i < 2; i++) {
      const placed = await placeOrder(ctx, checkout({ email: "grace.list@example.com" }), id);
      expect(placed.ok).toBe(true);
    }
    const found = await listUsers(database.db, userListQuery.parse({ q: "GRACE.list" }));
    expect(found.total).toBe(1);
    expect(found.rows[0]).toMatchObject({ email: "grace.list@example.com", orders: 2, role: "user" });
    const byName = await listUsers(database.db, userListQuery.parse({ sort: "name", dir: "asc" }));
    expect(byName.rows.map((r) => r.name)).toEqual([...byName.rows.map((r) => r.name)].sort());
    const mine = await ordersOfUser(database.db, id);
    expect(mine.total).toBe(2);
    expect(mine.rows[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(mine.rows[1]!.createdAt.getTime());
  });

  it("changes a role with an audit entry, and refuses to let an admin demote themselves", async () => {
    const ownerId = await signUp("Owner", "owner.role@example.com");
    await database.db.update(user).set({ role: "admin" }).where(eq(user.id, ownerId));
    const owner = { id: ownerId, email: "owner.role@example.com" };
    const staffId = await signUp("Staff", "staff.role@example.com");

    expect(await setUserRole(database.db, staffId, "admin", owner)).toMatchObject({ ok: true });
    expect((await row(staffId)).role).toBe("admin");
    expect(await auditOf(staffId)).toMatchObject([
      {
        actor: owner.email,
        action: "user.set-role",
        before: { role: "user", email: "staff.role@example.com" },
        after: { role: "admin" },
      },
    ]);

    const refused = await setUserRole(database.db, ownerId, "user", owner);
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/your own role/),
    });
    expect((await row(ownerId)).role).toBe("admin");
    expect(await auditOf(ownerId)).toEqual([]);

    // Another admin may do it.
    expect(
      await setUserRole(database.db, ownerId, "user", { id: staffId, email: "staff.role@example.com" }),
    ).toMatchObject({ ok: true });
    expect((await row(ownerId)).role).toBe("user");
    // Unknown and malformed ids name nobody.
    expect(await setUserRole(database.db, "nobody", "admin", owner)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await setUserRole(database.db, "'; drop table user; --", "admin", owner)).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("bans a user: their sessions end, they cannot sign in, and it is audited; unbanning lets them back", async () => {
    const adminId = await signUp("Admin", "admin.ban@example.com");
    await database.db.update(user).set({ role: "admin" }).where(eq(user.id, adminId));
    const admin = { id: adminId, email: "admin.ban@example.com" };
    const id = await signUp("Mallory", "mallory.ban@example.com");
    expect((await signIn("mallory.ban@example.com")).status).toBe(200);
    const before = await database.db.select().from(session).where(eq(session.userId, id));
    expect(before.length).toBeGreaterThanOrEqual(2); // the confirmation link and the sign-in

    const banned = await banUser(database.db, id, "Chargeback fraud", admin);
    expect(banned).toMatchObject({
      ok: true,
      message: expect.stringContaining(`${before.length} sessions ended`),
    });
    expect(await row(id)).toMatchObject({ banned: true, banReason: "Chargeback fraud" });
    expect(await database.db.select().from(session).where(eq(session.userId, id))).toEqual([]);
    const refused = await signIn("mallory.ban@example.com");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("BANNED_USER");

    expect(await banUser(database.db, adminId, "oops", admin)).toMatchObject({ ok: false, status: 409 });
    expect((await row(adminId)).banned).toBe(false);

    expect(await unbanUser(database.db, id, admin)).toMatchObject({ ok: true });
    expect(await row(id)).toMatchObject({ banned: false, banReason: null });
    expect((await signIn("mallory.ban@example.com")).status).toBe(200);

    expect((await auditOf(id)).map((entry) => [entry.actor, entry.action, entry.after])).toEqual([
      [
        admin.email,
        "user.ban",
        {
          email: "mallory.ban@example.com",
          banned: true,
          banReason: "Chargeback fraud",
          sessionsEnded: before.length,
        },
      ],
      [admin.email, "user.unban", { email: "mallory.ban@example.com", banned: false, banReason: null }],
    ]);
    expect(await banUser(database.db, "missing-user", "x", admin)).toMatchObject({ ok: false, status: 404 });
  });
});
