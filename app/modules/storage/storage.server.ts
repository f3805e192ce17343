/**
 * The file storage service: uploads (staged, checked, re-encoded, then stored), metadata, downloads by token or
 * identity, deletion, and the per-bucket quota. Records live in the database (storage_objects), bytes in a driver.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, asc, count, desc, eq, like, ne, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { type StorageObjectRow, storageObjects } from "~db/schema";
import type { Env } from "~/lib/env.server";
import { formatBytes } from "~/lib/byte-size";
import type { Logger } from "~/lib/logger.server";
import { canManage, customerFolder, requireManage, requireRead, type Viewer } from "./access.server";
import { type BucketConfig, type Buckets, bucketsFromEnv } from "./buckets.server";
import { isImage, reencodeImage, sniffType } from "./content.server";
import type { StorageDriver } from "./drivers/driver.server";
import { LocalDiskDriver } from "./drivers/local-disk.server";
import { S3Driver } from "./drivers/s3.server";
import { StorageError } from "./errors";
import { checkObjectPath, objectName } from "./paths";
import type { StoredObject, StoredObjectResponse, UploadMetadata } from "./schemas";

/** An upload's bytes, received in full into the staging folder but not checked or stored yet. */
export type StagedUpload = { path: string; size: number; md5: string };

export type StorageServiceOptions = {
  db: Database;
  driver: StorageDriver;
  buckets: Buckets;
  /** Where uploads are received before they are checked; on the same disk as a local driver's root. */
  stagingDir: string;
  logger: Logger;
};

export type StorageService = ReturnType<typeof createStorageService>;

/** The service as the environment configures it: local disk under DATA_DIR/storage, or S3. */
export function storageFromEnv(env: Env, db: Database, logger: Logger): StorageService {
  const root = path.join(env.DATA_DIR, "storage");
  return createStorageService({
    db,
    logger,
    driver: env.STORAGE_DRIVER === "s3" ? S3Driver.fromEnv(env) : new LocalDiskDriver(root),
    buckets: bucketsFromEnv(env),
    // Bucket names start with a letter or digit, so this folder is no bucket's.
    stagingDir: path.join(root, ".staging"),
  });
}

