/**
 * Request bodies are bounded while they arrive, here and only here, for every route and API (better-auth's and the
 * file storage's included): a body over its path's limit is answered 413 with a short message, and never reaches
 * a route. A declared Content-Length over the limit is refused before a byte of the body is read; a body sent in
 * chunks is counted as it arrives and cut off at the limit.
 *
 * A client still sending when the answer comes may miss it if the connection closes under it (browsers and fetch
 * report a network error instead). So a body of a few megabytes is read on and dropped, and the connection stays
 * usable; anything bigger, and every chunked body over its limit, has its connection closed at once.
 */
import type { IncomingMessage } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { Env } from "~/lib/env.server";
import { formatBytes } from "~/lib/byte-size";
import { IMPORT_MAX_BYTES, KEY_IMPORT_MAX_BYTES } from "~/modules/admin/product-import";
import { importTooLargeMessage, textUploadLimit } from "~/modules/admin/product-upload.server";
import { PAGE_FORM_BYTES } from "~/modules/admin/content-schemas";
import { MULTIPART_OVERHEAD_BYTES } from "~/modules/storage/http.server";
import { refuse } from "./refusal";
import { pathOf } from "./request-path";

const KiB = 1024;

/** Every form and JSON body of the store fits: a 5,000-character message in any script, percent-encoded. */
export const DEFAULT_BODY_LIMIT_BYTES = 128 * KiB;

/** The largest refused body that is read on (and dropped) so that its sender hears the answer. */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * KiB;

/** The most bytes a body may have at a path, and what a larger one is told. */
export type BodyLimit = { bytes: number; message: string };

const requestLimit = (bytes: number): BodyLimit => ({
  bytes,
  message: `This request is too large: this address takes at most ${formatBytes(bytes)}.`,
});

/** An import's file (or pasted text) and the small fields beside it; the admin hears the file's limit. */
const importLimit = (maxBytes: number): BodyLimit => ({
  bytes: textUploadLimit(maxBytes),
  message: importTooLargeMessage(maxBytes),
});

/** The most bytes a body may have at each path; the few pages that take files or long texts say so here. */
export function bodyLimits(env: Pick<Env, "STORAGE_MAX_OBJECT_BYTES">): (path: string) => BodyLimit {
  // A page's own path, or the same path with React Router's ".data" (how its forms post with JavaScript).
  const page = (path: string) => new RegExp(`^${path}(?:\\.data)?/?$`, "i");
  const table: Array<[RegExp, BodyLimit]> = [
    [
      /^\/api\/storage\//i,
      // The uploader reads this: the limit of the file, not of the request that carries it.
      {
        bytes: env.STORAGE_MAX_OBJECT_BYTES + MULTIPART_OVERHEAD_BYTES,
        message: `The file is larger than ${formatBytes(env.STORAGE_MAX_OBJECT_BYTES)}, the most one upload takes.`,
      },
    ],
    [page("/admin/products/import"), importLimit(IMPORT_MAX_BYTES)],
    [page("/admin/keys"), importLimit(KEY_IMPORT_MAX_BYTES)],
    [page("/admin/pages/[^/]+"), requestLimit(PAGE_FORM_BYTES)],
  ];
  const otherwise = requestLimit(DEFAULT_BODY_LIMIT_BYTES);
  return (path) => table.find(([pattern]) => pattern.test(path))?.[1] ?? otherwise;
}

export function limitRequestBodies(limitFor: (path: string) => BodyLimit): RequestHandler {
  return (req, res, next) => {
    const limit = limitFor(pathOf(req));
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) > limit.bytes) {
      // Node reads exactly the declared length as the body, so draining it is bounded too.
      tooLarge(req, res, limit, { close: Number(declared) > DRAIN_LIMIT_BYTES });
      return;
    }
    if (declared === undefined && req.headers["transfer-encoding"] !== undefined) {
      countWhileReading(req, limit.bytes, () => tooLarge(req, res, limit, { close: true }));
    }
    next();
  };
}

/**
 * Counts the bytes of a body of unknown length as Node's HTTP parser hands them over (it pushes each piece into
 * the request stream), so nothing downstream ever sees more than the limit, however it reads the body.
 */
function countWhileReading(req: IncomingMessage, limit: number, onOverflow: () => void) {
  let received = 0;
  let overflowed = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (overflowed) return false;
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Buffer).length;
      if (received > limit) {
        overflowed = true;
        onOverflow();
        return false;
      }
    }
    return push(chunk, encoding);
  };
}

function tooLarge(req: Request, res: Response, limit: BodyLimit, { close }: { close: boolean }) {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  // Once the answer is sent, Node closes the connection (the rest of the body is never read), or else reads the
  // rest of the body and drops it.
  if (close) res.set("Connection", "close");
  refuse(req, res, 413, limit.message);
}
