/**
 * The one server process: checks the configuration, opens (and locks) the database, migrates it,
 * fills an empty store with the demo catalogue, serves the app and closes everything on SIGTERM/SIGINT.
 */
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { ConfigError, loadEnv } from "~/lib/env.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { createLogger } from "~/lib/logger.server";
import { createMailer, type Mailer } from "~/modules/email/outbox.server";
import { anonymousStorageAuth } from "~/modules/storage/access.server";
import { storageFromEnv } from "~/modules/storage/storage.server";
import { DatabaseLockedError, openDatabase } from "~db/client.server";
import { projectRoot } from "~db/paths.server";
import { importSeed, isCatalogueEmpty, readDemoSeed } from "~db/seed/import.server";
import { createApp } from "./app";

async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  const running: { server?: Server; vite?: ViteDevServer; mailer?: Mailer } = {};
  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    await new Promise<void>((resolve) =>
      running.server ? running.server.close(() => resolve()) : resolve(),
    );
    await running.vite?.close();
    await running.mailer?.stop();
    await database.close();
    process.exit(exitCode);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  await database.migrate();
  if (await isCatalogueEmpty(database.db)) {
    const report = await importSeed(database.db, readDemoSeed(), "the demo data", {
      cipher: keyCipher(env.ENCRYPTION_KEY),
    });
    logger.info(report, "empty database: imported the demo store");
  }

  const cipher = keyCipher(env.ENCRYPTION_KEY);
  const mailer = createMailer({ db: database.db, logger, from: env.MAIL_FROM, smtpUrl: env.SMTP_URL });
  running.mailer = mailer;
  mailer.start();
  const storage = storageFromEnv(env, database.db, logger);
  const removed = await storage.cleanStaging();
  if (removed > 0) logger.info({ removed }, "removed uploads left unfinished by an earlier run");
  // No accounts yet: nobody is signed in, so only public files and token downloads work. The accounts' session
  // replaces this resolver (see docs/decisions/0005-file-storage.md).
  const storageAuth = anonymousStorageAuth;
  const root = projectRoot();
  let app;
  if (env.NODE_ENV === "development") {
    const vite = await import("vite");
    const dev = await vite.createServer({ root, server: { middlewareMode: true } });
    running.vite = dev;
    app = createApp({
      env,
      database,
      logger,
      mailer,
      cipher,
      storage,
      storageAuth,
      viteMiddlewares: dev.middlewares,
      build: () => dev.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    });
  } else {
    const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
    app = createApp({
      env,
      database,
      logger,
      mailer,
      cipher,
      storage,
      storageAuth,
      build,
      clientDir: path.join(root, "build/client"),
    });
  }

  const server = app.listen(env.PORT, env.HOST, () => {
    console.log(
      `Storefront ready at ${env.PUBLIC_URL} (database: ${database.kind === "pglite" ? `embedded, in ${env.DATA_DIR}` : "PostgreSQL"})`,
    );
  });
  running.server = server;
  server.on("error", (error) => {
    console.error(`Could not listen on port ${env.PORT}: ${error.message}`);
    void stop("listen error", 1);
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
