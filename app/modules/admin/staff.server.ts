import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { account, session, user } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import type { Auth } from "~/modules/accounts/auth.server";
import { isStaffRole, ROLE_LABELS, STAFF_ROLES, type StaffRole } from "~/modules/accounts/staff-roles";
import { type ActingAdmin, setUserRole, type UserAction } from "./users.server";

/** Where the invitation's link lands: the store's own page to choose a password. */
const SET_PASSWORD_PAGE = "/user/reset-password";

/** The owner and staff, owners first, then by address; `invited` while they have not chosen a password yet. */
export async function listStaff(db: Database) {
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      lastLogin: user.lastLogin,
      mustChangePassword: user.mustChangePassword,
    })
    .from(user)
    .where(inArray(user.role, [...STAFF_ROLES]))
    .orderBy(sql`${user.role} <> 'admin'`, asc(user.email));
  return rows.flatMap((row) =>
    isStaffRole(row.role)
      ? [{ ...row, role: row.role, invited: row.mustChangePassword === true && row.lastLogin === null }]
      : [],
  );
}

/** A password nobody knows: the invited person chooses theirs through the e-mailed link. */
const unknownPassword = () => randomBytes(32).toString("base64url");

/**
 * Invites a member of staff with a role, audited with the owner who did it. A new address gets an account with a
 * password nobody knows and an e-mail (through the outbox) whose link chooses one. An existing customer whose
 * address is confirmed is promoted and keeps their password; one whose address was never confirmed is treated as
 * new (whoever chose that password never proved the address theirs). Staff already on the list are refused, except
 * one who has not chosen a password yet: they get a new link.
 */
export async function inviteStaff(
  context: { db: Database; auth: Auth },
  input: { email: string; role: StaffRole },
  owner: ActingAdmin,
): Promise<UserAction> {
  const { db, auth } = context;
  const { email, role } = input;
  const [existing] = await db
    .select({
      id: user.id,
      role: user.role,
      emailVerified: user.emailVerified,
      mustChangePassword: user.mustChangePassword,
      lastLogin: user.lastLogin,
    })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email));
  const label = ROLE_LABELS[role];
  if (existing && isStaffRole(existing.role)) {
    const waiting = existing.mustChangePassword === true && existing.lastLogin === null;
    if (!waiting || existing.role !== role)
      return {
        ok: false,
        status: 409,
        message: `${email} is already on the staff (${ROLE_LABELS[existing.role]}): change their role in the list`,
      };
    await db.transaction((tx) =>
      recordAudit(tx, {
        actor: owner.email,
        action: "staff.invite",
        entity: "user",
        entityId: existing.id,
        after: { email, role, resent: true },
      }),
    );
  } else if (existing?.emailVerified) {
    const promoted = await setUserRole(db, existing.id, role, owner);
    if (!promoted.ok) return promoted;
    return {
      ok: true,
      message: `${email} already had an account: they are now ${label.toLowerCase()} staff and sign in with their own password`,
    };
  } else {
    const hash = await (await auth.$context).password.hash(unknownPassword());
    let id = existing?.id;
    if (!id) {
      const { user: made } = await auth.api.createUser({
        body: { email, password: unknownPassword(), name: email.split("@")[0]!, role: "user" },
      });
      id = made.id;
    }
    const target = id;
    await db.transaction(async (tx) => {
      await tx
        .update(account)
        .set({ password: hash })
        .where(and(eq(account.userId, target), eq(account.providerId, "credential")));
      await tx.delete(session).where(eq(session.userId, target));
      await tx
        .update(user)
        .set({ role, emailVerified: true, mustChangePassword: true })
        .where(eq(user.id, target));
      await recordAudit(tx, {
        actor: owner.email,
        action: "staff.invite",
        entity: "user",
        entityId: target,
        before: existing ? { email, role: existing.role ?? "user" } : undefined,
        after: { email, role },
      });
    });
  }
  await auth.api.requestPasswordReset({ body: { email, redirectTo: SET_PASSWORD_PAGE } });
  return {
    ok: true,
    message: `${email} is invited as ${label.toLowerCase()} staff: a link to choose a password is on its way`,
  };
}

/** Takes someone off the staff: a customer again, every session ended, audited (the rules of setUserRole). */
export async function removeStaff(db: Database, id: string, owner: ActingAdmin): Promise<UserAction> {
  const [found] = await db.select({ role: user.role, email: user.email }).from(user).where(eq(user.id, id));
  if (!found || !isStaffRole(found.role))
    return { ok: false, status: 404, message: "There is no such member of staff" };
  const result = await setUserRole(db, id, "user", owner);
  return result.ok
    ? { ok: true, message: `${found.email} is no longer on the staff; their sessions are ended` }
    : result;
}

/** Gives a member of staff another role (the rules of setUserRole); someone not on the staff is not found here. */
export async function changeStaffRole(
  db: Database,
  id: string,
  role: StaffRole,
  owner: ActingAdmin,
): Promise<UserAction> {
  const [found] = await db.select({ role: user.role }).from(user).where(eq(user.id, id));
  if (!found || !isStaffRole(found.role))
    return { ok: false, status: 404, message: "There is no such member of staff" };
  return setUserRole(db, id, role, owner);
}
