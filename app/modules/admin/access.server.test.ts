import { eq, sql } from "drizzle-orm";
import { isRouteErrorResponse } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, user } from "~db/schema";
import { type Auth, createAuth } from "~/modules/accounts/auth.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { signUpConfirmed } from "../../../tests/support/accounts";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { testEnv } from "../../../tests/support/orders";
import { ADMIN_LIST_KEYS } from "./admin-storage";
import { createAdmin } from "./create-admin.server";
import { loadAdminLists } from "./lists.server";

const env = testEnv({ PUBLIC_URL: "http://shop.test" });

async function signIn(auth: Auth, email: string, password: string): Promise<Request> {
  const response = await auth.handler(
    new Request("http://shop.test/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://shop.test" },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(response.status).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return new Request("http://shop.test/admin/orders?page=2", { headers: { cookie } });
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe.each(drivers)("admin access on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  const log = recordingLogger();

  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    auth = createAuth({ db: database.db, env, logger: log.logger, mailer: { kick() {} }, rateLimit: false });
  });
  afterAll(async () => {
    await database.close();
  });

  it("admin:create makes an admin with a generated password, and never a default one", async () => {
    const first = await createAdmin({ db: database.db, auth }, { email: " Owner@Example.com " });
    const second = await createAdmin({ db: database.db, auth }, { email: "other@example.com" });
    if (!first.created || !second.created) throw new Error("expected new admins");
    expect(first.email).toBe("owner@example.com");
    expect(first.password).toMatch(/^[\w-]{24}$/);
    expect(second.password).not.toBe(first.password);
    const [row] = await database.db.select().from(user).where(eq(user.email, "owner@example.com"));
    expect(row).toMatchObject({ role: "admin", emailVerified: true });
    // The temporary password opens only the page where the admin chooses a new one.
    const signedIn = await signIn(auth, "owner@example.com", first.password);
    const sent = (await thrown(requireAdmin(signedIn, { auth }))) as Response;
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/admin/account");
    const viewer = await requireAdmin(signedIn, { auth }, { temporaryPassword: true });
    expect(viewer).toMatchObject({ email: "owner@example.com", role: "admin", mustChangePassword: true });

    // Run again: nothing changes, and the password stays the owner's.
    expect(await createAdmin({ db: database.db, auth }, { email: "owner@example.com" })).toEqual({
      created: false,
      email: "owner@example.com",
      alreadyAdmin: true,
    });
    await signIn(auth, "owner@example.com", first.password);
  });

  it("admin:create gives an existing customer the admin role, keeping their password, with an audit entry", async () => {
    const { id } = await signUpConfirmed(auth, database.db, "http://shop.test", {
      name: "Casey",
      email: "casey@example.com",
      password: "correct horse battery",
    });
    expect(await createAdmin({ db: database.db, auth }, { email: "casey@example.com" })).toEqual({
      created: false,
      email: "casey@example.com",
      alreadyAdmin: false,
    });
    await signIn(auth, "casey@example.com", "correct horse battery");
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(entry).toMatchObject({ actor: "admin:create", action: "user.set-role", after: { role: "admin" } });
  });

  it("admin:create replaces the password of an account whose address was never confirmed", async () => {
    // Anyone could have signed up with the owner's address and a password of their own.
    await auth.api.signUpEmail({
      body: { name: "Squatter", email: "owner2@example.com", password: "the squatter's password" },
    });
    const result = await createAdmin({ db: database.db, auth }, { email: "owner2@example.com" });
    expect(result).toEqual({
      created: false,
      email: "owner2@example.com",
      alreadyAdmin: false,
      password: expect.stringMatching(/^[\w-]{24}$/),
    });
    const refused = await auth.handler(
      new Request("http://shop.test/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://shop.test" },
        body: JSON.stringify({ email: "owner2@example.com", password: "the squatter's password" }),
      }),
    );
    expect(refused.status).toBe(401);
    const viewer = await requireAdmin(
      await signIn(auth, "owner2@example.com", result.password!),
      { auth },
      {
        temporaryPassword: true,
      },
    );
    expect(viewer).toMatchObject({ email: "owner2@example.com", role: "admin", mustChangePassword: true });
  });

  it("admin:create refuses a missing or malformed address", async () => {
    await expect(createAdmin({ db: database.db, auth }, {})).rejects.toThrow(/--email/);
    await expect(createAdmin({ db: database.db, auth }, { email: "not-an-address" })).rejects.toThrow(
      /Not an e-mail address/,
    );
  });

  it("requireAdmin sends a visitor to the admin sign-in and refuses a customer with 403", async () => {
    const visitor = await thrown(requireAdmin(new Request("http://shop.test/admin/orders?page=2"), { auth }));
    expect(visitor).toBeInstanceOf(Response);
    expect((visitor as Response).headers.get("location")).toBe(
      "/admin?redirectTo=%2Fadmin%2Forders%3Fpage%3D2",
    );

    await signUpConfirmed(auth, database.db, "http://shop.test", {
      name: "Cy",
      email: "cy@example.com",
      password: "correct horse battery",
    });
    const customer = await thrown(
      requireAdmin(await signIn(auth, "cy@example.com", "correct horse battery"), { auth }),
    );
    expect(
      isRouteErrorResponse(customer) || (customer as { init?: { status?: number } }).init?.status === 403,
    ).toBe(true);
    expect((customer as { init: { status: number } }).init.status).toBe(403);
  });

  it("loads the five lists together; a list that fails is logged and the others still come", async () => {
    const lists = await loadAdminLists({ db: database.db, logger: log.logger });
    expect(Object.keys(lists).sort()).toEqual([...ADMIN_LIST_KEYS].sort());
    expect(lists._user?.rows.some((row) => row.email === "owner@example.com")).toBe(true);
    expect(lists.seo_metadata?.total).toBeGreaterThan(0);
    expect(lists._blogs?.total).toBeGreaterThan(0);
    expect(lists.banners?.total).toBeGreaterThan(0);
    expect(lists._orders).toEqual({ rows: [], total: 0 });

    await database.db.execute(sql`alter table banners rename to banners_away`);
    try {
      const partial = await loadAdminLists({ db: database.db, logger: log.logger });
      expect(partial.banners).toBeNull();
      expect(partial.seo_metadata?.total).toBeGreaterThan(0);
      expect(
        log.lines().some((line) => line.level === 50 && line.msg === "could not load the admin list banners"),
      ).toBe(true);
    } finally {
      await database.db.execute(sql`alter table banners_away rename to banners`);
    }
  });
});
