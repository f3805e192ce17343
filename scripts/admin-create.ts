/**
 * npm run admin:create -- --email owner@example.com [--name "Store Owner"]
 *
 * Creates the store's first (or another) admin. A new account gets a temporary password, printed here once;
 * an existing account is given the admin role and keeps its password (one whose address was never confirmed gets
 * a temporary password too).
 */
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { repairedModesNotice, secureDataDir } from "~/lib/data-dir.server";
import { ConfigError, loadEnv } from "~/lib/env.server";
import { createLogger } from "~/lib/logger.server";
import { createAuth } from "~/modules/accounts/auth.server";
import { createAdmin } from "~/modules/admin/create-admin.server";
import { DatabaseLockedError, openDatabase } from "~db/client.server";

async function main() {
  const { values } = parseArgs({ options: { email: { type: "string" }, name: { type: "string" } } });
  const env = loadEnv();
  const repaired = secureDataDir(env.DATA_DIR);
  if (repaired.length > 0) console.log(repairedModesNotice(env.DATA_DIR, repaired));
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    await database.migrate();
    // No e-mail leaves this command: creating an admin sends no verification link.
    const auth = createAuth({ db: database.db, env, logger, mailer: { kick: () => undefined } });
    const result = await createAdmin({ db: database.db, auth }, { email: values.email, name: values.name });
    if (result.created) {
      console.log(`Created the admin ${result.email}.`);
      console.log(`Temporary password (shown only now): ${result.password}`);
      console.log(
        `Sign in at ${env.PUBLIC_URL}/admin, then set a password of your own (the admin asks for it first).`,
      );
    } else if (result.password) {
      console.log(
        `${result.email} is now an admin. Its address was never confirmed, so its password was replaced.`,
      );
      console.log(`Temporary password (shown only now): ${result.password}`);
      console.log(
        `Sign in at ${env.PUBLIC_URL}/admin, then set a password of your own (the admin asks for it first).`,
      );
    } else if (result.alreadyAdmin) {
      console.log(`${result.email} is already an admin. Nothing changed.`);
    } else {
      console.log(
        `${result.email} is now an admin. They sign in at ${env.PUBLIC_URL}/admin with their own password.`,
      );
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ZodError) console.error(error.issues.map((issue) => issue.message).join("\n"));
  else if (error instanceof ConfigError || error instanceof DatabaseLockedError) console.error(error.message);
  else console.error(error);
  process.exitCode = 1;
});
