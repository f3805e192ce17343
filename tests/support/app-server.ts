import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS, type Env } from "~/lib/env.server";
import { createAuth } from "~/modules/accounts/auth.server";
import { startUserEvents } from "~/modules/accounts/user-events.server";
import { startContentVersion } from "~/modules/content/content-version.server";
import { createMailer } from "~/modules/email/outbox.server";
import { anonymousStorageAuth } from "~/modules/storage/access.server";
import { defineBuckets } from "~/modules/storage/buckets.server";
import { LocalDiskDriver } from "~/modules/storage/drivers/local-disk.server";
import { createStorageService } from "~/modules/storage/storage.server";
import { createApp } from "../../server/app";
import { createHttpServer } from "../../server/http-server";
import { createTestDatabase, type Driver, type TestDatabase } from "./database";
import { recordingLogger } from "./logger";
import { testEnv } from "./orders";
import { testCipher } from "./seed";
import { testBuckets } from "./storage";

/**
 * The whole server (createApp in the HTTP server of server/index.ts) on an ephemeral port, with a fresh database,
 * better-auth, the storage routes and its own DATA_DIR. Without a page build (`build`: the production one,
 * build/server/index.js) a request that gets as far as React Router fails there (the error handler's 500), which
 * tells a test it was let through.
 */
export async function startAppServer(
  driver: Driver,
  overrides: Partial<Env> = {},
  { database: given, build }: { database?: TestDatabase; build?: ServerBuild } = {},
) {
  const database = given ?? (await createTestDatabase(driver));
  const dataDir = await mkdtemp(path.join(tmpdir(), "storefront-app-"));
  const { logger, lines } = recordingLogger();
  const root = path.join(dataDir, "storage");
  const storage = createStorageService({
    db: database.db,
    driver: new LocalDiskDriver(root),
    buckets: defineBuckets(testBuckets),
    stagingDir: path.join(root, ".staging"),
    logger,
  });
  const env = testEnv({
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    PUBLIC_URL: "http://localhost:3000",
    PUBLIC_URL_SET: false,
    STORAGE_MAX_OBJECT_BYTES: 256 * 1024,
    HEADERS_TIMEOUT_SECONDS: 20,
    REQUEST_TIMEOUT_SECONDS: 120,
    KEEP_ALIVE_TIMEOUT_SECONDS: DEFAULT_KEEP_ALIVE_TIMEOUT_SECONDS,
    ...overrides,
  });
  const userEvents = await startUserEvents(database, logger);
  const contentVersion = await startContentVersion(database, logger);
  const mailer = createMailer({ db: database.db, logger, from: "store@example.com" });
  const app = createApp({
    env,
    database,
    logger,
    mailer,
    cipher: testCipher(),
    storage,
    storageAuth: anonymousStorageAuth,
    auth: createAuth({ db: database.db, env, logger, mailer, rateLimit: false }),
    userEvents,
    contentVersion,
    build: build ?? (() => Promise.reject(new Error("no pages in this test"))),
  });
  const server = createHttpServer(app, env);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    env,
    database,
    dataDir,
    userEvents,
    logs: lines,
    /** How many client connections the server has open. */
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    /**
     * Sends raw bytes (a request fetch would not send: a false Content-Length, odd Host) and resolves to what
     * came back once the server closes the connection or `settleMs` passes without more data.
     */
    raw(request: string | Buffer, { settleMs = 2000 }: { settleMs?: number } = {}) {
      return new Promise<{ status: number; head: string; body: string; closed: boolean }>((resolve) => {
        const socket = net.connect(port, "127.0.0.1");
        let received = "";
        let timer: NodeJS.Timeout | undefined;
        const finish = (closed: boolean) => {
          clearTimeout(timer);
          socket.destroy();
          const [head = "", body = ""] = received.split("\r\n\r\n");
          resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body, closed });
        };
        const settle = () => {
          clearTimeout(timer);
          timer = setTimeout(() => finish(false), settleMs);
        };
        socket.on("data", (chunk) => {
          received += chunk.toString("latin1");
          settle();
        });
        socket.on("close", () => finish(true));
        socket.on("error", () => undefined);
        socket.write(request);
        settle();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await userEvents.close();
      await contentVersion.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type AppTestServer = Awaited<ReturnType<typeof startAppServer>>;
