/**
 * The storage HTTP API (mounted at /api/storage), after Firebase Storage's REST shape:
 *
 *   POST   /v0/b/{bucket}/o?name={path}          multipart/form-data: "file" (+ optional "metadata" JSON) -> object
 *   GET    /v0/b/{bucket}/o/{path}                the object and its download tokens
 *   GET    /v0/b/{bucket}/o/{path}?alt=media[&token={token}]   the bytes
 *   DELETE /v0/b/{bucket}/o/{path}                204
 *
 * {path} is one URL segment with its slashes encoded (%2F); literal slashes are accepted too. Errors are
 * {"error": {"code": "storage/...", "message": "..."}} with a fitting status.
 */
import { pipeline } from "node:stream/promises";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { storeOrigin } from "~/lib/store-origin.server";
import { safeUrl } from "~/lib/logger.server";
import type { StorageAuth, StorageAuthContext, Viewer } from "./access.server";
import { isImage } from "./content.server";
import { diskFailure, isStorageError, StorageError } from "./errors";
import { MultipartError, multipartForm } from "./multipart.server";
import { type StoredObject, type UploadMetadata, uploadMetadataSchema } from "./schemas";
import { type StagedUpload, type StorageService, tooLarge } from "./storage.server";
import type { AllowedType } from "./buckets.server";

/** Room for the multipart framing and the metadata part on top of the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_METADATA_BYTES = 16 * 1024;

export type StorageRoutesOptions = {
  storage: StorageService;
  auth: StorageAuth;
  context: StorageAuthContext;
};

export function storageRoutes({ storage, auth, context }: StorageRoutesOptions): RequestHandler {
  const { env, logger } = context;
  /** The store's origin for this request (see storeOrigin). */
  const ownOrigin = (req: ExpressRequest) => storeOrigin(env, `${req.protocol}://${req.host}`);

  const viewerOf = async (req: ExpressRequest): Promise<Viewer | null> =>
    auth(authRequest(req, ownOrigin(req)), context);

  /** A browser on another site must not write with this user's cookies. */
  const requireSameOrigin = (req: ExpressRequest) => {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== ownOrigin(req)) {
      throw new StorageError(
        "storage/unauthorized",
        "Changes to stored files must come from the store itself.",
      );
    }
  };

  async function upload(
    req: ExpressRequest,
    res: ExpressResponse,
    bucketName: string,
    query: URLSearchParams,
  ) {
    const fullPath = query.get("name");
    if (fullPath === null)
      throw new StorageError("storage/invalid-argument", "Give the object path as ?name=.");
    requireSameOrigin(req);
    const { bucket, viewer } = storage.authorizeUpload(await viewerOf(req), bucketName, fullPath);
    const form = multipartForm(req.headers, { maxParts: 4, maxFieldBytes: MAX_METADATA_BYTES });
    if (!form) throw new StorageError("storage/invalid-argument", "Send the file as multipart/form-data.");
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > bucket.maxObjectBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(bucket);
    // The client going away before the answer cancels the upload: nothing is stored.
    const canceled = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) canceled.abort();
    });

    let staged: StagedUpload | undefined;
    let declaredType: string | undefined;
    let metadataText: string | undefined;
    // Set as each part starts: a file is still being written when the next part arrives.
    let sawFile = false;
    let sawMetadata = false;
    const unexpected = (name: string) =>
      new StorageError(
        "storage/invalid-argument",
        `Unexpected form field ${JSON.stringify(name)}: send one "file" and optionally one "metadata".`,
      );
    try {
      await form.read(req, {
        field(name, value) {
          if (name === "metadata" && !sawMetadata) {
            sawMetadata = true;
            metadataText = value;
          } else if (name === "file" && !sawFile) {
            throw new StorageError("storage/invalid-argument", 'Send "file" as a file, with a file name.');
          } else throw unexpected(name);
        },
        async file(name, body, contentType) {
          if (name === "metadata" && !sawMetadata) {
            sawMetadata = true;
            metadataText = await readText(body, MAX_METADATA_BYTES);
          } else if (name === "file" && !sawFile) {
            sawFile = true;
            declaredType = contentType;
            staged = await storage.stage(bucket, body);
          } else throw unexpected(name);
        },
      });
      if (!staged) throw new StorageError("storage/invalid-argument", 'The form has no "file" field.');
      const metadata = parseMetadata(metadataText);
      const object = await storage.commit({
        viewer,
        bucket,
        fullPath,
        staged,
        metadata,
        declaredType,
        signal: canceled.signal,
      });
      staged = undefined;
      res.status(200).json(object);
    } catch (error) {
      await storage.discard(staged);
      if (canceled.signal.aborted) {
        logger.info({ bucket: bucket.name, fullPath }, "upload canceled by the client; nothing was stored");
        return;
      }
      throw error;
    }
  }

  async function download(
    req: ExpressRequest,
    res: ExpressResponse,
    bucketName: string,
    fullPath: string,
    token: string | undefined,
  ) {
    // A download with a token needs no identity.
    const viewer = token === undefined ? await viewerOf(req) : null;
    const { bucket, object, read } = await storage.open(viewer, bucketName, fullPath, token);
    const notModified = req.headers["if-none-match"]?.split(/\s*,\s*/).includes(`"${object.md5Hash}"`);
    // The bytes are opened before any header is set: when the file store fails, the error goes out as the API's JSON,
    // not under the file's type and cache headers.
    const stream = notModified || req.method === "HEAD" ? undefined : await read();
    const image = isImage(object.contentType as AllowedType);
    res.setHeader("Content-Type", object.contentType);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Disposition", downloadDisposition(object, image));
    res.setHeader(
      "Cache-Control",
      bucket.publicRead ? (object.cacheControl ?? "public, max-age=3600") : "private, no-cache",
    );
    res.setHeader("ETag", `"${object.md5Hash}"`);
    res.setHeader("Last-Modified", new Date(object.updated).toUTCString());
    if (object.contentLanguage) res.setHeader("Content-Language", object.contentLanguage);
    if (notModified) {
      res.status(304).end();
      return;
    }
    res.setHeader("Content-Length", String(object.size));
    if (!stream) {
      res.status(200).end();
      return;
    }
    res.status(200);
    try {
      await pipeline(stream, res);
    } catch (error) {
      // The client went away, or the store failed mid-file: nothing more can be said on this response.
      if (!res.destroyed) res.destroy();
      logger.info({ err: error, bucket: bucket.name, fullPath }, "download interrupted");
    }
  }

  async function route(req: ExpressRequest, res: ExpressResponse) {
    // req.url is relative to the mount point and still percent-encoded; no dot segment has been resolved.
    const queryAt = req.url.indexOf("?");
    const rawPath = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? "" : req.url.slice(queryAt + 1));
    const match = /^\/v0\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(rawPath);
    if (!match) throw new StorageError("storage/invalid-url", `No storage API at ${rawPath}.`);
    const bucketName = decode(match[1]!);
    const objectPath = match[2] === undefined ? undefined : decode(match[2]);
    const allow = (methods: string) => {
      res.setHeader("Allow", methods);
      return new StorageError("storage/invalid-url", `Use ${methods} here.`, { status: 405 });
    };

    if (objectPath === undefined) {
      if (req.method !== "POST") throw allow("POST");
      return upload(req, res, bucketName, query);
    }
    if (req.method === "GET" || req.method === "HEAD") {
      if (query.get("alt") === "media") {
        return download(req, res, bucketName, objectPath, query.get("token") ?? undefined);
      }
      res.json(await storage.getMetadata(await viewerOf(req), bucketName, objectPath));
      return;
    }
    if (req.method === "DELETE") {
      requireSameOrigin(req);
      await storage.remove(await viewerOf(req), bucketName, objectPath);
      res.status(204).end();
      return;
    }
    throw allow("GET, HEAD, DELETE");
  }

  return (req, res) => {
    route(req, res).catch((error: unknown) => sendError(req, res, error, context.logger));
  };
}

