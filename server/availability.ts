import type { Request, RequestHandler, Response } from "express";
import { DATABASE_BUSY_CODE, type DatabaseHandle } from "~db/client.server";
import type { Logger } from "~/lib/logger.server";
import { pathOf } from "./request-path";

/** Error codes of a database that cannot be reached (as opposed to a query that failed). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/** Error codes of a database that answers but cannot take more now: the request may be tried again in seconds. */
const BUSY_CODES = new Set([
  "57014", // query_canceled: statement_timeout
  "55P03", // lock_not_available: lock_timeout
  DATABASE_BUSY_CODE, // too many requests wait for a connection already
]);

const DISK_FULL_CODES = new Set(["53100", "ENOSPC"]); // disk_full, and the file system's own

/**
 * What a failed database call means for the request: the database cannot be reached (the store answers 503 until
 * it can), it is too busy to answer in time (503, try again; nothing is marked down: the next request may well get
 * through), or its disk is full (507). Undefined for any other failure (a bug: 500). The one place these are told
 * apart, for errors from React Router's loaders and actions and from Express alike.
 */
export type DatabaseFailure = "unreachable" | "busy" | "disk-full";

export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") {
      if (CONNECTION_CODES.has(code) || code.startsWith("08")) return "unreachable";
      if (BUSY_CODES.has(code)) return "busy";
      if (DISK_FULL_CODES.has(code)) return "disk-full";
    }
    const message = cause instanceof Error ? cause.message : "";
    if (/Connection terminated|Client has encountered a connection error|connection timeout/i.test(message))
      return "unreachable";
    // pg-pool's words for a wait for a free connection that ran out (the pool's connections are all taken, by
    // requests that are slow to finish), and pg's for a query whose connection did not answer within the deadline:
    // one connection, not the database (a database that is away is found by the next connection's attempt).
    if (/timeout exceeded when trying to connect|Query read timeout/i.test(message)) return "busy";
    if (/No space left on device|could not extend file/i.test(message)) return "disk-full";
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Is this (or its cause) a failure to reach the database? */
export const isDatabaseUnreachable = (error: unknown) => databaseFailureOf(error) === "unreachable";

export type DatabaseAvailability = {
  /** False from the moment the database is found unreachable until a probe reaches it again. */
  available(): boolean;
  /** Told by whoever sees the database unreachable (a request's error, the pool): probing starts at once. */
  report(error: unknown): void;
  stop(): void;
};

/**
 * Knows whether PostgreSQL can be reached, so that requests meanwhile get a quick, clear 503 instead of failing one by
 * one after a connection timeout. While the database is away it is probed every `probeMs` (one probe at a time);
 * the first probe that answers makes the store available again. PGlite is in the process: always available.
 */
export function watchDatabase(
  database: Pick<DatabaseHandle, "kind" | "ping" | "pool">,
  logger: Logger,
  { probeMs = 500 }: { probeMs?: number } = {},
): DatabaseAvailability {
  if (database.kind !== "postgres") return { available: () => true, report() {}, stop() {} };
  let up = true;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const probe = async () => {
    timer = undefined;
    if (stopped) return;
    if (await database.ping()) {
      up = true;
      logger.info("the database can be reached again");
      return;
    }
    if (!stopped) timer = setTimeout(() => void probe(), probeMs).unref();
  };
  const markDown = () => {
    if (stopped || !up) return;
    up = false;
    logger.error("the database cannot be reached: answering 503 until it is back");
    timer = setTimeout(() => void probe(), probeMs).unref();
  };
  const onPoolError = (error: unknown) => {
    if (isDatabaseUnreachable(error)) markDown();
  };
  database.pool?.on("error", onPoolError);
  return {
    available: () => up,
    report(error) {
      if (isDatabaseUnreachable(error)) markDown();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      database.pool?.off("error", onPoolError);
    },
  };
}

export const UNAVAILABLE_MESSAGE =
  "The store cannot reach its database at the moment. Nothing was changed; please try again in a minute.";
export const BUSY_MESSAGE =
  "The store is very busy at the moment. Nothing was changed; please try again in a few seconds.";
export const DISK_FULL_MESSAGE =
  "The store's disk is full, so what you sent could not be saved. Nothing was charged or changed; please try again later.";

const ANSWERS: Record<
  DatabaseFailure,
  { status: number; retryAfterSeconds?: number; title: string; message: string; storageCode: string }
> = {
  unreachable: {
    status: 503,
    retryAfterSeconds: 5,
    title: "Back in a moment",
    message: UNAVAILABLE_MESSAGE,
    storageCode: "storage/unknown",
  },
  busy: {
    status: 503,
    retryAfterSeconds: 2,
    title: "Very busy",
    message: BUSY_MESSAGE,
    storageCode: "storage/unknown",
  },
  // No Retry-After: only an operator freeing space helps.
  "disk-full": {
    status: 507,
    title: "Could not be saved",
    message: DISK_FULL_MESSAGE,
    storageCode: "storage/quota-exceeded",
  },
};

/**
 * The answer to a request the database failed: JSON for the APIs (file storage in its own shape), the bare message
 * for React Router's data requests (its error boundary shows it), a short page for a browser.
 */
export function sendDatabaseFailure(req: Request, res: Response, failure: DatabaseFailure) {
  const { status, retryAfterSeconds, title, message, storageCode } = ANSWERS[failure];
  res.status(status).set("Cache-Control", "no-store");
  if (retryAfterSeconds) res.set("Retry-After", String(retryAfterSeconds));
  const path = pathOf(req);
  if (path.startsWith("/api/storage/")) {
    res.json({ error: { code: storageCode, message } });
  } else if (path.startsWith("/api/")) {
    res.json({ error: message });
  } else if (req.path.endsWith(".data")) {
    res.type("text/plain").send(message);
  } else if (!req.accepts("html")) {
    res.json({ error: message });
  } else {
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2937}</style></head>` +
          `<body><main><h1>${title}</h1><p>${message}</p><p><a href="">Try again</a></p></main></body></html>`,
      );
  }
}

/** The 503 answer while the database is away. */
export const sendUnavailable = (req: Request, res: Response) => sendDatabaseFailure(req, res, "unreachable");

/** The 503 answer when more requests wait for their turn than the store takes (server/turns.ts). */
export const sendBusy = (req: Request, res: Response) => sendDatabaseFailure(req, res, "busy");

/** Answers 503 at once while the database is known to be away. */
export function refuseWhileUnavailable(availability: DatabaseAvailability): RequestHandler {
  return (req, res, next) => (availability.available() ? next() : sendUnavailable(req, res));
}
