import { randomBytes } from "node:crypto";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type RequestHandler } from "express";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import type { ServerContext } from "~/context";
import type { DatabaseHandle } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/modules/email/outbox.server";
import type { StorageAuth } from "~/modules/storage/access.server";
import { storageRoutes } from "~/modules/storage/http.server";
import type { StorageService } from "~/modules/storage/storage.server";

export type AppOptions = {
  env: Env;
  mailer: Mailer;
  cipher: KeyCipher;
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
};

export function createApp({
  env,
  database,
  logger,
  mailer,
  cipher,
  storage,
  storageAuth,
  build,
  viteMiddlewares,
  clientDir,
}: AppOptions) {
  const app = express();
  const production = env.NODE_ENV === "production";
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { method: req.method, url: req.originalUrl, status: res.statusCode, ms: Math.round(ms) },
        "request",
      );
    });
    next();
  });

  app.get("/healthz", async (_req, res) => {
    const ok = await database.ping();
    res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "error", database: { driver: database.kind, ok } });
  });

  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
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
  app.use(compression());

  app.use(
    "/api/storage",
    storageRoutes({ storage, auth: storageAuth, context: { db: database.db, env, logger } }),
  );

  if (viteMiddlewares) {
    app.use(viteMiddlewares);
  } else {
    const dir = clientDir ?? path.resolve("build/client");
    // Hashed file names never change: cache them for a year.
    app.use(
      "/assets",
      express.static(path.join(dir, "assets"), { immutable: true, maxAge: "1y", index: false }),
    );
    app.use(express.static(dir, { maxAge: "1h", index: false }));
  }

  app.all(
    "/{*splat}",
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
      }),
    }),
  );

  return app;
}
