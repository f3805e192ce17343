import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { databaseUrl, type Template, withAdmin } from "./database-templates";

export type Driver = "pglite" | "postgres";

/** Every database test runs on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set. */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TestDatabase = DatabaseHandle & { url?: string };

const pgliteTemplates = new Map<Template, Promise<Blob>>();

/**
 * A fresh database of its own, migrated (and holding the demo store, for createDemoDatabase):
 * in-memory PGlite, or a new database on the PostgreSQL server. Each is a copy of a template
 * tests/support/database-templates.ts made once for the run.
 */
export async function createTestDatabase(
  driver: Driver,
  template: Template = "migrated",
): Promise<TestDatabase> {
  const templates = inject("databaseTemplates");
  if (driver === "pglite") {
    let loading = pgliteTemplates.get(template);
    if (!loading) {
      loading = readFile(templates.pglite[template]).then((bytes) => new Blob([bytes]));
      pgliteTemplates.set(template, loading);
    }
    return openDatabase({ memory: true, loadDataDir: await loading });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl || !templates.postgres) throw new Error("TEST_DATABASE_URL is not set");
  const name = `storefront_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (client) =>
    client.query(`create database ${name} template ${templates.postgres![template]}`),
  );
  const url = databaseUrl(adminUrl, name);
  const handle = await openDatabase({ url });
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      await withAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * A fresh database holding the whole demo store, and the cipher of its licence keys: a copy of one seedDemo
 * (tests/support/seed.ts) seeded once for the run, with a key of the run's own.
 */
export async function createDemoDatabase(driver: Driver) {
  const database = await createTestDatabase(driver, "demo");
  return { database, cipher: keyCipher(inject("databaseTemplates").demoKey) };
}
