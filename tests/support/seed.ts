import { randomBytes } from "node:crypto";
import type { Database } from "~db/client.server";
import { importSeed, readDemoSeed } from "~/modules/seed/import.server";
import { keyCipher } from "~/lib/key-cipher.server";

/** A cipher with a fresh key, as a new store would have. */
export const testCipher = () => keyCipher(randomBytes(32).toString("base64url"));

/** The whole demo store, licence keys included. */
export async function seedDemo(db: Database, cipher = testCipher()) {
  await importSeed(db, readDemoSeed(), "the demo data", { cipher });
  return cipher;
}
