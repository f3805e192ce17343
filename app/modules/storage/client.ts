/**
 * The browser's storage client (the admin uses it for product images): uploads with progress and cancel, metadata,
 * download URLs and deletion. Failed requests (network errors, 408, 429 and 5xx) are retried with exponential backoff
 * for up to 120 s (600 s for uploads, spec section 9); then the call fails with storage/retry-limit-exceeded.
 */
import { isStorageErrorCode, StorageError, type StorageErrorBody } from "./errors";
import { checkObjectPath, objectUrlPath, uploadUrlPath } from "./paths";
import type { StoredObjectResponse, UploadMetadata } from "./schemas";

export { StorageError } from "./errors";

/** Spec section 9: longest time spent retrying an operation, and an upload. */
export const MAX_OPERATION_RETRY_MS = 120_000;
export const MAX_UPLOAD_RETRY_MS = 600_000;
/** Backoff: 1 s, doubling, at most 64 s between attempts, plus up to 1 s of jitter. */
const FIRST_DELAY_MS = 1000;
const LONGEST_DELAY_MS = 64_000;
const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export type UploadProgress = { bytesTransferred: number; totalBytes: number };
export type RetryEvent = { attempt: number; delayMs: number; error: StorageError };

export type StorageClientOptions = {
  /** The store's origin; empty (the default) for the page's own. */
  baseUrl?: string;
  /** Extra request headers (the browser sends the session cookie by itself). */
  headers?: () => Record<string, string>;
  maxOperationRetryTime?: number;
  maxUploadRetryTime?: number;
  /** Called before each wait between attempts. */
  onRetry?: (event: RetryEvent) => void;
  /** Jitter source, [0, 1). */
  random?: () => number;
};

export type UploadOptions = {
  metadata?: UploadMetadata;
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting cancels the upload (and any wait before a retry): storage/canceled, nothing is stored. */
  signal?: AbortSignal;
};

export type StorageClient = ReturnType<typeof createStorageClient>;

export function createStorageClient(options: StorageClientOptions = {}) {
  const {
    baseUrl = "",
    headers = () => ({}),
    maxOperationRetryTime = MAX_OPERATION_RETRY_MS,
    maxUploadRetryTime = MAX_UPLOAD_RETRY_MS,
    onRetry,
    random = Math.random,
  } = options;

  async function request(
    path: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    return withRetry(
      async () => {
        let response: Response;
        try {
          response = await fetch(`${baseUrl}${path}`, {
            ...init,
            headers: { ...headers(), ...init.headers },
            credentials: "same-origin",
            ...(signal ? { signal } : {}),
          });
        } catch (error) {
          throw signal?.aborted ? canceled() : networkError(error);
        }
        if (!response.ok) throw errorFromBody(response.status, await response.text().catch(() => ""));
        return response;
      },
      { maxRetryTime: maxOperationRetryTime, signal, onRetry, random },
    );
  }

  const client = {
    /** Uploads a file to bucket/path; resolves with the stored object (and its download token). */
    async uploadFile(
      bucket: string,
      path: string,
      file: Blob,
      { metadata, onProgress, signal }: UploadOptions = {},
    ): Promise<StoredObjectResponse> {
      checkObjectPath(path);
      const url = `${baseUrl}${uploadUrlPath(bucket, path)}`;
      const totalBytes = file.size;
      return withRetry(
        () => {
          // Metadata first, so the server knows it before the bytes; rebuilt for every attempt.
          const form = new FormData();
          if (metadata) form.append("metadata", JSON.stringify(metadata));
          form.append("file", file, path.slice(path.lastIndexOf("/") + 1));
          onProgress?.({ bytesTransferred: 0, totalBytes });
          return send(url, form, headers(), signal, (loaded) =>
            onProgress?.({ bytesTransferred: Math.min(totalBytes, loaded), totalBytes }),
          );
        },
        { maxRetryTime: maxUploadRetryTime, signal, onRetry, random },
      ).then((object) => {
        onProgress?.({ bytesTransferred: totalBytes, totalBytes });
        return object;
      });
    },

    /** The stored file object, with its download tokens when the caller may manage it. */
    async getMetadata(bucket: string, path: string, signal?: AbortSignal): Promise<StoredObjectResponse> {
      checkObjectPath(path);
      const response = await request(objectUrlPath(bucket, path), { method: "GET" }, signal);
      return (await response.json()) as StoredObjectResponse;
    },

    /** A URL that downloads the object: with its first token, or without one for public buckets. */
    async getDownloadURL(bucket: string, path: string, signal?: AbortSignal): Promise<string> {
      const object = await client.getMetadata(bucket, path, signal);
      return downloadUrl(bucket, path, object.downloadTokens[0], baseUrl);
    },

    async deleteObject(bucket: string, path: string, signal?: AbortSignal): Promise<void> {
      checkObjectPath(path);
      await request(objectUrlPath(bucket, path), { method: "DELETE" }, signal);
    },
  };
  return client;
}

