/**
 * The server: checks the configuration, opens (and locks) the database, migrates it, fills an empty store with the
 * demo catalogue, serves the app and closes everything on SIGTERM/SIGINT. On PostgreSQL it runs WEB_CONCURRENCY
 * processes (server/cluster.ts): the first migrates and imports, then starts the others, which serve.
 */
import cluster from "node:cluster";
import type { Server } from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { repairedModesNotice, secureDataDir } from "../platform/data-dir.server";
import { ConfigError } from "../platform/config-error";
import { type Env, loadEnv } from "~/lib/env.server";
import { keyCipher } from "~/lib/key-cipher.server";
import { createLogger, flushLogs, type Logger } from "~/lib/logger.server";
import { createMailer, type Mailer } from "~/modules/email/outbox.server";
import { attachmentContent } from "~/modules/orders/invoices.server";
import { startLimitCleanup } from "~/lib/rate-limit.server";
import { startDailyJobs } from "~/modules/orders/owner-notifications.server";
import { startOrderExpiry } from "~/modules/orders/unpaid-orders.server";
import { startRenewalReminders } from "~/modules/orders/renewals.server";
import { startSavedCartReminders } from "~/modules/orders/saved-carts.server";
import { startStockAlerts } from "~/modules/orders/stock-alerts.server";
import type { StorageAuth } from "~/modules/storage/access.server";
import { getViewer } from "~/modules/accounts/session.server";
import { storageFromEnv } from "~/modules/storage/storage.server";
import { type Auth, createAuth } from "~/modules/accounts/auth.server";
import { mayUse } from "~/modules/accounts/staff-roles";
import { startUserEvents, type UserEvents } from "~/modules/accounts/user-events.server";
import { type ContentVersion, startContentVersion } from "~/modules/content/content-version.server";
import { type Database, DatabaseLockedError, openDatabase } from "~db/client.server";
import { webInfo } from "~db/schema";
import { projectRoot } from "~db/paths.server";
import { importSeed, isCatalogueEmpty, readDemoSeed } from "~/modules/seed/import.server";
import { createApp } from "./app";
import { processCount, runPrimary } from "./cluster";
import { closeWithin, createHttpServer } from "./http-server";
import { createPageCache } from "./page-cache";
import { inlineStylesheetOf } from "./page-compression";
import { olderNodeNotice } from "./runtime";
import { keepTickShape } from "./tick-shape";

async function main() {
  // Before the start's garbage collections, which would leave every later process.nextTick on a slow path.
  keepTickShape();
  const env = loadEnv();
  // A cluster's processes share one output: each line of a worker says which one wrote it.
  const logger = cluster.isWorker
    ? createLogger(env.LOG_LEVEL).child({ pid: process.pid })
    : createLogger(env.LOG_LEVEL);
  const repaired = secureDataDir(env.DATA_DIR);
  if (repaired.length > 0) logger.warn({ repaired }, repairedModesNotice(env.DATA_DIR, repaired));
  if (cluster.isPrimary) {
    const olderNode = olderNodeNotice(process.versions.node);
    if (olderNode) logger.warn(olderNode);
    const { count, notice } = processCount(env);
    if (notice) logger.info(notice);
    if (count > 1) {
      await runPrimary({ env, logger, count, prepare: () => prepareDatabase(env, logger) });
      return;
    }
  }
  await serve(env, logger);
}

/** Migrates the database and fills an empty one with the demo store (the cluster's primary, before forking). */
async function prepareDatabase(env: Env, logger: Logger) {
  const database = await openDatabase({ url: env.DATABASE_URL! });
  try {
    await database.migrate();
    await importDemoIfEmpty(database.db, env, logger);
  } finally {
    await database.close();
  }
}

async function importDemoIfEmpty(db: Database, env: Env, logger: Logger) {
  if (!(await isCatalogueEmpty(db))) return;
  const report = await importSeed(db, readDemoSeed(), "the demo data", {
    cipher: keyCipher(env.ENCRYPTION_KEY),
  });
  logger.info(report, "empty database: imported the demo store");
}

