import type { Readable } from "node:stream";

/** An upload received in full and checked, waiting in the staging folder to be stored. */
export type StagedFile = {
  /** A file in the staging folder; the driver consumes it (moves or uploads it, then removes it). */
  path: string;
  size: number;
  /** MD5 of the bytes, base64. */
  md5: string;
  contentType: string;
};

/**
 * Where the bytes of stored files live. Keys are `<bucket>/<path>#<generation>`, already checked: they never start with
 * a slash and have no empty, `.` or `..` segment.
 */
export interface StorageDriver {
  readonly kind: "local" | "s3";
  /** Stores a staged file under the key, replacing whatever was there, and removes the staged file. */
  put(key: string, file: StagedFile): Promise<void>;
  /** The bytes as a stream, or null when the key holds nothing. */
  stream(key: string): Promise<Readable | null>;
  /** The bytes in memory, or null when the key holds nothing (for small files and tools). */
  get(key: string): Promise<Buffer | null>;
  /** Removes the bytes; nothing happens when they are already gone. */
  delete(key: string): Promise<void>;
}

export class StorageKeyError extends Error {
  override name = "StorageKeyError";
}

/** The segments of a key, refusing anything that could point outside the driver's root. */
export function keySegments(key: string): string[] {
  const segments = key.split("/");
  if (
    key.includes("\0") ||
    key.includes("\\") ||
    segments.some((segment) => segment === "" || segment === "." || segment === "..")
  ) {
    throw new StorageKeyError(`Refusing the storage key ${JSON.stringify(key)}`);
  }
  return segments;
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
