/**
 * The one server process: checks the configuration, opens (and locks) the database, migrates it,
 * fills an empty store with the demo catalogue, serves the app and closes everything on SIGTERM/SIGINT.
 */
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { repairedModesNotice, secureDataDir } from "~/lib/data-dir.server";
import { ConfigError, loadEnv } from "~/lib/env.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { createLogger } from "~/lib/logger.server";
import { createMailer, type Mailer } from "~/modules/email/outbox.server";
import { startDailyJobs } from "~/modules/orders/owner-notifications.server";
import type { StorageAuth } from "~/modules/storage/access.server";
import { getViewer } from "~/modules/accounts/session.server";
import { storageFromEnv } from "~/modules/storage/storage.server";
import { createAuth } from "~/modules/accounts/auth.server";
import { startUserEvents, type UserEvents } from "~/modules/accounts/user-events.server";
import { type Database, DatabaseLockedError, openDatabase } from "~db/client.server";
import { webInfo } from "~db/schema";
import { projectRoot } from "~db/paths.server";
import { importSeed, isCatalogueEmpty, readDemoSeed } from "~db/seed/import.server";
import { createApp } from "./app";
import { createHttpServer } from "./http-server";

async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const repaired = secureDataDir(env.DATA_DIR);
  if (repaired.length > 0) logger.warn({ repaired }, repairedModesNotice(env.DATA_DIR, repaired));
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  const running: {
    server?: Server;
    vite?: ViteDevServer;
    mailer?: Mailer;
    userEvents?: UserEvents;
    dailyJobs?: { stop(): void };
  } = {};
  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const closed = new Promise<void>((resolve) =>
      running.server ? running.server.close(() => resolve()) : resolve(),
    );
    // Open event streams end, so the server can close.
    await running.userEvents?.close();
    running.server?.closeIdleConnections();
    await closed;
    running.dailyJobs?.stop();
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

  // Asked at each e-mail, not once at boot: a store renamed in the admin is named so in the next e-mail.
  const auth = createAuth({
    db: database.db,
    env,
    logger,
    mailer,
    storeName: () => readStoreName(database.db),
  });
  // Storage rules see the signed-in user of the accounts' session: admins write anywhere, customers in their folder.
  const storageAuth: StorageAuth = async (request) => {
    const viewer = await getViewer(request, { auth });
    return viewer ? { id: viewer.id, role: viewer.role === "admin" ? "admin" : "customer" } : null;
  };
  const userEvents = await startUserEvents(database, logger);
  running.userEvents = userEvents;
  // The owner's daily digest: every process tries, the database lets one run it a day.
  running.dailyJobs = startDailyJobs({ db: database.db, env, logger, mailer });
  const services = { env, database, logger, mailer, cipher, storage, storageAuth, auth, userEvents };
  const root = projectRoot();
  let app;
  if (env.NODE_ENV === "development") {
    const vite = await import("vite");
    const dev = await vite.createServer({ root, server: { middlewareMode: true } });
    running.vite = dev;
    app = createApp({
      ...services,
      viteMiddlewares: dev.middlewares,
      build: () => dev.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    });
  } else {
    const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
    app = createApp({ ...services, build, clientDir: path.join(root, "build/client") });
  }

  const server = createHttpServer(app, env);
  server.listen(env.PORT, env.HOST, () => {
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

async function readStoreName(db: Database): Promise<string | undefined> {
  const [info] = await db.select({ name: webInfo.name }).from(webInfo).limit(1);
  return info?.name;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
