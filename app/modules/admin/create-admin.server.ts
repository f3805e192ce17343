import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { user } from "~db/schema";
import type { Auth } from "~/modules/accounts/auth.server";
import { recordAudit } from "./audit.server";

export const createAdminInput = z.object({
  email: z
    .string({ error: "Give the admin's e-mail address: --email name@example.com" })
    .trim()
    .toLowerCase()
    .pipe(z.email("Not an e-mail address")),
  name: z.string().trim().min(1).max(100).optional(),
});

export type CreatedAdmin =
  | { created: true; email: string; password: string }
  | { created: false; email: string; alreadyAdmin: boolean };

/** A temporary password: 144 random bits, shown once and never stored in clear. */
const temporaryPassword = () => randomBytes(18).toString("base64url");

/**
 * Makes an admin. A new address gets an account with a generated temporary password (there is no default
 * password, ever); an existing account keeps its password and is given the admin role.
 */
export async function createAdmin(
  context: { db: Database; auth: Auth },
  input: { email?: string; name?: string },
): Promise<CreatedAdmin> {
  const { email, name } = createAdminInput.parse(input);
  const [existing] = await context.db
    .select({ id: user.id, role: user.role })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email));
  if (existing) {
    if (existing.role === "admin") return { created: false, email, alreadyAdmin: true };
    await context.db.transaction(async (tx) => {
      await tx.update(user).set({ role: "admin" }).where(eq(user.id, existing.id));
      await recordAudit(tx, {
        actor: "admin:create",
        action: "user.set-role",
        entity: "user",
        entityId: existing.id,
        before: { role: existing.role },
        after: { role: "admin" },
      });
    });
    return { created: false, email, alreadyAdmin: false };
  }
  const password = temporaryPassword();
  const { user: made } = await context.auth.api.createUser({
    body: { email, password, name: name ?? email.split("@")[0]!, role: "admin" },
  });
  // The address was typed by whoever runs the server: it needs no confirmation link.
  await context.db.update(user).set({ emailVerified: true }).where(eq(user.id, made.id));
  await recordAudit(context.db, {
    actor: "admin:create",
    action: "user.create-admin",
    entity: "user",
    entityId: made.id,
    after: { email, role: "admin" },
  });
  return { created: true, email, password };
}
