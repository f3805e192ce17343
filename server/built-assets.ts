import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler, type Response } from "express";
import { preferredEncoding } from "./page-cache";

type Encoding = "br" | "gzip";
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

/**
 * The build's hashed files (`build/client/assets`): names that never change, so kept by browsers for a year, and sent
 * in the brotli or gzip copy the build wrote beside a file (scripts/compress-assets.mjs, ADR 0049) when the client
 * takes that encoding, so that no request pays for compressing them. A file without copies is sent as it is (the
 * `compression` middleware compresses it, if it is large enough). What no file answers goes on to the app.
 */
export function builtAssets(dir: string): RequestHandler {
  const copies = new Map<string, Set<Encoding>>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    for (const encoding of ["br", "gzip"] as const) {
      if (!name.endsWith(SUFFIX[encoding])) continue;
      const file = `/${name.slice(0, -SUFFIX[encoding].length)}`;
      copies.set(file, (copies.get(file) ?? new Set()).add(encoding));
    }
  }
  const options = { immutable: true, maxAge: "1y", index: false } as const;
  const asItIs = express.static(dir, options);
  // The copy's headers are set once it is found and about to be sent, so that no other answer carries them.
  const copy = (encoding: Encoding) =>
    express.static(dir, {
      ...options,
      setHeaders(res: Response, file: string) {
        res.setHeader("Content-Encoding", encoding);
        res.type(path.extname(file.slice(0, -SUFFIX[encoding].length)));
      },
    });
  const sendCopy = { br: copy("br"), gzip: copy("gzip") };

  return (req, res, next) => {
    const available = copies.get(req.path);
    if (!available) return asItIs(req, res, next);
    res.vary("Accept-Encoding");
    const encoding = preferredEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity" || !available.has(encoding)) return asItIs(req, res, next);
    const url = req.url;
    req.url = `${req.path}${SUFFIX[encoding]}`;
    sendCopy[encoding](req, res, (error?: unknown) => {
      req.url = url;
      // The copy was not sent (gone from the disk, a range it does not have): whatever answers must not say it was.
      res.removeHeader("Content-Encoding");
      next(error);
    });
  };
}
