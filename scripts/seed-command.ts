import path from "node:path";
import { parseArgs } from "node:util";
import { repairedModesNotice, secureDataDir } from "../platform/data-dir.server";
import { ConfigError } from "../platform/config-error";
import { loadEnv } from "~/lib/env.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { DatabaseLockedError, openDatabase } from "~db/client.server";
import { importSeed, readDemoSeed, readSeedFile, SeedValidationError } from "~/modules/seed/import.server";

/**
 * npm run db:seed (scripts/seed.ts) with these arguments and variables, writing to `out`: imports the demo store, or
 * the catalogue file given with --file. Resolves to the exit code.
 */
export async function seedCommand(
  args: string[],
  variables: Record<string, string | undefined>,
  out: Pick<Console, "log" | "error">,
): Promise<number> {
  try {
    await seed(args, variables, out);
    return 0;
  } catch (error) {
    if (
      error instanceof SeedValidationError ||
      error instanceof ConfigError ||
      error instanceof DatabaseLockedError
    ) {
      out.error(error.message);
    } else {
      out.error(error);
    }
    return 1;
  }
}

async function seed(
  args: string[],
  variables: Record<string, string | undefined>,
  out: Pick<Console, "log">,
) {
  const { values } = parseArgs({ args, options: { file: { type: "string", short: "f" } } });
  const env = loadEnv(variables);
  const repaired = secureDataDir(env.DATA_DIR);
  if (repaired.length > 0) out.log(repairedModesNotice(env.DATA_DIR, repaired));
  const file = values.file ? path.resolve(values.file) : undefined;
  const seedFile = file ? readSeedFile(file) : readDemoSeed();
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    await database.migrate();
    const report = await importSeed(database.db, seedFile, file ?? "the demo data", {
      cipher: keyCipher(env.ENCRYPTION_KEY),
    });
    out.log(
      `Imported ${file ?? "the demo data"}: ${report.groups} brand groups, ${report.products} products, ` +
        `${report.brandContent} brand content entries, ${report.pages} pages, ${report.licenceKeys} new licence keys.`,
    );
  } finally {
    await database.close();
  }
}