function sendError(
  req: ExpressRequest,
  res: ExpressResponse,
  error: unknown,
  logger: StorageAuthContext["logger"],
) {
  const log = (message: string) =>
    logger.error({ err: error, method: req.method, url: safeUrl(req.originalUrl) }, message);
  let failure: StorageError;
  if (isStorageError(error)) {
    failure = error;
    // The file store failing (S3 out of reach) is the operator's to see, with its cause.
    if (failure.code === "storage/unknown") log(failure.message);
  } else if (error instanceof MultipartError)
    failure = new StorageError("storage/invalid-argument", error.message);
  else if (diskFailure(error)) {
    failure = diskFailure(error)!;
    log(failure.message);
  } else {
    log("storage request failed");
    failure = new StorageError("storage/unknown", "Something went wrong with the file storage.");
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The body was not read to its end: close the connection rather than read (or wait for) the rest.
  if (!req.complete) res.setHeader("Connection", "close");
  res.status(failure.status).json(failure.toJSON());
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new StorageError("storage/invalid-url", "The URL has a malformed percent-encoding.");
  }
}

function parseMetadata(text: string | undefined): UploadMetadata {
  if (text === undefined || text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StorageError("storage/invalid-argument", 'The "metadata" field must be JSON.');
  }
  const parsed = uploadMetadataSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new StorageError(
      "storage/invalid-argument",
      `metadata${issue.path.map((key) => `.${String(key)}`).join("")}: ${issue.message}`,
    );
  }
  return parsed.data;
}

async function readText(body: AsyncIterable<Buffer>, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if ((size += chunk.length) > maxBytes)
      throw new StorageError("storage/invalid-argument", `The "metadata" field is over ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The extension each stored type that is not an image is saved with. */
const EXTENSIONS: Partial<Record<string, string>> = { "application/pdf": ".pdf" };

/**
 * How a download is presented. An image may be shown in the page (or saved, as its record says). Anything else,
 * PDFs included, is always saved as a file named with its type's extension: a document the browser opens itself
 * runs its own scripts and forms on the store's address.
 */
function downloadDisposition(object: StoredObject, image: boolean): string {
  if (image) return object.contentDisposition ?? contentDisposition("inline", object.name);
  const extension = EXTENSIONS[object.contentType] ?? "";
  const name = object.name.toLowerCase().endsWith(extension) ? object.name : `${object.name}${extension}`;
  return contentDisposition("attachment", name);
}

/** inline/attachment with the name, for every browser (an ASCII fallback, then the exact UTF-8 name). */
function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The request as the identity resolver sees it: method, URL and headers, no body. */
function authRequest(req: ExpressRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  let url: URL;
  try {
    url = new URL(`${publicUrl}${req.originalUrl}`);
  } catch {
    url = new URL(`${publicUrl}/api/storage`);
  }
  return new Request(url, { method: req.method, headers });
}
