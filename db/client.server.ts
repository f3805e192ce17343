import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
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
import { makeOwnerOnly, OWNER_ONLY_DIR } from "../platform/data-dir.server";
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
   * LISTENs on a channel (PGlite in process; PostgreSQL on a connection of its own, reconnected when lost or silent).
   * Resolves once listening, or (PostgreSQL) once the first attempt failed: `onError` has then been told, and it
   * keeps trying.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listening>;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
};

export type ListenHandlers = {
  onMessage(payload: string): void;
  /**
   * A lost connection (PostgreSQL), reported before reconnecting; also a first connection that failed, and the
   * first failed attempts to reconnect.
   */
  onError?(error: Error): void;
  /** Listening again after a lost (or never made) connection: messages sent in between were missed. */
  onReconnect?(): void;
};

export type Listening = {
  /** Stops listening. */
  stop(): Promise<void>;
  /**
   * Resolves once every notification committed before the call has reached `onMessage`. PGlite delivers them before
   * the committing query resolves; PostgreSQL sends them on the LISTEN connection, where it also sends any pending
   * before the answer to a query: one round trip there, within seconds. Rejects while that connection is lost, and
   * when it does not answer in time (it is then replaced).
   */
  sync(): Promise<void>;
};

export type DatabaseOptions =
  /** PostgreSQL through pg. */
  | { url: string; pool?: PoolLimits }
  /** Embedded PGlite persisted in dataDir (locked against a second process), or in memory. */
  | { dataDir: string }
  /** In memory; loadDataDir starts it from a copy of another's files (dumpDataDir), as tests do from a migrated one. */
  | { memory: true; loadDataDir?: Blob };

export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return "url" in options ? openPostgres(options.url, options.pool) : openPglite(options);
}

/** How much of the database a process's requests may take and wait for (the defaults below; tests shrink them). */
export type PoolLimits = {
  /** Connections in the pool. */
  size?: number;
  /** Requests that may wait for a free connection; the next one is refused at once (DatabaseBusyError). */
  maxWaiting?: number;
  /** The server cancels a pooled statement that runs longer (statement_timeout). */
  statementTimeoutMs?: number;
};

/**
 * Every pooled query has a deadline, as a page must answer within 5 s: the server cancels a statement after 4 s
 * (statement_timeout, SQLSTATE 57014: a lock held too long, a saturated server), which leaves the request a second to
 * answer "busy"; pg gives up on a connection that has not answered half a second after that (query_timeout: the
 * server, or the way to it, went silent, so no cancel could come back). A transaction left idle for 10 s (a request
 * stalled between its statements) is ended by the server, so its locks do not hold everyone else up. Waiting for a
 * free connection is bounded too: at most five requests per connection wait (each for 3 s at most,
 * connectionTimeoutMillis), and the next is told "busy" at once instead of joining a queue it would time out in.
 * Migrations run on a connection of their own, without these limits.
 */
const POOL_DEFAULTS = { size: 10, maxWaiting: 50, statementTimeoutMs: 4000 } satisfies Required<PoolLimits>;
const SILENT_CONNECTION_MARGIN_MS = 500;
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

/** A request refused a connection because too many wait for one already: the database is busy, not away. */
export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
  readonly code = DATABASE_BUSY_CODE;
}
/** The code of DatabaseBusyError, which the server's classification of database errors recognizes. */
export const DATABASE_BUSY_CODE = "STOREFRONT_POOL_BUSY";

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * Bounds pg's queue for a free connection (pg.Pool's own has no limit), and makes sure a connection still busy with
 * a query that timed out is never lent again (its answer would come to the next borrower).
 */
