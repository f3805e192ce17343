import type { Request, RequestHandler, Response } from "express";
import type { DatabaseHandle } from "~db/client.server";
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

/** Is this (or its cause) a failure to reach the database? */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) return true;
    const message = cause instanceof Error ? cause.message : "";
    if (
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection timeout/i.test(
        message,
      )
    )
      return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

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

/** The 503 answer while the database is away: JSON for the APIs, a short page for a browser. */
export function sendUnavailable(req: Request, res: Response) {
  res.status(503).set("Retry-After", "5").set("Cache-Control", "no-store");
  const path = pathOf(req);
  if (path.startsWith("/api/storage/")) {
    res.json({ error: { code: "storage/unknown", message: UNAVAILABLE_MESSAGE } });
  } else if (path.startsWith("/api/") || !req.accepts("html")) {
    res.json({ error: UNAVAILABLE_MESSAGE });
  } else {
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<title>Back in a moment</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2937}</style></head>` +
          `<body><main><h1>Back in a moment</h1><p>${UNAVAILABLE_MESSAGE}</p><p><a href="">Try again</a></p></main></body></html>`,
      );
  }
}

/** Answers 503 at once while the database is known to be away. */
export function refuseWhileUnavailable(availability: DatabaseAvailability): RequestHandler {
  return (req, res, next) => (availability.available() ? next() : sendUnavailable(req, res));
}
