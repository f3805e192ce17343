/** The storage error catalogue (spec section 8), shared by the server, its HTTP routes and the browser client. */

export const STORAGE_ERROR_CODES = [
  "storage/unknown",
  "storage/object-not-found",
  "storage/bucket-not-found",
  "storage/quota-exceeded",
  "storage/unauthenticated",
  "storage/unauthorized",
  "storage/retry-limit-exceeded",
  "storage/canceled",
  "storage/invalid-argument",
  "storage/invalid-url",
  "storage/read-only",
] as const;

export type StorageErrorCode = (typeof STORAGE_ERROR_CODES)[number];

/** The HTTP status the server answers with for each code (client-only codes have 0: no response). */
export const STORAGE_ERROR_STATUS: Record<StorageErrorCode, number> = {
  "storage/unknown": 500,
  "storage/object-not-found": 404,
  "storage/bucket-not-found": 404,
  // 507, not 413: the request itself is fine, the bucket is full. Not retried by the client.
  "storage/quota-exceeded": 507,
  "storage/unauthenticated": 401,
  "storage/unauthorized": 403,
  "storage/retry-limit-exceeded": 0,
  "storage/canceled": 0,
  "storage/invalid-argument": 400,
  "storage/invalid-url": 400,
  // The disk under the storage is read-only (an operator must remount it): not retried by the client either.
  "storage/read-only": 503,
};

/** The JSON body of every storage error response. */
export type StorageErrorBody = { error: { code: StorageErrorCode; message: string } };

export class StorageError extends Error {
  override name = "StorageError";
  readonly code: StorageErrorCode;
  /** The HTTP status: the server's answer, or (on the server) the one to answer with; 0 without a response. */
  readonly status: number;

  constructor(code: StorageErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? STORAGE_ERROR_STATUS[code];
  }

  toJSON(): StorageErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

export const isStorageErrorCode = (value: unknown): value is StorageErrorCode =>
  typeof value === "string" && (STORAGE_ERROR_CODES as readonly string[]).includes(value);

/**
 * Is this a StorageError? Also true for one made by another copy of this module: in development the server's entry
 * (tsx) and the app (Vite) each load their own, so `instanceof` alone fails for errors the server's storage service
 * throws.
 */
export const isStorageError = (error: unknown): error is StorageError =>
  error instanceof StorageError ||
  (error instanceof Error &&
    error.name === "StorageError" &&
    isStorageErrorCode((error as { code?: unknown }).code));

/**
 * The storage error a failed disk write stands for, or undefined: no space (or quota) left is
 * storage/quota-exceeded (507), a read-only file system storage/read-only (503). Looks through the error's causes.
 */
export function diskFailure(error: unknown): StorageError | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (code === "ENOSPC" || code === "EDQUOT")
      return new StorageError(
        "storage/quota-exceeded",
        "The file storage is full: there is no space left for this file. Nothing was stored; try again once space has been freed.",
        { cause: error },
      );
    if (code === "EROFS")
      return new StorageError(
        "storage/read-only",
        "The file storage is read-only at the moment, so nothing can be stored. Nothing was stored; try again later.",
        { cause: error },
      );
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