export function createStorageService({ db, driver, buckets, stagingDir, logger }: StorageServiceOptions) {
  const stagingPath = () => path.join(stagingDir, `${randomUUID()}.upload`);
  const keyOf = (row: Pick<StorageObjectRow, "bucket" | "fullPath" | "generation">) =>
    `${row.bucket}/${row.fullPath}#${row.generation}`;

  function bucket(name: string): BucketConfig {
    const config = buckets.get(name);
    if (!config) throw new StorageError("storage/bucket-not-found", `There is no bucket named ${name}.`);
    return config;
  }

  async function find(bucketName: string, fullPath: string) {
    const [row] = await db
      .select()
      .from(storageObjects)
      .where(and(eq(storageObjects.bucket, bucketName), eq(storageObjects.fullPath, fullPath)));
    return row;
  }

  async function usage(bucketName: string, exceptPath: string, database: Pick<Database, "select"> = db) {
    const [row] = await database
      .select({ bytes: sql<string>`coalesce(sum(${storageObjects.size}), 0)` })
      .from(storageObjects)
      .where(and(eq(storageObjects.bucket, bucketName), ne(storageObjects.fullPath, exceptPath)));
    return Number(row?.bytes ?? 0);
  }

  /** Bytes a customer keeps in their folder of a bucket. */
  async function folderUsage(
    bucketName: string,
    folder: string,
    exceptPath: string,
    database: Pick<Database, "select"> = db,
  ) {
    const pattern = `${folder.replace(/[%_\\]/g, "\\$&")}%`;
    const [row] = await database
      .select({ bytes: sql<string>`coalesce(sum(${storageObjects.size}), 0)` })
      .from(storageObjects)
      .where(
        and(
          eq(storageObjects.bucket, bucketName),
          like(storageObjects.fullPath, pattern),
          ne(storageObjects.fullPath, exceptPath),
        ),
      );
    return Number(row?.bytes ?? 0);
  }

  /**
   * Throws unless the file fits: a customer's own quota first, then the bucket's. A customer is not told how big the
   * bucket is or how full (that is the store's business), only about their own share.
   */
  async function checkQuota(
    config: BucketConfig,
    viewer: Viewer,
    fullPath: string,
    size: number,
    database: Pick<Database, "select"> = db,
  ) {
    const customer = viewer.role === "customer";
    if (customer && config.userQuotaBytes !== undefined) {
      const mine = await folderUsage(config.name, customerFolder(viewer), fullPath, database);
      if (mine + size > config.userQuotaBytes) {
        // 413, not the 507 of a full bucket: the store has room, this customer's share does not.
        throw new StorageError(
          "storage/quota-exceeded",
          `Your files take ${mine} of the ${config.userQuotaBytes} bytes you may keep here, and this file has ${size}. Delete some of your files first.`,
          { status: 413 },
        );
      }
    }
    const used = await usage(config.name, fullPath, database);
    if (used + size > config.quotaBytes) {
      throw new StorageError(
        "storage/quota-exceeded",
        customer
          ? "The store cannot take more files at the moment. Please try again later."
          : `The ${config.name} bucket is full: it holds ${used} of ${config.quotaBytes} bytes and this file has ${size}.`,
      );
    }
  }

  const discard = async (staged: { path: string } | undefined) => {
    if (staged) await rm(staged.path, { force: true });
  };

  const service = {
    buckets,
    driver,
    bucket,

    /** Checks the bucket, the path and the caller before any byte is read. */
    authorizeUpload(viewer: Viewer | null, bucketName: string, fullPath: string) {
      const config = bucket(bucketName);
      checkObjectPath(fullPath);
      return { bucket: config, viewer: requireManage(viewer, config, fullPath) };
    },

    /** Receives an upload's bytes into the staging folder (never more than the bucket's largest object). */
    async stage(config: BucketConfig, body: AsyncIterable<Uint8Array>): Promise<StagedUpload> {
      await mkdir(stagingDir, { recursive: true, mode: 0o700 }).catch(
        async (error: NodeJS.ErrnoException) => {
          // Node's recursive mkdir says ENOENT on a read-only file system: the plain one tells the real cause (EROFS).
          if (error.code !== "ENOENT") throw error;
          await mkdir(stagingDir, { mode: 0o700 });
        },
      );
      const file = stagingPath();
      const hash = createHash("md5");
      let size = 0;
      try {
        await pipeline(
          body,
          async function* (source: AsyncIterable<Uint8Array>) {
            for await (const chunk of source) {
              size += chunk.byteLength;
              if (size > config.maxObjectBytes) throw tooLarge(config);
              hash.update(chunk);
              yield chunk;
            }
          },
          createWriteStream(file, { flags: "wx", mode: 0o600 }),
        );
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return { path: file, size, md5: hash.digest("base64") };
    },

    /** Removes a staged upload that will not be committed. */
    discard,

    /**
     * Checks a staged upload (type from its bytes, name, metadata), re-encodes images, then stores bytes and record
     * within the quota. Always consumes the staged file. Nothing is recorded if the signal aborts first.
     */
    async commit(input: {
      viewer: Viewer;
      bucket: BucketConfig;
      fullPath: string;
      staged: StagedUpload;
      metadata?: UploadMetadata | undefined;
      /** The Content-Type the file part was sent with. */
      declaredType?: string | undefined;
      signal?: AbortSignal | undefined;
    }): Promise<StoredObjectResponse> {
      const { viewer, bucket: config, fullPath, metadata = {}, signal } = input;
      let staged: StagedUpload | undefined = input.staged;
      try {
        const type = await sniffType(staged.path, config.allowedTypes, {
          name: objectName(fullPath),
          contentType: metadata.contentType ?? input.declaredType,
        });
        if (!isImage(type) && /^inline\b/i.test(metadata.contentDisposition ?? "")) {
          throw new StorageError(
            "storage/invalid-argument",
            "metadata.contentDisposition: only images may be shown inline; other files are always downloaded",
          );
        }
        if (isImage(type)) {
          const output = stagingPath();
          try {
            await reencodeImage(staged.path, output, type);
          } catch (error) {
            await rm(output, { force: true });
            throw error;
          }
          await discard(staged);
          staged = { path: output, ...(await sizeAndMd5(output)) };
          if (staged.size > config.maxObjectBytes) throw tooLarge(config);
        }
        const size = staged.size;
        // A first look without a lock, to spare uploading bytes that cannot fit.
        await checkQuota(config, viewer, fullPath, size);
        throwIfCanceled(signal);

        const generation = randomBytes(12).toString("base64url");
        const key = keyOf({ bucket: config.name, fullPath, generation });
        const file = staged;
        staged = undefined; // the driver consumes it
        await driver.put(key, { ...file, contentType: type });

        let result: { row: StorageObjectRow; previous: string | undefined };
        try {
          throwIfCanceled(signal);
          result = await db.transaction(async (tx) => {
            // One upload per bucket at a time between the quota check and the write.
            await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`storage:${config.name}`}))`);
            await checkQuota(config, viewer, fullPath, size, tx);
            const [existing] = await tx
              .select({ generation: storageObjects.generation })
              .from(storageObjects)
              .where(and(eq(storageObjects.bucket, config.name), eq(storageObjects.fullPath, fullPath)))
              .for("update");
            const now = new Date();
            const fields = {
              name: objectName(fullPath),
              generation,
              size,
              contentType: type,
              md5: file.md5,
              cacheControl: metadata.cacheControl ?? null,
              contentDisposition: metadata.contentDisposition ?? null,
              contentEncoding: metadata.contentEncoding ?? null,
              contentLanguage: metadata.contentLanguage ?? null,
              customMetadata: metadata.customMetadata ?? {},
              ownerId: viewer.id,
              createdAt: now,
              updatedAt: now,
            };
            // A new upload to the same path replaces the object (new generation) and keeps its download tokens,
            // so links already handed out keep working.
            const [row] = await tx
              .insert(storageObjects)
              .values({ bucket: config.name, fullPath, downloadTokens: [randomUUID()], ...fields })
              .onConflictDoUpdate({ target: [storageObjects.bucket, storageObjects.fullPath], set: fields })
              .returning();
            return { row: row!, previous: existing?.generation };
          });
        } catch (error) {
          await driver.delete(key).catch((cleanup: unknown) => {
            logger.warn(
              { err: cleanup, key },
              "could not remove the bytes of an upload that was not recorded",
            );
          });
          throw error;
        }
        if (result.previous) {
          const old = keyOf({ bucket: config.name, fullPath, generation: result.previous });
          await driver.delete(old).catch((error: unknown) => {
            logger.warn({ err: error, key: old }, "could not remove the bytes of a replaced object");
          });
        }
        return toResponse(result.row, true);
      } finally {
        await discard(staged);
      }
    },

    /** Stages and commits in one go (for server-side code; HTTP uploads go through the multipart route). */
    async upload(input: {
      viewer: Viewer | null;
      bucket: string;
      fullPath: string;
      body: AsyncIterable<Uint8Array>;
      metadata?: UploadMetadata;
      signal?: AbortSignal;
    }): Promise<StoredObjectResponse> {
      const { bucket: config, viewer } = service.authorizeUpload(input.viewer, input.bucket, input.fullPath);
      const staged = await service.stage(config, input.body);
      return service.commit({ ...input, viewer, bucket: config, staged });
    },

    /** The object and, for callers who may manage it, its download tokens. */
    async getMetadata(
      viewer: Viewer | null,
      bucketName: string,
      fullPath: string,
    ): Promise<StoredObjectResponse> {
      const config = bucket(bucketName);
      checkObjectPath(fullPath);
      requireRead(viewer, config, fullPath);
      const row = await find(config.name, fullPath);
      if (!row) throw notFound(config, fullPath);
      return toResponse(row, viewer !== null && canManage(viewer, config, fullPath));
    },

    /**
     * An object to download: with a token (no identity needed) or, without one, as the caller may read it.
     * The bytes are opened by read(), so a HEAD or a 304 never touches them.
     */
    async open(viewer: Viewer | null, bucketName: string, fullPath: string, token: string | undefined) {
      const config = bucket(bucketName);
      checkObjectPath(fullPath);
      if (token === undefined) requireRead(viewer, config, fullPath);
      const row = await find(config.name, fullPath);
      // A wrong token gets the answer of a missing file: a download link tells nothing about what else exists.
      if (!row || (token !== undefined && !row.downloadTokens.some((known) => sameSecret(known, token)))) {
        throw notFound(config, fullPath);
      }
      return {
        bucket: config,
        object: toStoredObject(row),
        async read(): Promise<Readable> {
          const stream = await driver.stream(keyOf(row));
          if (!stream) {
            logger.error(
              { bucket: row.bucket, fullPath: row.fullPath },
              "a stored file has a record but no bytes",
            );
            throw notFound(config, fullPath);
          }
          return stream;
        },
      };
    },

    /**
     * A page of a bucket's objects, for admins: newest first, or by name; `q` matches a part of the path.
     * Each object has its download tokens (an admin may manage every object).
     */
    async list(
      viewer: Viewer | null,
      bucketName: string,
      query: { q?: string; sort?: "newest" | "name" | "size"; limit: number; offset: number },
    ): Promise<{ items: StoredObjectResponse[]; total: number }> {
      const config = bucket(bucketName);
      if (!viewer) throw new StorageError("storage/unauthenticated", "Sign in to list stored files.");
      if (viewer.role !== "admin") {
        throw new StorageError("storage/unauthorized", `You may not list the files of ${config.name}.`);
      }
      const filters = [eq(storageObjects.bucket, config.name)];
      if (query.q) {
        const pattern = `%${query.q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`;
        filters.push(sql`lower(${storageObjects.fullPath}) like ${pattern}`);
      }
      const where = and(...filters);
      const order =
        query.sort === "name"
          ? [asc(storageObjects.fullPath)]
          : query.sort === "size"
            ? [desc(storageObjects.size), asc(storageObjects.fullPath)]
            : [desc(storageObjects.updatedAt), asc(storageObjects.fullPath)];
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(storageObjects)
          .where(where)
          .orderBy(...order)
          .limit(query.limit)
          .offset(query.offset),
        db.select({ n: count() }).from(storageObjects).where(where),
      ]);
      return { items: rows.map((row) => toResponse(row, true)), total: total?.n ?? 0 };
    },

    /**
     * Deletes the object (record first, then bytes). `inTransaction` runs in the transaction that deletes the record
     * (e.g. to record who deleted it); when it throws, nothing is deleted.
     */
    async remove(
      viewer: Viewer | null,
      bucketName: string,
      fullPath: string,
      options: { inTransaction?: (tx: Transaction, object: StoredObject) => Promise<void> } = {},
    ): Promise<void> {
      const config = bucket(bucketName);
      checkObjectPath(fullPath);
      requireManage(viewer, config, fullPath);
      const row = await db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(storageObjects)
          .where(and(eq(storageObjects.bucket, config.name), eq(storageObjects.fullPath, fullPath)))
          .returning();
        if (deleted && options.inTransaction) await options.inTransaction(tx, toStoredObject(deleted));
        return deleted;
      });
      if (!row) throw notFound(config, fullPath);
      await driver.delete(keyOf(row)).catch((error: unknown) => {
        logger.warn({ err: error, key: keyOf(row) }, "could not remove the bytes of a deleted object");
      });
    },

    /** Bytes a bucket holds. */
    usage: (bucketName: string) => usage(bucket(bucketName).name, ""),

    /** Removes staged uploads left by a server that stopped mid-upload (older than maxAgeMs). */
    async cleanStaging(maxAgeMs = 60 * 60 * 1000): Promise<number> {
      let removed = 0;
      const names = await readdir(stagingDir).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(stagingDir, name);
        const info = await stat(file).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > maxAgeMs) {
          await rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
  return service;
}

/** A file past what its bucket takes: found while it arrives, or from the size the upload declares. */
export function tooLarge(config: Pick<BucketConfig, "name" | "maxObjectBytes">) {
  return new StorageError(
    "storage/invalid-argument",
    `The file is larger than ${formatBytes(config.maxObjectBytes)}, the most the ${config.name} bucket takes.`,
    { status: 413 },
  );
}

function notFound(config: BucketConfig, fullPath: string) {
  return new StorageError("storage/object-not-found", `No object ${fullPath} in ${config.name}.`);
}

function throwIfCanceled(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new StorageError("storage/canceled", "The upload was canceled.");
}

/** Constant-time comparison of two secrets. */
function sameSecret(known: string, given: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(known), digest(given));
}

async function sizeAndMd5(file: string): Promise<{ size: number; md5: string }> {
  const hash = createHash("md5");
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, md5: hash.digest("base64") };
}

export function toStoredObject(row: StorageObjectRow): StoredObject {
  return {
    bucket: row.bucket,
    fullPath: row.fullPath,
    name: row.name,
    size: row.size,
    contentType: row.contentType,
    timeCreated: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
    md5Hash: row.md5,
    cacheControl: row.cacheControl,
    contentDisposition: row.contentDisposition,
    contentEncoding: row.contentEncoding,
    contentLanguage: row.contentLanguage,
    customMetadata: row.customMetadata,
  };
}

function toResponse(row: StorageObjectRow, withTokens: boolean): StoredObjectResponse {
  return { ...toStoredObject(row), downloadTokens: withTokens ? row.downloadTokens : [] };
}
