import { eq } from "drizzle-orm";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, session, user, USER_ROLES } from "~db/schema";
import routes from "~/routes";
import { type Auth, createAuth } from "~/modules/accounts/auth.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { ADMIN_AREAS, areaOfPath, mayUse, STAFF_ROLES, type StaffRole } from "~/modules/accounts/staff-roles";
import { authRequest, cookieHeader, lastEmail, signUpConfirmed } from "../../../tests/support/accounts";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { testEnv } from "../../../tests/support/orders";
import { ADMIN_NAV } from "./components/admin-shell";
import { createAdmin } from "./create-admin.server";
import { dashboardFor } from "./dashboard.server";
import { changeStaffRole, inviteStaff, listStaff, removeStaff } from "./staff.server";
import { setUserRole } from "./users.server";

const ORIGIN = "http://shop.test";
const env = testEnv({ PUBLIC_URL: ORIGIN });
const PASSWORD = "correct horse battery";
const SAMPLE: Record<string, string> = {
  number: "1001",
  id: "1",
  key: "windows7",
  slug: "about",
  file: "invoice.pdf",
};

/** The admin's route modules, loaded as the server loads them. */
const ROUTE_MODULES = import.meta.glob("../../routes/admin*.tsx");

type Route = { path: string; file: string; index: boolean };

/** Every route of the admin area in app/routes.ts (its block, the files beside it), with sample parameters. */
function adminRoutes(): Route[] {
  const found: Route[] = [];
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const path = entry.index ? parent : [parent, entry.path].filter(Boolean).join("/");
      if (path === "admin" || path.startsWith("admin/"))
        found.push({ path: `/${path}`, file: entry.file, index: !!entry.index });
      if (entry.children) walk(entry.children, path);
    }
  };
  walk(routes as RouteConfigEntry[], "");
  return found;
}

/** The paths a route answers on: each export of /admin/export/:what, a sample for other parameters. */
function samplesOf(route: Route): string[] {
  if (route.path === "/admin/export/:what")
    return Object.values(ADMIN_AREAS)
      .flatMap((area) => area.paths as readonly string[])
      .filter((path) => path.startsWith("/admin/export/"));
  return [route.path.replace(/:(\w+)/g, (_, name: string) => SAMPLE[name] ?? "1")];
}

const paramsOf = (pattern: string, path: string) => {
  const names = pattern.split("/");
  const values = path.split("/");
  return Object.fromEntries(
    names.flatMap((name, i) =>
      name.startsWith(":") ? [[name.slice(1), decodeURIComponent(values[i]!)]] : [],
    ),
  );
};

async function refusal(call: () => Promise<unknown>): Promise<number | "answered"> {
  try {
    await call();
    return "answered";
  } catch (error) {
    if (error instanceof Response) return error.status;
    const init = (error as { init?: { status?: number } | null }).init;
    return init?.status ?? 500;
  }
}

describe("the table of admin areas", () => {
  it("places every admin route and every menu link in an area, so none is open by accident", () => {
    for (const route of adminRoutes())
      for (const path of samplesOf(route).map((sample) =>
        route.path.includes(":") && !sample.startsWith("/admin/export/") ? route.path : sample,
      ))
        expect(areaOfPath(path), path).toBeDefined();
    for (const item of ADMIN_NAV) expect(areaOfPath(item.to), item.to).toBeDefined();
  });

  it("keeps settings, taxes, company, staff, audit, discount codes and key pools the owner's", () => {
    for (const path of [
      "/admin/settings",
      "/admin/taxes",
      "/admin/company",
      "/admin/staff",
      "/admin/audit",
      "/admin/promotions/3",
      "/admin/keys",
      "/admin/export/keys.csv",
    ])
      expect(
        STAFF_ROLES.filter((role) => mayUse(role, path)),
        path,
      ).toEqual(["admin"]);
    expect(mayUse("orders", "/admin/orders/1001")).toBe(true);
    expect(mayUse("orders", "/admin/seo")).toBe(false);
    expect(mayUse("content", "/admin/products/7")).toBe(true);
    expect(mayUse("support", "/admin/users/x")).toBe(true);
    // A path in no area is the owner's alone; a customer or an unknown role may use nothing.
    expect(mayUse("orders", "/admin/something-new")).toBe(false);
    expect(mayUse("admin", "/admin/something-new")).toBe(true);
    expect(mayUse("user", "/admin")).toBe(false);
    expect(mayUse("superuser", "/admin")).toBe(false);
    // The database accepts every role the table names.
    for (const role of STAFF_ROLES) expect(USER_ROLES).toContain(role);
  });
});

