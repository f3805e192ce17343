import pg from "pg";
import { adminCreateCommand } from "../../scripts/admin-create-command";
import { runCommand } from "./command";
import { printedAdminPassword, signIn, type StoreProcess } from "./store-process";

/**
 * `npm run admin:create -- --email EMAIL --name NAME` on these variables' DATA_DIR or DATABASE_URL, run in this
 * process as scripts/admin-create.ts runs it (tests/integration/admin-create.test.ts starts the script itself once):
 * the temporary password it printed.
 */
export async function createAdmin(
  variables: Record<string, string>,
  email: string,
  name = "Owner",
): Promise<string> {
  const made = await runCommand(adminCreateCommand, ["--email", email, "--name", name], {
    ...process.env,
    LOG_LEVEL: "error",
    ...variables,
  });
  if (made.status !== 0) throw new Error(`admin:create failed:\n${made.stdout}${made.stderr}`);
  return printedAdminPassword(made.stdout);
}

/**
 * An admin made by `admin:create` on a running store's PostgreSQL database, keeping the printed password (as the
 * end-to-end server's first admin does), signed in: the session cookie.
 */
export async function adminSession(store: StoreProcess, databaseUrl: string): Promise<string> {
  const email = "owner@example.com";
  const password = await createAdmin({ DATABASE_URL: databaseUrl, DATA_DIR: store.dataDir }, email);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`update "user" set must_change_password = false where email = $1`, [email]);
  } finally {
    await client.end();
  }
  return signIn(store.url, email, password);
}