function limitWaiting(pool: pg.Pool, maxWaiting: number) {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | void;
  pool.connect = ((callback?: ConnectCallback) => {
    if (pool.waitingCount >= maxWaiting) {
      const busy = new DatabaseBusyError(
        `${pool.waitingCount} requests wait for a database connection already`,
      );
      if (!callback) return Promise.reject(busy);
      process.nextTick(() => callback(busy, undefined, () => {}));
      return;
    }
    // pool.query() borrows with a callback and releases with its query's error; a borrower of its own (a
    // transaction) releases without one, so a connection whose query is still out is discarded here.
    if (callback) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const release = client.release.bind(client);
      client.release = (error?: Error | boolean) =>
        release(error || ((client as unknown as { activeQuery?: unknown }).activeQuery ? true : undefined));
      return client;
    });
  }) as typeof pool.connect;
}

/**
 * A query that got no answer by its deadline (query_timeout) leaves its connection waiting for that answer, and what
 * the request sends next on it (its transaction's ROLLBACK) would wait behind it for a deadline of its own: the
 * connection is closed at once instead, so those fail now and the request answers within its 5 s.
 */
function closeWhenSilent(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const closeIfSilent = (error: unknown) => {
    if (error instanceof Error && error.message === "Query read timeout")
      (client as unknown as pg.Client).connection.stream.destroy();
  };
  client.query = ((...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === "function") {
      const callback = last as (error: unknown, result?: unknown) => void;
      return query(...args.slice(0, -1), (error: unknown, result?: unknown) => {
        closeIfSilent(error);
        callback(error, result);
      });
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(closeIfSilent);
    return result;
  }) as typeof client.query;
}

