import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { account, session, user } from "~db/schema";
import type { Auth } from "~/modules/accounts/auth.server";
import { recordAudit } from "~/lib/audit-log.server";
import { OWNER_ROLE, ROLE_NAME_LIST, type RoleName, roleFromName } from "~/modules/accounts/staff-roles";

export const createAdminInput = z.object({
  email: z
    .string({ error: "Give the admin's e-mail address: --email name@example.com" })
    .trim()
    .toLowerCase()
    .pipe(z.email("Not an e-mail address")),
  name: z.string().trim().min(1).max(100).optional(),
  role: z
    .enum(ROLE_NAME_LIST as [RoleName, ...RoleName[]], {
      error: `--role must be one of ${ROLE_NAME_LIST.join(", ")} (owner when left out)`,
    })
    .default("owner"),
});

/** A refusal of admin:create that changes nothing (the store's last owner given another role). */
export class CreateAdminRefused extends Error {}

export type CreatedAdmin =
  | { created: true; email: string; password: string }
  | { created: false; email: string; alreadyAdmin: boolean; password?: string };

/** A temporary password: 144 random bits, shown once and never stored in clear. */
const temporaryPassword = () => randomBytes(18).toString("base64url");

/**
 * Makes an owner or a member of staff (`role`, owner by default). A new address gets an account with a generated temporary password (there is no default
 * password, ever); an existing account is given the admin role and keeps its password, unless its address was
 * never confirmed: whoever chose that password never proved the address theirs, so it gets a temporary one too.
 */
export async function createAdmin(
  context: { db: Database; auth: Auth },
  input: { email?: string; name?: string; role?: string },
): Promise<CreatedAdmin> {
  const { email, name, role: roleName } = createAdminInput.parse(input);
  const role = roleFromName(roleName)!;
  const [existing] = await context.db
    .select({ id: user.id, role: user.role, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email));
  if (existing) {
    const password = existing.emailVerified ? undefined : temporaryPassword();
    if (existing.role === role && !password) return { created: false, email, alreadyAdmin: true };
    if (existing.role === OWNER_ROLE && role !== OWNER_ROLE) {
      const owners = await context.db.select({ id: user.id }).from(user).where(eq(user.role, OWNER_ROLE));
      if (owners.length <= 1)
        throw new CreateAdminRefused(
          `${email} is the store's last owner: make another account an owner first. Nothing changed.`,
        );
    }
    const hash = password ? await (await context.auth.$context).password.hash(password) : undefined;
    await context.db.transaction(async (tx) => {
      if (hash) {
        await tx
          .update(account)
          .set({ password: hash })
          .where(and(eq(account.userId, existing.id), eq(account.providerId, "credential")));
        await tx.delete(session).where(eq(session.userId, existing.id));
      }
      // A temporary password must be replaced before the admin area opens.
      await tx
        .update(user)
        .set({ role, emailVerified: true, ...(hash ? { mustChangePassword: true } : {}) })
        .where(eq(user.id, existing.id));
      await recordAudit(tx, {
        actor: "admin:create",
        action: "user.set-role",
        entity: "user",
        entityId: existing.id,
        before: { role: existing.role },
        after: { role },
      });
    });
    return {
      created: false,
      email,
      alreadyAdmin: existing.role === role,
      ...(password ? { password } : {}),
    };
  }
  const password = temporaryPassword();
  const { user: made } = await context.auth.api.createUser({
    body: { email, password, name: name ?? email.split("@")[0]!, role: role as "admin" },
  });
  // The address was typed by whoever runs the server: it needs no confirmation link.
  // The temporary password is good for one thing: signing in to choose a new one.
  await context.db
    .update(user)
    .set({ emailVerified: true, mustChangePassword: true })
    .where(eq(user.id, made.id));
  await recordAudit(context.db, {
    actor: "admin:create",
    action: "user.create-admin",
    entity: "user",
    entityId: made.id,
    after: { email, role },
  });
  return { created: true, email, password };
}
