import { holdWorkUntilAnswered } from "~/lib/after-answer.server";
import { randomFillSync } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import type { ServerContext } from "~/context";
import type { DatabaseHandle } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { type Logger, requestLogger, safeUrl } from "~/lib/logger.server";
import type { Mailer } from "~/modules/email/outbox.server";
import type { StorageAuth } from "~/modules/storage/access.server";
import { storageRoutes } from "~/modules/storage/http.server";
import type { StorageService } from "~/modules/storage/storage.server";
import { AUTH_BASE_PATH, type Auth, CLIENT_IP_HEADER } from "~/modules/accounts/auth.server";
import type { UserEvents } from "~/modules/accounts/user-events.server";
import type { ContentVersion } from "~/modules/content/content-version.server";
import { toNodeHandler } from "better-auth/node";
import {
  type DatabaseFailure,
  databaseFailureOf,
  refuseWhileUnavailable,
  sendBusy,
  sendDatabaseFailure,
  UNAVAILABLE_MESSAGE,
  watchDatabase,
} from "./availability";
import { bodyLimits, limitRequestBodies } from "./body-limit";
import { builtAssets } from "./built-assets";
import { liveness, readiness } from "./health";
import type { PageCache } from "./page-cache";
import { chooseCurrency } from "./currency-choice";
import { refuseOtherMethods } from "./methods";
import { refuse } from "./refusal";
import { pathOf } from "./request-path";
import { refuseUnreadablePaths } from "./unreadable-paths";
import { checkAddress, crossSiteReason, isUnsafeMethod, ownOriginOf } from "./same-origin";
import { takeTurns } from "./turns";
import { RENDERED_BROTLI_QUALITY, RENDERED_GZIP_LEVEL } from "./compression-levels";

export type AppOptions = {
  env: Env;
  mailer: Mailer;
  cipher: KeyCipher;
  auth: Auth;
  userEvents: UserEvents;
  contentVersion: ContentVersion;
  database: DatabaseHandle;
  logger: Logger;
  /** Stored files, served under /api/storage. */
  storage: StorageService;
  /** Resolves the caller of a storage request to an identity (or null). */
  storageAuth: StorageAuth;
  /** The built app, or (in development) a function that loads it through Vite. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Development only: Vite's middlewares, which serve the client code with hot reload. */
  viteMiddlewares?: RequestHandler;
  clientDir?: string;
  /** The full-page cache (server/page-cache.ts), when the app is served through it. */
  pageCache?: Pick<PageCache, "capture" | "stats">;
};

