import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~db/client.server";
import { migrationsFolder, projectRoot } from "~db/paths.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite database's files (dumpDataDir), each test database's starting point. */
    pgliteTemplate: string;
    /** The migrated database on the TEST_DATABASE_URL server each test database is created from. */
    postgresTemplate: string | undefined;
  }
}

/**
 * Vitest globalSetup: migrates one database per driver once, for the whole run, instead of one per test database.
 * Each is named after the migrations, so a changed migration gets a template of its own; one already made is used
 * again (by later runs too).
 */
export default async function setup(project: TestProject) {
  const key = templateKey();
  project.provide("pgliteTemplate", await pgliteTemplate(key));
  const url = process.env.TEST_DATABASE_URL;
  project.provide("postgresTemplate", url ? await postgresTemplate(url, key) : undefined);
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

async function pgliteTemplate(key: string): Promise<string> {
  const folder = path.join(projectRoot(), "node_modules", ".cache", "storefront-tests");
  const file = path.join(folder, `pglite-${key}.tar`);
  if (existsSync(file)) return file;
  mkdirSync(folder, { recursive: true });
  const database = await openDatabase({ memory: true });
  try {
    await database.migrate();
    const dump = await database.pglite!.dumpDataDir("none");
    // Written aside and renamed: a run starting meanwhile never reads half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

async function postgresTemplate(adminUrl: string, key: string): Promise<string> {
  const name = `storefront_template_${key}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Two runs starting at once against one server: the second waits for the first's template.
    await client.query("select pg_advisory_lock(72710002)");
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      // Migrated under another name and renamed: a run that failed halfway leaves no template that looks whole.
      const building = `${name}_building`;
      await client.query(`drop database if exists ${building}`);
      await client.query(`create database ${building}`);
      const database = await openDatabase({ url: databaseUrl(adminUrl, building) });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await client.query(`alter database ${building} rename to ${name}`);
    }
  } finally {
    // Ending the session releases the lock.
    await client.end();
  }
  return name;
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
