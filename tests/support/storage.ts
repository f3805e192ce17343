import { createAuth } from "~/modules/accounts/auth.server";
import { startUserEvents } from "~/modules/accounts/user-events.server";
import { startContentVersion } from "~/modules/content/content-version.server";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createMailer } from "~/modules/email/outbox.server";
import type { StorageAuth, Viewer } from "~/modules/storage/access.server";
import { type BucketConfig, defineBuckets, IMAGE_TYPES } from "~/modules/storage/buckets.server";
import type { StorageDriver } from "~/modules/storage/drivers/driver.server";
import { LocalDiskDriver } from "~/modules/storage/drivers/local-disk.server";
import { createStorageService } from "~/modules/storage/storage.server";
import { createApp } from "../../server/app";
import { createTestDatabase, type Driver, type TestDatabase } from "./database";
import { recordingLogger } from "./logger";
import { testEnv } from "./orders";
import { testCipher } from "./seed";

const KiB = 1024;

/** Small limits, so tests can reach them with small files. */
export const testBuckets: BucketConfig[] = [
  {
    name: "products",
    publicRead: true,
    customerUploads: false,
    quotaBytes: 1024 * KiB,
    maxObjectBytes: 256 * KiB,
    allowedTypes: IMAGE_TYPES,
  },
  {
    name: "uploads",
    publicRead: false,
    customerUploads: true,
    quotaBytes: 1024 * KiB,
    userQuotaBytes: 512 * KiB,
    maxObjectBytes: 256 * KiB,
    allowedTypes: [...IMAGE_TYPES, "application/pdf"],
  },
  {
    name: "race",
    publicRead: false,
    customerUploads: true,
    quotaBytes: 1000,
    maxObjectBytes: 256 * KiB,
    allowedTypes: ["application/pdf"],
  },
  {
    // Room for two customers' full shares, and not a third's.
    name: "shared",
    publicRead: false,
    customerUploads: true,
    quotaBytes: 2000,
    userQuotaBytes: 1000,
    maxObjectBytes: 256 * KiB,
    allowedTypes: ["application/pdf"],
  },
  {
    name: "tiny",
    publicRead: false,
    customerUploads: true,
    quotaBytes: 1000,
    maxObjectBytes: 256 * KiB,
    allowedTypes: [...IMAGE_TYPES, "application/pdf"],
  },
];

/**
 * The real app (createApp) on an ephemeral port, with a fresh database, its own DATA_DIR and the local disk driver
 * (or the `storageDriver` given).
 * Callers are identified by bearer tokens the test hands out with signIn(): a real resolver over a map the test
 * controls, standing in for the accounts' session.
 *
 * Several servers of one store: give each the same `database` (which the caller then closes) and a driver over the
 * same object store.
 */
export async function startStorageServer(
  driver: Driver,
  buckets: BucketConfig[] = testBuckets,
  { database: given, storageDriver }: { database?: TestDatabase; storageDriver?: StorageDriver } = {},
) {
  const database = given ?? (await createTestDatabase(driver));
  const dataDir = await mkdtemp(path.join(tmpdir(), "storefront-storage-"));
  const { logger, lines } = recordingLogger();
  const root = path.join(dataDir, "storage");
  const stagingDir = path.join(root, ".staging");
  const disk = new LocalDiskDriver(root);
  const storage = createStorageService({
    db: database.db,
    driver: storageDriver ?? disk,
    buckets: defineBuckets(buckets),
    stagingDir,
    logger,
  });
  const sessions = new Map<string, Viewer>();
  const storageAuth: StorageAuth = async (request) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    return (bearer && sessions.get(bearer)) || null;
  };
  const env = testEnv({ DATA_DIR: dataDir });
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
    storageAuth,
    // The storage routes take the caller from storageAuth above; the accounts' pieces are there but unused.
    auth: createAuth({ db: database.db, env, logger, mailer }),
    userEvents,
    contentVersion,
    build: () => Promise.reject(new Error("the storage tests serve no pages")),
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    database,
    dataDir,
    root,
    stagingDir,
    disk,
    storage,
    logs: lines,
    /** A bearer token that identifies the caller as this viewer. */
    signIn(viewer: Viewer): string {
      const token = randomUUID();
      sessions.set(token, viewer);
      return token;
    },
    /** Every file under DATA_DIR, relative to it. */
    files: () => listFiles(dataDir),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await userEvents.close();
      await contentVersion.close();
      if (!given) await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type StorageTestServer = Awaited<ReturnType<typeof startStorageServer>>;

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full, base)));
    else files.push(path.relative(base, full));
  }
  return files.sort();
}