export function createApp({
  env,
  database,
  logger,
  mailer,
  cipher,
  storage,
  storageAuth,
  auth,
  userEvents,
  contentVersion,
  build,
  viteMiddlewares,
  clientDir,
  pageCache,
}: AppOptions) {
  const app = express();
  const production = env.NODE_ENV === "production";
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");

  const requestLines = requestLogger(logger);
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      requestLines.info(
        { method: req.method, url: safeUrl(req.originalUrl), status: res.statusCode, ms: Math.round(ms) },
        "request",
      );
    });
    next();
  });

  app.use(holdWorkUntilAnswered);

  // The client's address as Express sees it (X-Forwarded-For only from a proxy on this machine), for rate limits.
  // Whatever the client sent in this header is replaced.
  app.use((req, _res, next) => {
    if (req.ip) req.headers[CLIENT_IP_HEADER] = req.ip;
    else delete req.headers[CLIENT_IP_HEADER];
    next();
  });

  app.use(refuseUnreadablePaths());
  app.use(checkAddress(env));
  app.use(refuseOtherMethods());
  app.use(limitRequestBodies(bodyLimits(env)));

  // Nothing that changes anything is taken from another site (the Stripe webhook is server to server, signed):
  // our forms and APIs, and better-auth's and the file storage's on top of their own checks.
  app.use((req, res, next) => {
    if (!isUnsafeMethod(req.method) || pathOf(req) === "/api/stripe/webhook") return next();
    const ownOrigin = ownOriginOf(env, req);
    const reason = crossSiteReason(
      { origin: req.get("origin"), "sec-fetch-site": req.get("sec-fetch-site") },
      ownOrigin,
    );
    if (!reason) return next();
    logger.warn({ method: req.method, url: safeUrl(req.originalUrl), reason }, "refused a cross-site post");
    refuse(
      req,
      res,
      403,
      `This request came from another site or address than the store's own (${ownOrigin}), so it was refused. ` +
        `Open the store at ${ownOrigin} and try again there.`,
    );
  });

  // `?currency=INR` keeps the shopper's currency in a cookie and sends them back to the page (server/currency-choice.ts).
  app.use(chooseCurrency());

  // Health checks for a load balancer or orchestrator (README): liveness is the process answering, readiness
  // whether the store can take an order now.
  // While PostgreSQL cannot be reached, every request is answered 503 at once (a page, or JSON for the APIs),
  // readiness included: only the availability probe tries the database meanwhile.
  const availability = watchDatabase(database, logger);
  app.get("/healthz/live", liveness);
  app.get(
    "/healthz",
    readiness({
      database,
      dataDir: env.DATA_DIR,
      storageDir: path.join(env.DATA_DIR, "storage"),
      minFreeMb: env.HEALTH_MIN_FREE_MB ?? 100,
      // Both LISTEN connections: a silent content-change connection would leave pages unseen by other processes.
      listening: () => userEvents.listening() && contentVersion.live(),
      reachable: () => availability.available(),
      pageCache: pageCache?.stats,
    }),
  );
  app.use(refuseWhileUnavailable(availability));
  app.use(jsonErrorsForApis());

  app.use((_req, res, next) => {
    res.locals.cspNonce = newNonce();
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: production
        ? {
            directives: {
              "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
              "style-src": ["'self'", "'unsafe-inline'"],
              "img-src": ["'self'", "data:", "blob:", "https:"],
              "connect-src": ["'self'"],
              "form-action": ["'self'", "https:"],
              "upgrade-insecure-requests": null,
            },
          }
        : false,
      // Assets are served from our own origin; the defaults are fine otherwise.
      crossOriginEmbedderPolicy: false,
      // Not helmet's no-referrer: under it a browser posts a plain HTML form (no JavaScript yet) with "Origin: null",
      // which React Router's CSRF check refuses with a bare 400. same-origin still sends no referrer to other sites.
      referrerPolicy: { policy: "same-origin" },
      strictTransportSecurity: env.PUBLIC_URL.startsWith("https://"),
    }),
  );
  app.use(
    compression({
      level: RENDERED_GZIP_LEVEL,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: RENDERED_BROTLI_QUALITY } },
    }),
  );

  app.use(
    "/api/storage",
    storageRoutes({ storage, auth: storageAuth, context: { db: database.db, env, logger } }),
  );

  if (viteMiddlewares) {
    app.use(viteMiddlewares);
  } else {
    const dir = clientDir ?? path.resolve("build/client");
    app.use("/assets", builtAssets(path.join(dir, "assets")));
    // The other public files (favicons): asked of the disk only for their own names, not for every page's path.
    const files = new Set(
      existsSync(dir)
        ? readdirSync(dir, { withFileTypes: true })
            .filter((entry) => entry.isFile())
            .map((entry) => `/${entry.name}`)
        : [],
    );
    const publicFiles = express.static(dir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (files.has(req.path) ? publicFiles(req, res, next) : next()));
  }

  // better-auth's own endpoints (sign-in, sign-up, sign-out, reset, verification links); it checks origins itself.
  // It builds the request's URL from the Host and X-Forwarded-Proto headers as sent: it gets the address Express
  // trusts instead (forwarded headers only from a proxy on this machine).
  const authHandler = toNodeHandler(auth);
  app.all(`${AUTH_BASE_PATH}/{*splat}`, (req, res) => {
    req.headers.host = req.host;
    req.headers["x-forwarded-proto"] = req.protocol;
    return authHandler(req, res);
  });

  // Public pages leave here the same for every visitor, and successful ones are kept (server/page-cache.ts).
  if (pageCache) app.use(pageCache.capture());
  app.all(
    "/{*splat}",
    takeTurns({ refuse: sendBusy, logger }),
    skipRequestsGivenUp(),
    headAsGet(),
    answerDatabaseFailures(),
    createRequestHandler({
      build,
      mode: env.NODE_ENV,
      getLoadContext: (_req, res): ServerContext => ({
        db: database.db,
        env,
        logger,
        cspNonce: res.locals.cspNonce as string,
        mailer,
        cipher,
        storage,
        storageAuth,
        auth,
        userEvents,
        contentVersion,
        // Told of every loader's and action's failure (handleError): the answer follows what the database said.
        availability: {
          report(error) {
            availability.report(error);
            res.locals.databaseFailure ??= databaseFailureOf(error);
          },
        },
      }),
    }),
  );

  // Whatever a handler failed with: logged for the operator, a short answer for the client (never a stack trace).
  app.use(((error, req, res, _next) => {
    const failure = databaseFailureOf(error);
    if (failure) {
      availability.report(error);
      logger.error({ err: error, method: req.method, url: safeUrl(req.originalUrl) }, `database ${failure}`);
      if (res.headersSent) req.socket.destroy();
      else sendDatabaseFailure(req, res, failure);
      return;
    }
    const status = clientErrorStatus(error);
    if (status === undefined)
      logger.error({ err: error, method: req.method, url: safeUrl(req.originalUrl) }, "request failed");
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    res
      .status(status ?? 500)
      .type("text/plain")
      .send(
        status
          ? "The request could not be read."
          : "Something went wrong on our side. Please try again in a moment.",
      );
  }) satisfies ErrorRequestHandler);

  return app;
}

