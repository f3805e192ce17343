/**
 * The end-to-end store's setup (scripts/e2e-server.mjs), on DATA_DIR or DATABASE_URL before its server starts, in one
 * process: each start of the embedded database costs seconds on a busy machine. Writes what admin:create printed for
 * each admin to OUT_DIR/admin.txt and OUT_DIR/admin2.txt.
 *
 * - The first admin, made by admin:create's own command, as a store owner makes one. It keeps the temporary password
 *   the command printed, so the many tests that sign in as that admin do not each have to choose a new one.
 * - The demo store, imported as the server imports it into an empty database.
 * - A second admin, made the way admin:create makes one, who keeps the prompt for a new password (tested in
 *   tests/e2e/account-self-service.spec.ts).
 * - The two licences most tests buy get more keys, added as the owner adds them on /admin/keys: the tests of one
 *   worker buy from one store, and a test must not find a pool emptied by the files that ran before it. Other pools
 *   keep the demo store's few keys (a test that looks for its key among a pool's newest keys needs a small pool).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { loadEnv } from "~/lib/env.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { createLogger } from "~/lib/logger.server";
import { createAuth } from "~/modules/accounts/auth.server";
import { createAdmin } from "~/modules/admin/create-admin.server";
import { importPoolKeys } from "~/modules/admin/product-keys.server";
import { openDatabase } from "~db/client.server";
import { products, user } from "~db/schema";
import { importSeed, readDemoSeed } from "~/modules/seed/import.server";
import { adminCreateCommand } from "../../scripts/admin-create-command";

const FIRST = "admin@example.com";
const SECOND = "new-admin@example.com";
/** Norton AntiVirus Plus and Norton 360 Deluxe, by brand group and product id. */
const MOST_BOUGHT = [
  { group: "Norton", id: "1" },
  { group: "Norton", id: "3" },
];
const MORE_KEYS = 60;

async function main(outDir: string | undefined) {
  if (!outDir) throw new Error("usage: e2e-store-setup.ts OUT_DIR");
  const printed: string[] = [];
  const capture = { log: (line: unknown) => printed.push(String(line)), error: console.error };
  if ((await adminCreateCommand(["--email", FIRST, "--name", "Store Admin"], process.env, capture)) !== 0)
    throw new Error("admin:create failed");
  writeFileSync(path.join(outDir, "admin.txt"), `${printed.join("\n")}\n`);

  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    const db = database.db;
    const cipher = keyCipher(env.ENCRYPTION_KEY);
    const demo = readDemoSeed();
    await importSeed(db, demo, "the demo data", { cipher });

    await db.update(user).set({ mustChangePassword: false }).where(eq(user.email, FIRST));
    const auth = createAuth({ db, env, logger, mailer: { kick: () => undefined } });
    const made = await createAdmin({ db, auth }, { email: SECOND, name: "New Admin" });
    if (!made.created) throw new Error(`${SECOND} existed already`);
    writeFileSync(
      path.join(outDir, "admin2.txt"),
      `Created the admin ${made.email}.\nTemporary password (shown only now): ${made.password}\n`,
    );

    const ctx = {
      db,
      env,
      logger,
      cipher,
      mailer: { kick: () => undefined },
      storeName: "KeyHaven Tech Store",
    };
    for (const pool of MOST_BOUGHT) {
      const [product] = await db
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.groupKey, pool.group), eq(products.externalId, pool.id)));
      if (!product) throw new Error(`no demo product ${pool.group} ${pool.id}`);
      const keys = Array.from(
        { length: MORE_KEYS },
        (_, n) => `TOPUP-SETUP-${pool.group.toUpperCase()}-${pool.id}-${String(n).padStart(4, "0")}`,
      );
      const added = await importPoolKeys(ctx, product.id, keys, FIRST);
      if (!added.ok) throw new Error(added.error);
    }
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
