/**
 * For the end-to-end server only (scripts/e2e-server.mjs), after `admin:create` made the first admin:
 *
 * - the first admin keeps the temporary password admin:create printed, so the many tests that sign in as that admin
 *   do not each have to choose a new one;
 * - a second admin is made the way admin:create makes one (createAdmin, the command's own function) and keeps the
 *   flag, to test the prompt for a new password. Its password is printed as admin:create prints it.
 *
 * One process for both: each start of the embedded database costs seconds on a busy machine.
 */
import { eq } from "drizzle-orm";
import { loadEnv } from "~/lib/env.server";
import { createLogger } from "~/lib/logger.server";
import { createAuth } from "~/modules/accounts/auth.server";
import { createAdmin } from "~/modules/admin/create-admin.server";
import { openDatabase } from "~db/client.server";
import { user } from "~db/schema";

async function main(first: string | undefined, second: string | undefined) {
  if (!first || !second) throw new Error("usage: e2e-admins.ts <first admin> <second admin>");
  const env = loadEnv();
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    await database.db.update(user).set({ mustChangePassword: false }).where(eq(user.email, first));
    const auth = createAuth({
      db: database.db,
      env,
      logger: createLogger(env.LOG_LEVEL),
      mailer: { kick: () => undefined },
    });
    const made = await createAdmin({ db: database.db, auth }, { email: second, name: "New Admin" });
    if (!made.created) throw new Error(`${second} existed already`);
    console.log(`Created the admin ${made.email}.`);
    console.log(`Temporary password (shown only now): ${made.password}`);
  } finally {
    await database.close();
  }
}

main(process.argv[2], process.argv[3]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
