import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "~db/client.server";
import { databaseUrl } from "./database-templates";

export type Driver = "pglite" | "postgres";

/** Every database test runs on PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set. */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TestDatabase = DatabaseHandle & { url?: string };

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A fresh, migrated database of its own: in-memory PGlite, or a new database on the PostgreSQL server. Both are
 * copies of the templates tests/support/database-templates.ts migrated once for the run.
 */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === "pglite") {
    pgliteTemplate ??= readFile(inject("pgliteTemplate")).then((bytes) => new Blob([bytes]));
    return openDatabase({ memory: true, loadDataDir: await pgliteTemplate });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject("postgresTemplate");
  if (!adminUrl || !template) throw new Error("TEST_DATABASE_URL is not set");
  const name = `storefront_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (client) => client.query(`create database ${name} template ${template}`));
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

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