/** The download URL of an object. */
export function downloadUrl(bucket: string, path: string, token?: string, baseUrl = ""): string {
  const query = token ? `?alt=media&token=${encodeURIComponent(token)}` : "?alt=media";
  return `${baseUrl}${objectUrlPath(bucket, path)}${query}`;
}

const defaultClient = createStorageClient();

/** Uploads to the store the page came from (see createStorageClient for options). */
export const uploadFile: StorageClient["uploadFile"] = (...args) => defaultClient.uploadFile(...args);

/**
 * Runs an attempt until it succeeds, fails for good, or the next wait would pass maxRetryTime (counted from the first
 * attempt): then storage/retry-limit-exceeded, with the last failure as its cause.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  options: {
    maxRetryTime: number;
    signal?: AbortSignal | undefined;
    onRetry?: ((event: RetryEvent) => void) | undefined;
    random?: () => number;
  },
): Promise<T> {
  const { maxRetryTime, signal, onRetry, random = Math.random } = options;
  const started = Date.now();
  for (let count = 1; ; count++) {
    if (signal?.aborted) throw canceled();
    try {
      return await attempt();
    } catch (error) {
      const failure = error instanceof StorageError ? error : networkError(error);
      if (signal?.aborted || failure.code === "storage/canceled") throw canceled();
      if (!isRetryable(failure)) throw failure;
      const delayMs =
        Math.min(FIRST_DELAY_MS * 2 ** (count - 1), LONGEST_DELAY_MS) + Math.floor(random() * 1000);
      if (Date.now() - started + delayMs > maxRetryTime) {
        throw new StorageError(
          "storage/retry-limit-exceeded",
          `Gave up after ${count} attempts: the maximum retry time (${maxRetryTime} ms) would be exceeded. Try again later.`,
          { cause: failure },
        );
      }
      onRetry?.({ attempt: count, delayMs, error: failure });
      await sleep(delayMs, signal);
    }
  }
}

const isRetryable = (error: StorageError) =>
  error.code !== "storage/read-only" &&
  ((error.status === 0 && error.code === "storage/unknown") || RETRIED_STATUSES.has(error.status));

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(canceled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const canceled = () => new StorageError("storage/canceled", "The operation was canceled.");

/** No answer at all (offline, connection reset): status 0, retried. */
const networkError = (cause: unknown) =>
  new StorageError("storage/unknown", "The storage server could not be reached.", { status: 0, cause });

function errorFromBody(status: number, text: string): StorageError {
  let error: Partial<StorageErrorBody["error"]> | undefined;
  try {
    error = (JSON.parse(text) as Partial<StorageErrorBody>).error;
  } catch {
    // Not our JSON (a proxy's error page): described by the status alone.
  }
  const code = isStorageErrorCode(error?.code) ? error.code : "storage/unknown";
  return new StorageError(code, error?.message ?? `The storage server answered ${status}.`, { status });
}

/** One upload request: XMLHttpRequest in browsers (it reports upload progress), fetch elsewhere. */
function send(
  url: string,
  form: FormData,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  onLoaded: (bytes: number) => void,
): Promise<StoredObjectResponse> {
  if (typeof XMLHttpRequest === "undefined") return sendWithFetch(url, form, headers, signal);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener("abort", onAbort);
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      // The request also carries the form's framing: report the file's share of what was sent.
      const file = form.get("file");
      const fileSize = file instanceof Blob ? file.size : 0;
      if (event.lengthComputable && event.total > 0)
        onLoaded(Math.round((event.loaded / event.total) * fileSize));
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as StoredObjectResponse);
        } catch (error) {
          reject(
            new StorageError("storage/unknown", "The server's answer was not understood.", { cause: error }),
          );
        }
      } else reject(errorFromBody(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => {
      done();
      reject(networkError(undefined));
    };
    xhr.onabort = () => {
      done();
      reject(canceled());
    };
    if (signal?.aborted) return reject(canceled());
    signal?.addEventListener("abort", onAbort, { once: true });
    xhr.send(form);
  });
}

async function sendWithFetch(
  url: string,
  form: FormData,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<StoredObjectResponse> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body: form, headers, ...(signal ? { signal } : {}) });
  } catch (error) {
    throw signal?.aborted ? canceled() : networkError(error);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) throw errorFromBody(response.status, text);
  return JSON.parse(text) as StoredObjectResponse;
}
