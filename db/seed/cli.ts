/**
 * npm run db:seed                       imports the demo store (idempotent)
 * npm run db:seed -- --file my.json     imports your own catalogue file
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { repairedModesNotice, secureDataDir } from "../../app/lib/data-dir.server";
import { ConfigError, loadEnv } from "../../app/lib/env.server";
import { keyCipher } from "../../app/lib/key-cipher.server";
import { DatabaseLockedError, openDatabase } from "../client.server";
import { importSeed, readDemoSeed, readSeedFile, SeedValidationError } from "./import.server";

async function main() {
  const { values } = parseArgs({ options: { file: { type: "string", short: "f" } } });
  const env = loadEnv();
  const repaired = secureDataDir(env.DATA_DIR);
  if (repaired.length > 0) console.log(repairedModesNotice(env.DATA_DIR, repaired));
  const file = values.file ? path.resolve(values.file) : undefined;
  const seed = file ? readSeedFile(file) : readDemoSeed();
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    await database.migrate();
    const report = await importSeed(database.db, seed, file ?? "the demo data", {
      cipher: keyCipher(env.ENCRYPTION_KEY),
    });
    console.log(
      `Imported ${file ?? "the demo data"}: ${report.groups} brand groups, ${report.products} products, ` +
        `${report.brandContent} brand content entries, ${report.pages} pages, ${report.licenceKeys} new licence keys.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (
    error instanceof SeedValidationError ||
    error instanceof ConfigError ||
    error instanceof DatabaseLockedError
  ) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