describe.each(drivers)("staff roles on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  const cookies = {} as Record<StaffRole, string>;
  const ids = {} as Record<StaffRole, string>;

  async function signIn(email: string, password = PASSWORD) {
    const signedIn = await authRequest(auth, ORIGIN, "POST", "/sign-in/email", { email, password });
    expect(signedIn.status).toBe(200);
    return cookieHeader(signedIn.response);
  }

  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    auth = createAuth({
      db: database.db,
      env,
      logger: recordingLogger().logger,
      mailer: { kick() {} },
      rateLimit: false,
    });
    for (const role of STAFF_ROLES) {
      const email = `${role}.staff@example.com`;
      const { id } = await signUpConfirmed(auth, database.db, ORIGIN, {
        name: `${role} staff`,
        email,
        password: PASSWORD,
      });
      await database.db.update(user).set({ role }).where(eq(user.id, id));
      ids[role] = id;
      cookies[role] = await signIn(email);
    }
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it("refuses each role every page, action and export of the areas it may not use, with a 403", async () => {
    const context = { db: database.db, auth, env, logger: recordingLogger().logger, mailer: { kick() {} } };
    let refusals = 0;
    for (const route of adminRoutes()) {
      const load = ROUTE_MODULES[`../../${route.file}`];
      if (!load) throw new Error(`no module for ${route.file}`);
      const module = (await load()) as {
        loader?: (args: unknown) => Promise<unknown>;
        action?: (args: unknown) => Promise<unknown>;
      };
      for (const path of samplesOf(route)) {
        for (const role of STAFF_ROLES) {
          if (mayUse(role, path)) {
            // The guard lets a role through to the pages of its areas.
            const allowed = new Request(`${ORIGIN}${path}`, { headers: { cookie: cookies[role] } });
            await expect(requireAdmin(allowed, { auth }), `${path} as ${role}`).resolves.toMatchObject({
              role,
            });
            continue;
          }
          const params = paramsOf(route.path, path);
          const get = new Request(`${ORIGIN}${path}`, { headers: { cookie: cookies[role] } });
          if (module.loader)
            expect(
              await refusal(() => module.loader!({ request: get, context, params })),
              `GET ${path} as ${role}`,
            ).toBe(403);
          const post = new Request(`${ORIGIN}${path}`, {
            method: "POST",
            headers: {
              cookie: cookies[role],
              "content-type": "application/x-www-form-urlencoded",
              origin: ORIGIN,
            },
            body: "intent=delete&id=1",
          });
          if (module.action)
            expect(
              await refusal(() => module.action!({ request: post, context, params })),
              `POST ${path} as ${role}`,
            ).toBe(403);
          refusals++;
        }
      }
    }
    expect(refusals).toBeGreaterThan(60);
    // The owner-only intent of a page another role may use: changing a role on a customer's page.
    const rolePage = new Request(`${ORIGIN}/admin/users/${ids.orders}`, {
      headers: { cookie: cookies.support },
    });
    await expect(requireAdmin(rolePage, { auth })).resolves.toMatchObject({ role: "support" });
    expect(await refusal(() => requireAdmin(rolePage, { auth }, { area: "owner" }))).toBe(403);
  }, 300_000);

  it("shows each role only its own figures on the dashboard: money to the owner and orders alone", async () => {
    const owner = await dashboardFor(database.db, "admin");
    const orders = await dashboardFor(database.db, "orders");
    const content = await dashboardFor(database.db, "content");
    const support = await dashboardFor(database.db, "support");
    expect(owner.sales && owner.keys && owner.renewals).toBeTruthy();
    expect(orders.sales).not.toBeNull();
    expect(orders.keys).toBeNull();
    expect([content.sales, content.keys, content.held, content.queue.awaitingPayment]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(content.queue.lowStock).not.toBeNull();
    expect([support.sales, support.queue.lowStock]).toEqual([null, null]);
    expect(support.queue.failedEmails).not.toBeNull();
  });

  it("invites staff by e-mail with a link to choose a password, and promotes a confirmed customer instead", async () => {
    const owner = { id: ids.admin, email: "admin.staff@example.com" };
    const invited = await inviteStaff(
      { db: database.db, auth },
      { email: "new.clerk@example.com", role: "orders" },
      owner,
    );
    expect(invited).toMatchObject({ ok: true });
    const mail = await lastEmail(database.db, "new.clerk@example.com", "staff-invite");
    expect(mail?.text).toContain("with the role Orders");
    const token = mail!.text.match(/reset-password\/([\w-]+)/)?.[1];
    expect(token).toBeTruthy();
    expect((await listStaff(database.db)).find((row) => row.email === "new.clerk@example.com")).toMatchObject(
      { role: "orders", invited: true },
    );
    // Nobody can sign in before the password is chosen; after it, the clerk uses the orders pages.
    expect(
      (
        await authRequest(auth, ORIGIN, "POST", "/sign-in/email", {
          email: "new.clerk@example.com",
          password: PASSWORD,
        })
      ).status,
    ).toBe(401);
    expect(
      (await authRequest(auth, ORIGIN, "POST", "/reset-password", { token, newPassword: PASSWORD })).status,
    ).toBe(200);
    const clerk = await signIn("new.clerk@example.com");
    const page = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { cookie: clerk } });
    await expect(requireAdmin(page("/admin/orders"), { auth })).resolves.toMatchObject({
      role: "orders",
      mustChangePassword: false,
    });
    expect(await refusal(() => requireAdmin(page("/admin/settings"), { auth }))).toBe(403);
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "staff.invite"));
    expect(entry).toMatchObject({
      actor: owner.email,
      after: { email: "new.clerk@example.com", role: "orders" },
    });

    // Invited again while on the staff: refused, nothing changes.
    expect(
      await inviteStaff(
        { db: database.db, auth },
        { email: "new.clerk@example.com", role: "content" },
        owner,
      ),
    ).toMatchObject({ ok: false, status: 409 });

    // A confirmed customer keeps their account and password, and joins the staff.
    const { id } = await signUpConfirmed(auth, database.db, ORIGIN, {
      name: "Dee",
      email: "dee@example.com",
      password: PASSWORD,
    });
    expect(
      await inviteStaff({ db: database.db, auth }, { email: "dee@example.com", role: "content" }, owner),
    ).toMatchObject({ ok: true, message: expect.stringMatching(/already had an account/) });
    expect((await database.db.select({ role: user.role }).from(user).where(eq(user.id, id)))[0]?.role).toBe(
      "content",
    );
    await signIn("dee@example.com");
  });

  it("changes roles and removes staff, audited; removing ends their sessions; nobody changes their own role; the last owner stays", async () => {
    const owner = { id: ids.admin, email: "admin.staff@example.com" };
    expect(await changeStaffRole(database.db, ids.support, "content", owner)).toMatchObject({ ok: true });
    expect(await changeStaffRole(database.db, ids.support, "support", owner)).toMatchObject({ ok: true });
    const signedIn = await signIn("support.staff@example.com");
    expect(signedIn).toBeTruthy();
    expect(await removeStaff(database.db, ids.support, owner)).toMatchObject({ ok: true });
    expect(await database.db.select().from(session).where(eq(session.userId, ids.support))).toEqual([]);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.entityId, ids.support));
    expect(audit.map((row) => [row.actor, row.action, (row.after as { role: string }).role])).toEqual([
      [owner.email, "user.set-role", "content"],
      [owner.email, "user.set-role", "support"],
      [owner.email, "user.set-role", "user"],
    ]);
    // Not staff any more: the staff page does not know them.
    expect(await removeStaff(database.db, ids.support, owner)).toMatchObject({ ok: false, status: 404 });

    expect(await changeStaffRole(database.db, ids.admin, "orders", owner)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/your own role/),
    });
    // The only owner cannot be made staff, by another account or by admin:create.
    expect(
      await setUserRole(database.db, ids.admin, "orders", {
        id: ids.content,
        email: "content.staff@example.com",
      }),
    ).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/last owner/),
    });
    await expect(
      createAdmin({ db: database.db, auth }, { email: "admin.staff@example.com", role: "orders" }),
    ).rejects.toThrow(/last owner/);
    expect(
      (await database.db.select({ role: user.role }).from(user).where(eq(user.id, ids.admin)))[0]?.role,
    ).toBe("admin");
  });

  it("admin:create makes staff of a role, owner by default, and refuses an unknown role", async () => {
    const made = await createAdmin(
      { db: database.db, auth },
      { email: "packer@example.com", role: "orders" },
    );
    expect(made.created).toBe(true);
    const [row] = await database.db
      .select({ role: user.role })
      .from(user)
      .where(eq(user.email, "packer@example.com"));
    expect(row?.role).toBe("orders");
    await createAdmin({ db: database.db, auth }, { email: "boss2@example.com" });
    const [boss] = await database.db
      .select({ role: user.role })
      .from(user)
      .where(eq(user.email, "boss2@example.com"));
    expect(boss?.role).toBe("admin");
    await expect(
      createAdmin({ db: database.db, auth }, { email: "x@example.com", role: "superuser" }),
    ).rejects.toThrow(/owner, orders, content, support/);
    expect(await database.db.select().from(user).where(eq(user.email, "x@example.com"))).toEqual([]);
  });
});
