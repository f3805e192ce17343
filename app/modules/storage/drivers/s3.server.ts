import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import type { Env } from "~/lib/env.server";
import { StorageError } from "../errors";
import { keySegments, readAll, type StagedFile, type StorageDriver } from "./driver.server";

export type S3DriverOptions = {
  bucket: string;
  region: string;
  /** An S3-compatible store (MinIO, R2, Ceph...); unset for AWS. */
  endpoint?: string;
  /** Unset: the AWS credential chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path (http://host/bucket/key) rather than the host name; most self-hosted stores need it. */
  forcePathStyle?: boolean;
  /** How long a download may wait for its next bytes once the store has answered (DOWNLOAD_IDLE_TIMEOUT_MS). */
  downloadIdleTimeoutMs?: number;
  /** Extra client settings (tests pass a request handler here). */
  clientConfig?: Partial<S3ClientConfig>;
};

/**
 * How long the object store may keep a request waiting: to take the connection, then to stay silent on it before its
 * answer. A request is tried twice (an upload once: its bytes are a stream), so a store that is down or silent is
 * answered 503 within 5 s: 2 x (750 + 1500) ms and the wait between the two.
 */
export const CONNECT_TIMEOUT_MS = 750;
export const IDLE_TIMEOUT_MS = 1500;
export const MAX_ATTEMPTS = 2;
/**
 * Once a download has begun, its bytes go out at the browser's pace and the connection to the store waits while the
 * browser is slow: a longer silence is allowed then, after which the download is ended rather than left hanging.
 */
export const DOWNLOAD_IDLE_TIMEOUT_MS = 10_000;

/**
 * Objects in one S3 (or S3-compatible) bucket, shared by every server process: key `products/a.png#g1` is the object
 * `products/a.png#g1`. Uploads send Content-MD5, so the store refuses bytes damaged on the way.
 */
export class S3Driver implements StorageDriver {
  readonly kind = "s3";
  readonly bucket: string;
  readonly client: S3Client;
  readonly downloadIdleTimeoutMs: number;

  constructor(options: S3DriverOptions) {
    this.bucket = options.bucket;
    this.downloadIdleTimeoutMs = options.downloadIdleTimeoutMs ?? DOWNLOAD_IDLE_TIMEOUT_MS;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: IDLE_TIMEOUT_MS },
      // Only the checksums S3 requires: S3-compatible stores often reject the newer default (CRC32 trailers on
      // aws-chunked bodies). Integrity is covered by Content-MD5.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      ...options.clientConfig,
    });
  }

  static fromEnv(env: Env, clientConfig?: Partial<S3ClientConfig>): S3Driver {
    if (!env.S3_BUCKET || !env.S3_REGION) throw new Error("STORAGE_DRIVER=s3 needs S3_BUCKET and S3_REGION");
    return new S3Driver({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      ...(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } }
        : {}),
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      ...(clientConfig ? { clientConfig } : {}),
    });
  }

  async put(key: string, staged: StagedFile): Promise<void> {
    keySegments(key);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(staged.path),
          ContentLength: staged.size,
          ContentType: staged.contentType,
          ContentMD5: staged.md5,
        }),
      );
    } catch (error) {
      throw storeFailure(error);
    } finally {
      await rm(staged.path, { force: true });
    }
  }

  async stream(key: string): Promise<Readable | null> {
    keySegments(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = result.Body;
      if (!body) return Readable.from([]);
      // The answer has come: from here the connection waits on the browser too (see DOWNLOAD_IDLE_TIMEOUT_MS).
      (body as Partial<IncomingMessage>).socket?.setTimeout(this.downloadIdleTimeoutMs);
      return body instanceof Readable ? body : Readable.fromWeb(body.transformToWebStream() as never);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw storeFailure(error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.stream(key);
    return stream ? readAll(stream) : null;
  }

  async delete(key: string): Promise<void> {
    keySegments(key);
    // S3 answers 204 for a missing key too.
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch((error: unknown) => {
        throw storeFailure(error);
      });
  }
}

/**
 * A request the object store failed (unreachable, silent, or answering an error): the files cannot be served now, which
 * is 503 to the caller (the browser client tries again); the cause is for the operator's log.
 */
function storeFailure(error: unknown): StorageError {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode;
  return new StorageError(
    "storage/unknown",
    status === undefined
      ? "The file store cannot be reached at the moment. Nothing was changed; please try again in a minute."
      : "The file store refused the request. Nothing was changed; please try again in a minute.",
    { status: 503, cause: error },
  );
}

function isNotFound(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return failure?.name === "NoSuchKey" || failure?.$metadata?.httpStatusCode === 404;
}