/** One serving process: the only one, or a worker of the cluster (whose primary has migrated already). */
async function serve(env: Env, logger: Logger) {
  const worker = cluster.isWorker;
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  const running: {
    server?: Server;
    vite?: ViteDevServer;
    mailer?: Mailer;
    userEvents?: UserEvents;
    contentVersion?: ContentVersion;
    dailyJobs?: { stop(): void };
    orderExpiry?: { stop(): void };
    renewalReminders?: { stop(): void };
    stockAlerts?: { stop(): void };
    savedCartReminders?: { stop(): void };
    limitCleanup?: { stop(): void };
    auth?: Auth;
  } = {};
  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const deadlineMs = env.SHUTDOWN_TIMEOUT_SECONDS * 1000;
    logger.info({ signal, deadlineSeconds: env.SHUTDOWN_TIMEOUT_SECONDS }, "shutting down");
    // Whatever hangs (a mail server, the database), the process ends: a little after the deadline at the latest.
    setTimeout(() => {
      logger.error("the shutdown did not finish in time: exiting without waiting further");
      void flushLogs(logger).then(() => process.exit(exitCode || 1));
    }, deadlineMs + 5000).unref();
    const closed = running.server ? closeWithin(running.server, deadlineMs) : Promise.resolve({ cut: 0 });
    // Open event streams end, so the server can close.
    await running.userEvents?.close();
    await running.contentVersion?.close();
    const { cut } = await closed;
    if (cut > 0) logger.warn({ cut }, "closed connections still open at the shutdown deadline");
    running.dailyJobs?.stop();
    running.orderExpiry?.stop();
    running.renewalReminders?.stop();
    running.stockAlerts?.stop();
    running.savedCartReminders?.stop();
    running.limitCleanup?.stop();
    // Reset e-mails asked for just before: queued before the database closes.
    await running.auth?.afterAnswer.settled();
    await running.vite?.close();
    await running.mailer?.stop();
    await database.close();
    await flushLogs(logger);
    process.exit(exitCode);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // A process whose supervisor is gone (a worker's primary, or npm start's launcher, killed outright) stops too,
  // rather than serve on unsupervised, holding the port and the database. Node's cluster module would end a worker
  // at once (process.exit, before any handler of ours, so its last lines were never written): marking the
  // disconnect as expected lets the worker stop as on SIGTERM, saying why, on the output it shares with the primary.
  if (cluster.worker) {
    const self = cluster.worker;
    self.on("disconnect", () => {
      self.exitedAfterDisconnect = true;
      void stop("the primary process ended");
    });
  } else if (process.channel) {
    process.on("disconnect", () => void stop("the launcher ended"));
  }

  if (!worker) {
    await database.migrate();
    await importDemoIfEmpty(database.db, env, logger);
  }

  const cipher = keyCipher(env.ENCRYPTION_KEY);
  const mailer = createMailer({
    db: database.db,
    logger,
    from: env.MAIL_FROM,
    smtpUrl: env.SMTP_URL,
    attachments: (attachment) => attachmentContent(database.db, attachment),
  });
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
  running.auth = auth;
  // Storage rules see the signed-in user of the accounts' session: admins write anywhere, customers in their folder.
  const storageAuth: StorageAuth = async (request) => {
    const viewer = await getViewer(request, { auth });
    // An admin still on admin:create's temporary password has no admin rights until choosing a new one.
    // Staff whose role edits the files (ADR 0037) write anywhere too; other staff are customers here.
    const admin = mayUse(viewer?.role, "/admin/files") && !viewer?.mustChangePassword;
    return viewer ? { id: viewer.id, role: admin ? "admin" : "customer" } : null;
  };
  const userEvents = await startUserEvents(database, logger);
  running.userEvents = userEvents;
  const contentVersion = await startContentVersion(database, logger);
  running.contentVersion = contentVersion;
  // The owner's daily digest: every process tries, the database lets one run it a day.
  running.dailyJobs = startDailyJobs({ db: database.db, env, logger, mailer });
  // Unpaid orders past the settings' hours give back their stock and codes: every process looks now and then.
  // Attempt counts whose window has ended go, so the table holds only what limits someone now.
  running.limitCleanup = startLimitCleanup(database.db, logger);
  running.orderExpiry = startOrderExpiry(
    { db: database.db, env, logger, mailer, cipher },
    env.ORDER_EXPIRY_INTERVAL_SECONDS * 1000,
  );
  // Renewal reminders, once per key and day however many processes look (a unique row per reminder).
  running.renewalReminders = startRenewalReminders(
    { db: database.db, env, logger, mailer },
    env.RENEWAL_REMINDER_INTERVAL_SECONDS * 1000,
  );
  // Back-in-stock alerts: whatever brought a product back, the look sees it; one e-mail per request.
  running.stockAlerts = startStockAlerts(
    { db: database.db, env, logger, mailer },
    env.STOCK_ALERT_INTERVAL_SECONDS * 1000,
  );
  // Saved-cart reminders, once per cart (its fingerprint recorded as reminded) however many processes look.
  running.savedCartReminders = startSavedCartReminders(
    { db: database.db, env, logger, mailer },
    env.SAVED_CART_REMINDER_INTERVAL_SECONDS * 1000,
  );
  // build/server/index.js, bundled into main.js with everything it imports (scripts/build-server.mjs).
  const build: ServerBuild | undefined =
    env.NODE_ENV === "development" ? undefined : await import("#react-router-build");
  const pageCache = createPageCache({
    // In development the code changes under the pages: nothing is kept.
    enabled: env.PAGE_CACHE === "on" && env.NODE_ENV !== "development",
    inlineStylesheet: build && inlineStylesheetOf(build),
    maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024,
    contentVersion,
    env,
    logger,
  });
  const services = {
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
    pageCache,
  };
  const root = projectRoot();
  let app;
  if (build) {
    app = createApp({ ...services, build, clientDir: path.join(root, "build/client") });
  } else {
    const vite = await import("vite");
    const dev = await vite.createServer({ root, server: { middlewareMode: true } });
    running.vite = dev;
    app = createApp({
      ...services,
      viteMiddlewares: dev.middlewares,
      build: () => dev.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    });
  }

  const server = createHttpServer(pageCache.serve(app), env);
  server.listen(env.PORT, env.HOST, () => {
    // The cluster's primary says it once for all its workers.
    if (worker) return;
    console.log(
      `Storefront ready at ${env.PUBLIC_URL} (database: ${database.kind === "pglite" ? `embedded, in ${env.DATA_DIR}` : "PostgreSQL"}, Node ${process.versions.node})`,
    );
  });
  running.server = server;
  server.on("error", (error) => {
    console.error(`Could not listen on port ${env.PORT}: ${error.message}`);
    void stop("listen error", 1);
  });
}