async function openPostgres(url: string, limits: PoolLimits = {}): Promise<DatabaseHandle> {
  const { size, maxWaiting, statementTimeoutMs } = { ...POOL_DEFAULTS, ...limits };
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + SILENT_CONNECTION_MARGIN_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    // While the database is away a request fails within seconds (the app answers 503) instead of waiting.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  limitWaiting(pool, maxWaiting);
  // An idle connection the server ends (a restart, a dropped database) is an error event on the pool: the pool
  // discards that connection and the next query opens a new one. Without a listener it would end the process.
  pool.on("error", () => undefined);
  // A connection lost while a request holds it (between the queries of a transaction) is an error event on that
  // client, which the pool does not listen to while it is checked out: the process would end. Its queries fail on
  // their own, and the pool discards the client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
    closeWhenSilent(client);
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    pool,
    // A LISTEN connection that cannot be opened, or stops answering, is news for whoever watches the pool's errors
    // (the store's availability): the store answers 503 at once, and a process that starts while the database is
    // away knows it before its first request fails.
    listen: (channel, handlers) =>
      listenPostgres(url, channel, handlers, (error) => pool.emit("error", error)),
    async migrate() {
      // A migration may take longer than a request's deadline, and waits for another process's: a connection of
      // its own, without the pool's timeouts.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      client.on("error", () => undefined);
      await client.connect();
      try {
        // Several app processes may start at once against one database: migrate one at a time.
        await client.query("select pg_advisory_lock(72710001)");
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.end().catch(() => {});
      }
    },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function openPglite(
  options: { dataDir: string } | { memory: true; loadDataDir?: Blob },
): Promise<DatabaseHandle> {
  let release: (() => Promise<void>) | undefined;
  let pgliteDir: string | undefined;
  if ("dataDir" in options) {
    pgliteDir = path.join(options.dataDir, "pglite");
    mkdirSync(pgliteDir, { recursive: true, mode: OWNER_ONLY_DIR });
    release = await lockDataDir(options.dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(pgliteDir, {
      extensions: { pg_trgm },
      loadDataDir: "loadDataDir" in options ? options.loadDataDir : undefined,
    });
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
      const stop = await client.listen(checkChannel(channel), onMessage);
      return { stop, sync: async () => {} };
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

/** The wait before reconnect attempt `attempt` (0, 1, ...): doubling from 250 ms, capped, with full jitter. */
export function reconnectDelay(attempt: number, { baseMs = 250, capMs = 2000 } = {}): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * Bounds every wait for a connection (a new one, or a free one in the pool): a server that does not answer is an
 * error, not a hang, and leaves a request time to say so within 5 s.
 */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * TCP keepalive probes an idle connection after this long (the system's default is two hours): a quiet connection
 * keeps its NAT or firewall entry, and one whose peer is gone is found.
 */
const KEEPALIVE_DELAY_MS = 5000;

/**
 * The LISTEN connection is asked for an answer this often, and has this long to give it: one that went silent (a
 * NAT or firewall entry dropped, which closes nothing) is found within seconds and replaced.
 */
const HEARTBEAT_INTERVAL_MS = 1000;
const ANSWER_TIMEOUT_MS = 2000;

/**
 * `work`, or an error once `ms` have passed. The verdict waits for the input already received: a process busy for
 * longer than that (a long render) has not read an answer that came in time.
 */
function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        setImmediate(() =>
          // ETIMEDOUT, as the system says of a connection that stopped answering: the database is out of reach.
          reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: "ETIMEDOUT" })),
        ),
      ms,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

/** Closes a client at once: end() alone waits for the server's side, which a silent connection never sends. */
async function dropClient(client: pg.Client) {
  const ended = client.end().catch(() => {});
  client.connection.stream.destroy();
  await ended;
}

/**
 * A pooled connection cannot LISTEN (it goes back to the pool): a client of its own. One loop owns it: it waits
 * for the connection to be lost (an error, its end, or no answer to a heartbeat), closes it, and reconnects with
 * backoff, one attempt at a time, so there is never more than one LISTEN connection (each loss once scheduled two
 * retries, which doubled). Resolves after the first attempt: if that failed (the database is away while the
 * process starts), it starts lost and keeps trying, as after a loss.
 */
async function listenPostgres(
  url: string,
  channel: string,
  { onMessage, onError, onReconnect }: ListenHandlers,
  /** Told when an attempt to connect failed, or the connection was lost (it stopped answering, say). */
  onConnectFailure: (error: Error) => void = () => {},
): Promise<Listening> {
  checkChannel(channel);
  let stopped = false;
  let current: Connection | undefined;
  /** The client of an attempt under way: closed at once on stop. */
  let connecting: pg.Client | undefined;
  /** Cuts the wait before the next attempt short (on stop). */
  let wake: (() => void) | undefined;

  type Connection = {
    client: pg.Client;
    /** Resolves with the error the connection is lost with. */
    lost: Promise<Error>;
    /** One round trip, within ANSWER_TIMEOUT_MS; a connection that misses it is lost. */
    ask(): Promise<void>;
  };

  /** A connected, listening client; a failed attempt is closed. */
  const connect = async (): Promise<Connection> => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    });
    let lose!: (error: Error) => void;
    const lost = new Promise<Error>((resolve) => (lose = resolve));
    // Stays attached: an error event without a listener would end the process.
    client.on("error", lose);
    client.on("end", () => lose(new Error("the LISTEN connection ended")));
    client.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    // LISTEN again, a no-op, rather than another query: the connection still shows as what it is in
    // pg_stat_activity. Pending notifications arrive before its answer.
    const ask = async () => {
      try {
        await within(ANSWER_TIMEOUT_MS, client.query(`listen ${channel}`), "the LISTEN connection");
      } catch (error) {
        lose(error as Error);
        throw error;
      }
    };
    connecting = client;
    try {
      await client.connect();
      await ask();
    } catch (error) {
      await dropClient(client);
      if (!stopped) onConnectFailure(error as Error);
      throw error;
    } finally {
      connecting = undefined;
    }
    let heartbeat: NodeJS.Timeout | undefined;
    const beat = () => {
      heartbeat = setTimeout(() => void ask().then(beat, () => {}), HEARTBEAT_INTERVAL_MS);
      heartbeat.unref();
    };
    beat();
    void lost.then(() => clearTimeout(heartbeat));
    return { client, lost, ask };
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = async (first: Connection | undefined) => {
    let connection = first;
    while (!stopped) {
      if (connection) {
        current = connection;
        const error = await connection.lost;
        current = undefined;
        await dropClient(connection.client);
        if (stopped) return;
        onConnectFailure(error);
        onError?.(error);
      }
      connection = undefined;
      for (let attempt = 0; !connection; attempt++) {
        await sleep(reconnectDelay(attempt));
        if (stopped) return;
        try {
          connection = await connect();
        } catch (failure) {
          // Reported on the first failures only: an outage of minutes would otherwise fill the log.
          if (attempt < 3 && !stopped) onError?.(failure as Error);
        }
      }
      if (stopped) {
        await dropClient(connection.client);
        return;
      }
      onReconnect?.();
    }
  };

  let first: Connection | undefined;
  try {
    first = await connect();
  } catch (error) {
    onError?.(error as Error);
  }
  const loop = run(first);
  return {
    async stop() {
      stopped = true;
      wake?.();
      if (connecting) await dropClient(connecting);
      if (current) await dropClient(current.client);
      await loop;
    },
    async sync() {
      if (!current) throw new Error("the LISTEN connection is lost");
      await current.ask();
    },
  };
}

