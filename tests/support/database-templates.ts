import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase, type DatabaseHandle } from "~db/client.server";
import { migrationsFolder, projectRoot } from "~db/paths.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { seedDemo } from "./seed";

/** What a test database starts as: migrated and empty, or holding the demo store too. */
export type Template = "migrated" | "demo";

export type DatabaseTemplates = {
  /** Files of PGlite databases (dumpDataDir) to load. */
  pglite: Record<Template, string>;
  /** Databases on the TEST_DATABASE_URL server to create from. */
  postgres?: Record<Template, string>;
  /** The encryption key of the demo store's licence keys: random for each run, as a new store's is. */
  demoKey: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/**
 * Vitest globalSetup: migrates one database per driver, and seeds a copy of it with the demo store, once for the
 * whole run instead of once for each test database. The migrated ones are named after the migrations, so a changed
 * migration gets one of its own, and are kept for later runs; the demo ones are made again each run (the seed data
 * and the code that imports it may have changed) and removed after it.
 */
export default async function setup(project: TestProject) {
  const run = (shared.databaseTemplatesRun ??= { made: makeTemplates(), users: 0 });
  run.users++;
  const made = await run.made;
  project.provide("databaseTemplates", made.templates);
  return async () => {
    if (--run.users > 0) return;
    delete shared.databaseTemplatesRun;
    await made.remove();
  };
}

type MadeTemplates = { templates: DatabaseTemplates; remove(): Promise<void> };

/**
 * The projects that use the templates (integration, isolated) each load this file, but share one set for the run:
 * made by the first, removed after the last.
 */
const shared = globalThis as typeof globalThis & {
  databaseTemplatesRun?: { made: Promise<MadeTemplates>; users: number };
};

async function makeTemplates(): Promise<MadeTemplates> {
  const key = templateKey();
  const demoKey = randomBytes(32).toString("base64url");
  const url = process.env.TEST_DATABASE_URL;
  const [pglite, postgres] = await Promise.all([
    pgliteTemplates(key, demoKey),
    url ? postgresTemplates(url, key, demoKey) : undefined,
  ]);
  return {
    templates: { pglite: pglite.files, postgres: postgres?.names, demoKey },
    async remove() {
      pglite.remove();
      await postgres?.remove();
    },
  };
}

/** The migrations, and the PGlite version whose files the template is. */
function templateKey(): string {
  const hash = createHash("sha256");
  const hashFolder = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) hashFolder(file);
      else hash.update(`${path.relative(migrationsFolder(), file)}\0`).update(readFileSync(file));
    }
  };
  hashFolder(migrationsFolder());
  hash.update(
    readFileSync(path.join(projectRoot(), "node_modules", "@electric-sql", "pglite", "package.json")),
  );
  return hash.digest("hex").slice(0, 16);
}

async function pgliteTemplates(key: string, demoKey: string) {
  const folder = path.join(projectRoot(), "node_modules", ".cache", "storefront-tests");
  const migrated = path.join(folder, `pglite-${key}.tar`);
  if (!existsSync(migrated)) {
    mkdirSync(folder, { recursive: true });
    // Written aside and renamed: a run starting meanwhile never reads half a file.
    const partial = `${migrated}.${process.pid}`;
    await dumpPglite(partial, await openDatabase({ memory: true }), (database) => database.migrate());
    renameSync(partial, migrated);
  }
  const runDir = mkdtempSync(path.join(tmpdir(), "storefront-test-templates-"));
  const demo = path.join(runDir, "pglite-demo.tar");
  const loaded = await openDatabase({ memory: true, loadDataDir: new Blob([readFileSync(migrated)]) });
  await dumpPglite(demo, loaded, (database) => seedDemo(database.db, keyCipher(demoKey)));
  return {
    files: { migrated, demo },
    remove: () => rmSync(runDir, { recursive: true, force: true }),
  };
}

async function dumpPglite(
  file: string,
  database: DatabaseHandle,
  prepare: (database: DatabaseHandle) => unknown,
) {
  try {
    await prepare(database);
    const dump = await database.pglite!.dumpDataDir("none");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
}

async function postgresTemplates(adminUrl: string, key: string, demoKey: string) {
  const migrated = `storefront_template_${key}`;
  const demo = `storefront_demo_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, async (client) => {
    // Two runs starting at once against one server: the second waits for the first's template.
    await client.query("select pg_advisory_lock(72710002)");
    const found = await client.query("select 1 from pg_database where datname = $1", [migrated]);
    if (found.rowCount === 0) {
      // Migrated under another name and renamed: a run that failed halfway leaves no template that looks whole.
      const building = `${migrated}_building`;
      await client.query(`drop database if exists ${building}`);
      await client.query(`create database ${building}`);
      await prepare(databaseUrl(adminUrl, building), (database) => database.migrate());
      await client.query(`alter database ${building} rename to ${migrated}`);
    }
    await client.query(`create database ${demo} template ${migrated}`);
    // Ending the session releases the lock.
  });
  await prepare(databaseUrl(adminUrl, demo), (database) => seedDemo(database.db, keyCipher(demoKey)));
  return {
    names: { migrated, demo },
    remove: () =>
      withAdmin(adminUrl, (client) => client.query(`drop database if exists ${demo} with (force)`)),
  };
}

async function prepare(url: string, work: (database: DatabaseHandle) => Promise<unknown>) {
  // Seeding the demo store writes in statements that take seconds while the run's other parts start beside it: the
  // 4 s a request's statement may take would cut them off (and end the connection).
  const database = await openDatabase({ url, pool: { statementTimeoutMs: 120_000 } });
  try {
    await work(database);
  } finally {
    await database.close();
  }
}

export async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