/** What is wrong with DATA_DIR's disk, and what to do, when starting failed on it; undefined for other failures. */
function diskProblem(error: unknown): string | undefined {
  const { code, path: where } = (error ?? {}) as NodeJS.ErrnoException;
  const dataDir = process.env.DATA_DIR ?? "./data";
  const at = where ? `${where} (under DATA_DIR=${dataDir})` : `DATA_DIR (${dataDir})`;
  if (code === "EROFS")
    return `Cannot start: ${at} is on a read-only file system, and the store must write its database and files there. Mount it read-write, or set DATA_DIR to a writable directory.`;
  if (code === "ENOSPC" || code === "EDQUOT")
    return `Cannot start: the disk of ${at} is full. Free some space there (or set DATA_DIR to a directory on another disk), then start again.`;
  if (code === "EACCES" || code === "EPERM")
    return `Cannot start: this user may not write to ${at}. Give the user running the store ownership of DATA_DIR, or set DATA_DIR to a directory it owns.`;
  return undefined;
}

async function readStoreName(db: Database): Promise<string | undefined> {
  const [info] = await db.select({ name: webInfo.name }).from(webInfo).limit(1);
  return info?.name;
}

main().catch((error: unknown) => {
  const disk = diskProblem(error);
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else if (disk) {
    console.error(disk);
  } else {
    console.error(error);
  }
  process.exit(1);
});