/**
 * PGlite has no lock of its own: a second process on the same files would corrupt them. DATA_DIR/pglite.lock holds
 * the owner's process id, as PostgreSQL's postmaster.pid does: a lock whose process is gone (kill -9, a power cut)
 * is taken over at once, one held by a live process refuses this one.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(dataDir, "pglite.lock");
  const refused = (pid: number) =>
    new DatabaseLockedError(
      `The database in ${dataDir} is in use by another process (process ${pid}, lock file ${lockPath}). ` +
        "Stop the other server first, or give this one its own DATA_DIR.",
    );
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, `${process.pid}\n${processStartTime(process.pid) ?? ""}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 3) throw error;
    }
    const owner = readLockOwner(lockPath);
    if (owner && ownerAlive(owner)) throw refused(owner.pid);
    // The owner is gone: move its lock aside (atomically) and try again. If what was moved turns out to be the fresh
    // lock of a process that took it over just before, it is put back and this process is refused.
    const stale = `${lockPath}.stale-${process.pid}`;
    try {
      renameSync(lockPath, stale);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      continue;
    }
    const moved = readLockOwner(stale);
    if (moved && moved.legacyMtimeMs === undefined && ownerAlive(moved)) {
      try {
        linkSync(stale, lockPath);
      } catch {
        // Another process holds a lock there already: it is the owner now.
      }
      rmSync(stale, { force: true });
      throw refused(moved.pid);
    }
    rmSync(stale, { recursive: true, force: true });
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    const owner = readLockOwner(lockPath);
    if (owner?.pid === process.pid) rmSync(lockPath, { force: true });
  };
}

type LockOwner = { pid: number; startTime?: string; legacyMtimeMs?: number };

function readLockOwner(lockPath: string): LockOwner | undefined {
  try {
    const stats = statSync(lockPath);
    // The lock directory of an earlier version (proper-lockfile): held while it is refreshed (every 5 s).
    if (stats.isDirectory()) return { pid: 0, legacyMtimeMs: stats.mtimeMs };
    const [pid, startTime] = readFileSync(lockPath, "utf8").split("\n");
    return { pid: Number(pid), startTime: startTime || undefined };
  } catch {
    return undefined;
  }
}

/** Is the lock's owner a live process other than this one (whose id it may have been given again after a crash)? */
function ownerAlive({ pid, startTime, legacyMtimeMs }: LockOwner): boolean {
  if (legacyMtimeMs !== undefined) return Date.now() - legacyMtimeMs < 15_000;
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: a process of another user has this id; it is alive.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // The id may have been given to another process since: on Linux its start time tells them apart.
  const now = processStartTime(pid);
  return !(startTime && now && now !== startTime);
}

/** A process's start time (clock ticks since boot, from /proc/<pid>/stat), where the system tells it. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
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
