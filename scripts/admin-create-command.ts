import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { repairedModesNotice, secureDataDir } from "../platform/data-dir.server";
import { ConfigError } from "../platform/config-error";
import { loadEnv } from "~/lib/env.server";
import { createLogger } from "~/lib/logger.server";
import { createAuth } from "~/modules/accounts/auth.server";
import { ROLE_LABELS, roleFromName } from "~/modules/accounts/staff-roles";
import { CreateAdminRefused, createAdmin, createAdminInput } from "~/modules/admin/create-admin.server";
import { DatabaseLockedError, openDatabase } from "~db/client.server";

/**
 * npm run admin:create (scripts/admin-create.ts) with these arguments and variables, writing to `out`. Resolves to
 * the exit code.
 */
export async function adminCreateCommand(
  args: string[],
  variables: Record<string, string | undefined>,
  out: Pick<Console, "log" | "error">,
): Promise<number> {
  try {
    await adminCreate(args, variables, out);
    return 0;
  } catch (error) {
    if (error instanceof ZodError) out.error(error.issues.map((issue) => issue.message).join("\n"));
    else if (
      error instanceof ConfigError ||
      error instanceof DatabaseLockedError ||
      error instanceof CreateAdminRefused
    )
      out.error(error.message);
    else out.error(error);
    return 1;
  }
}

async function adminCreate(
  args: string[],
  variables: Record<string, string | undefined>,
  out: Pick<Console, "log">,
) {
  const { values } = parseArgs({
    args,
    options: { email: { type: "string" }, name: { type: "string" }, role: { type: "string" } },
  });
  // A bad address or role is refused before the database is opened: nothing is written.
  const input = createAdminInput.parse({ email: values.email, name: values.name, role: values.role });
  const what = input.role === "owner" ? "an owner" : `staff (${ROLE_LABELS[roleFromName(input.role)!]})`;
  const env = loadEnv(variables);
  const repaired = secureDataDir(env.DATA_DIR);
  if (repaired.length > 0) out.log(repairedModesNotice(env.DATA_DIR, repaired));
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    await database.migrate();
    // No e-mail leaves this command: creating an admin sends no verification link.
    const auth = createAuth({ db: database.db, env, logger, mailer: { kick: () => undefined } });
    const result = await createAdmin({ db: database.db, auth }, input);
    if (result.created) {
      out.log(`Created ${result.email} as ${what}.`);
      out.log(`Temporary password (shown only now): ${result.password}`);
      out.log(
        `Sign in at ${env.PUBLIC_URL}/admin, then set a password of your own (the admin asks for it first).`,
      );
    } else if (result.password) {
      out.log(
        `${result.email} is now ${what}. Its address was never confirmed, so its password was replaced.`,
      );
      out.log(`Temporary password (shown only now): ${result.password}`);
      out.log(
        `Sign in at ${env.PUBLIC_URL}/admin, then set a password of your own (the admin asks for it first).`,
      );
    } else if (result.alreadyAdmin) {
      out.log(`${result.email} is already ${what}. Nothing changed.`);
    } else {
      out.log(
        `${result.email} is now ${what}. They sign in at ${env.PUBLIC_URL}/admin with their own password.`,
      );
    }
  } finally {
    await database.close();
  }
}