const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(256 * NONCE_BYTES);
let nonceAt = noncePool.length;

/**
 * A CSP nonce: 16 random bytes in base64, taken from a pool the system's generator fills for 256 requests at a time
 * (a call of its own costs about 5 µs). No two requests share bytes.
 */
function newNonce(): string {
  if (nonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  nonceAt += NONCE_BYTES;
  return noncePool.toString("base64", nonceAt - NONCE_BYTES, nonceAt);
}

/**
 * A request whose client has gone meanwhile (it gave up waiting, on a busy store) is not run: nobody would see its
 * answer, and what it would write (an order) is something its sender believes failed.
 */
function skipRequestsGivenUp(): RequestHandler {
  return (req, _res, next) => {
    if (!req.socket.destroyed) next();
  };
}

/**
 * A HEAD is rendered as the GET it asks about, so that it gets the GET's headers and its page is kept; Node sends no
 * body for it. React Router would answer it with no body of its own, and so with `Content-Length: 0` where the page
 * cache (capture) sends the length of what it was given.
 */
function headAsGet(): RequestHandler {
  return (req, _res, next) => {
    if (req.method === "HEAD") req.method = "GET";
    next();
  };
}

/**
 * React Router answers a loader or action that threw with its error page, or a resource route with a bare 500. When
 * the database was the cause (handleError told the request's context: res.locals.databaseFailure), the answer says
 * so instead: busy, away or out of disk, with what to do.
 */
function answerDatabaseFailures(): RequestHandler {
  return (req, res, next) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    let replaced: boolean | undefined;
    const replace = () => {
      if (replaced === undefined) {
        const failure = res.locals.databaseFailure as DatabaseFailure | undefined;
        replaced = failure !== undefined && res.statusCode >= 500 && !res.headersSent;
        if (replaced) {
          res.write = write as typeof res.write;
          res.end = end as typeof res.end;
          for (const header of ["content-length", "content-type", "cache-control"]) res.removeHeader(header);
          res.statusMessage = "";
          sendDatabaseFailure(req, res, failure!);
          // What React Router still sends of its own answer goes nowhere.
          res.write = (() => true) as typeof res.write;
          res.end = (() => res) as typeof res.end;
        }
      }
      return replaced;
    };
    res.write = ((...args: unknown[]) => (replace() ? true : write(...args))) as typeof res.write;
    res.end = ((...args: unknown[]) => (replace() ? res : end(...args))) as typeof res.end;
    next();
  };
}

/**
 * JSON APIs answer JSON in every case: a 5xx in plain text or HTML from below (React Router's last-resort answer to
 * a resource route that threw, the error handler's text) is replaced by `{"error": message}`.
 */
function jsonErrorsForApis(): RequestHandler {
  return (req, res, next) => {
    const path = pathOf(req);
    if (!path.startsWith("/api/") || path.startsWith("/api/storage/") || path.startsWith(AUTH_BASE_PATH))
      return next();
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    let replace: boolean | undefined;
    const decide = () => {
      if (replace === undefined) {
        const type = String(res.getHeader("content-type") ?? "");
        replace =
          !res.headersSent &&
          res.statusCode >= 500 &&
          !type.includes("json") &&
          !type.includes("event-stream");
        if (replace) {
          res.removeHeader("content-length");
          res.removeHeader("content-encoding");
          res.setHeader("content-type", "application/json; charset=utf-8");
        }
      }
      return replace;
    };
    res.write = ((...args: unknown[]) => (decide() ? true : write(...args))) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      if (!decide()) return end(...args);
      const message =
        res.statusCode === 503
          ? UNAVAILABLE_MESSAGE
          : "Something went wrong on our side. Please try again in a moment.";
      return end(JSON.stringify({ error: message }));
    }) as typeof res.end;
    next();
  };
}

/** The 4xx status an error of a request's own making carries (a body that could not be parsed, say). */
function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
}
