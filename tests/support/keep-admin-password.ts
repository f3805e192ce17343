/**
 * For the end-to-end server only (scripts/e2e-server.mjs): lets the first admin keep the temporary password
 * admin:create printed, so the many tests that sign in as that admin do not each have to choose a new one. The
 * prompt for a new password is tested with a second admin made the same way, which keeps its flag.
 */
import { eq } from "drizzle-orm";
import { loadEnv } from "~/lib/env.server";
import { openDatabase } from "~db/client.server";
import { user } from "~db/schema";

async function main(email: string | undefined) {
  if (!email) throw new Error("usage: keep-admin-password.ts <email>");
  const env = loadEnv();
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    await database.db.update(user).set({ mustChangePassword: false }).where(eq(user.email, email));
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
