import { randomUUID } from "node:crypto";
import { mkdir, rm, statfs, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { RequestHandler } from "express";
import type { DatabaseHandle } from "~db/client.server";

export type HealthOptions = {
  database: Pick<DatabaseHandle, "db" | "kind">;
  /** DATA_DIR: its disk must have `minFreeMb` free, and a file must be writable under `storageDir`. */
  dataDir: string;
  storageDir: string;
  minFreeMb: number;
  /**
   * Whether the live-update LISTEN connection is up (PostgreSQL): false while it is lost, and from the moment it
   * misses a heartbeat (a silent connection) until it is replaced.
   */
  listening?: () => boolean;
  /** False while the database is known to be unreachable: it is not tried again for every check. */
  reachable?: () => boolean;
  /** What the full-page cache holds (reported, never a failure). */
  pageCache?: () => { enabled: boolean; entries: number; bytes: number; maxBytes: number };
};

type Check = { ok: boolean; error?: string };

/** A check that takes too long has failed: a health check must answer while the thing it checks hangs. */
const within = <T>(ms: number, work: Promise<T>) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref(),
    ),
  ]);

/** What failed, without paths or query text: the answer is public. */
const describe = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return error instanceof Error && /^no answer within/.test(error.message) ? error.message : "failed";
};

/** The database takes a write: a table created and a row inserted in a transaction that is rolled back. */
async function databaseWritable(database: HealthOptions["database"]): Promise<Check> {
  const rollback = new Error("health check: roll back");
  try {
    await within(
      3000,
      database.db.transaction(async (tx) => {
        await tx.execute(
          sql.raw(`create table healthz_probe_${randomUUID().replaceAll("-", "")} (at timestamptz)`),
        );
        throw rollback;
      }),
    );
    return { ok: true };
  } catch (error) {
    return error === rollback ? { ok: true } : { ok: false, error: describe(error) };
  }
}

async function storageWritable(storageDir: string): Promise<Check> {
  const file = path.join(storageDir, `.healthz-${randomUUID()}`);
  try {
    await within(
      3000,
      mkdir(storageDir, { recursive: true, mode: 0o700 }).then(() => writeFile(file, "ok")),
    );
    return { ok: true };
  } catch (error) {
    return { ok: false, error: describe(error) };
  } finally {
    await rm(file, { force: true }).catch(() => {});
  }
}

async function diskSpace(dataDir: string, minFreeMb: number): Promise<Check & { freeMb?: number }> {
  try {
    const stats = await statfs(dataDir);
    const freeMb = Math.floor((stats.bavail * stats.bsize) / (1024 * 1024));
    return freeMb >= minFreeMb
      ? { ok: true, freeMb }
      : {
          ok: false,
          freeMb,
          error: `only ${freeMb} MB free on the disk of DATA_DIR (at least ${minFreeMb} MB needed)`,
        };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

/**
 * GET /healthz: readiness. 200 only when the store can take an order: the database takes a write, the file storage
 * takes a file, DATA_DIR's disk has room, and (PostgreSQL) the live-update listener is connected; 503 otherwise,
 * with what failed. `database.ok` stays for callers of the earlier answer.
 */
export function readiness(options: HealthOptions): RequestHandler {
  return async (_req, res) => {
    // As it is when asked, and again once the other checks are done: lost at either moment is not ready.
    const listeningAtStart = options.listening?.() ?? true;
    const [database, storage, disk] = await Promise.all([
      options.reachable?.() === false
        ? { ok: false, error: "the database cannot be reached" }
        : databaseWritable(options.database),
      storageWritable(options.storageDir),
      diskSpace(options.dataDir, options.minFreeMb),
    ]);
    const listener =
      options.database.kind === "postgres"
        ? { ok: listeningAtStart && (options.listening?.() ?? true) }
        : undefined;
    const ok = database.ok && storage.ok && disk.ok && (listener?.ok ?? true);
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status: ok ? "ok" : "error",
        database: { driver: options.database.kind, ...database },
        storage,
        disk,
        ...(listener ? { listener } : {}),
        ...(options.pageCache ? { pageCache: options.pageCache() } : {}),
      });
  };
}

/** GET /healthz/live: liveness. The process answers; nothing else is checked (a restart would not help that). */
export const liveness: RequestHandler = (_req, res) => {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
};
