import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import lockfile from "proper-lockfile";
import { makeOwnerOnly, OWNER_ONLY_DIR } from "../app/lib/data-dir.server";
import { migrationsFolder } from "./paths.server";
import * as schema from "./schema";

export type Schema = typeof schema;
/** The same query API whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** The raw clients, for LISTEN/NOTIFY and tests. */
  pglite?: PGlite;
  pool?: pg.Pool;
  /**
   * LISTENs on a channel (PGlite in process; PostgreSQL on a connection of its own, reconnected when lost).
   * Resolves once listening, to a function that stops.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
};

export type ListenHandlers = {
  onMessage(payload: string): void;
  /** A lost connection (PostgreSQL), reported before reconnecting. */
  onError?(error: Error): void;
  /** Listening again after a lost connection: messages sent in between were missed. */
  onReconnect?(): void;
};

export type DatabaseOptions =
  /** PostgreSQL through pg. */
  | { url: string }
  /** Embedded PGlite persisted in dataDir (locked against a second process), or in memory. */
  | { dataDir: string }
  | { memory: true };

export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return "url" in options ? openPostgres(options.url) : openPglite(options);
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server ends (a restart, a dropped database) is an error event on the pool: the pool
  // discards that connection and the next query opens a new one. Without a listener it would end the process.
  pool.on("error", () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    pool,
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    async migrate() {
      // Several app processes may start at once against one database: migrate one at a time.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock(72710001)");
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query("select pg_advisory_unlock(72710001)").catch(() => {});
        client.release();
      }
    },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function openPglite(options: { dataDir: string } | { memory: true }): Promise<DatabaseHandle> {
  let release: (() => Promise<void>) | undefined;
  let pgliteDir: string | undefined;
  if ("dataDir" in options) {
    pgliteDir = path.join(options.dataDir, "pglite");
    mkdirSync(pgliteDir, { recursive: true, mode: OWNER_ONLY_DIR });
    release = await lockDataDir(options.dataDir, pgliteDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(pgliteDir, { extensions: { pg_trgm } });
    // A new database's first files are written readable and writable by everyone, whatever the umask.
    if (pgliteDir) makeOwnerOnly(pgliteDir);
  } catch (error) {
    await release?.();
    throw error;
  }
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: "pglite",
    pglite: client,
    async listen(channel, { onMessage }) {
      return client.listen(checkChannel(channel), onMessage);
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: migrationsFolder() });
    },
    ping: () => ping(db),
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
      await release?.();
    },
  };
}

const checkChannel = (channel: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  return channel;
};

/** A pooled connection cannot LISTEN (it goes back to the pool): a client of its own, reconnected after a loss. */
async function listenPostgres(
  url: string,
  channel: string,
  { onMessage, onError, onReconnect }: ListenHandlers,
): Promise<() => Promise<void>> {
  checkChannel(channel);
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (again: boolean) => {
    const client = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = (error: Error) => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      void client.end().catch(() => {});
      if (stopped) return;
      onError?.(error);
      schedule();
    };
    client.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    client.on("error", onLost);
    client.on("end", () => onLost(new Error("the LISTEN connection ended")));
    await client.connect();
    await client.query(`listen ${channel}`);
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    if (again) onReconnect?.();
  };
  const schedule = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect(true).catch((error: Error) => {
        onError?.(error);
        schedule();
      });
    }, 1000);
    retry.unref();
  };

  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}

/** PGlite has no lock of its own: a second process on the same files would corrupt them. */
async function lockDataDir(dataDir: string, pgliteDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(pgliteDir, {
      lockfilePath: path.join(dataDir, "pglite.lock"),
      stale: 15_000,
      update: 5_000,
      retries: 0,
      onCompromised: (error) => {
        console.error(
          `The lock on ${dataDir} was lost (${error.message}); stopping to protect the database.`,
        );
        process.exit(1);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new DatabaseLockedError(
        `The database in ${dataDir} is in use by another process (lock file ${path.join(dataDir, "pglite.lock")}). ` +
          "Stop the other server first, or give this one its own DATA_DIR. " +
          "If no other server runs, the lock goes stale and is released within 15 seconds.",
      );
    }
    throw error;
  }
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
