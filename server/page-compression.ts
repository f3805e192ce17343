import { promisify } from "node:util";
import zlib from "node:zlib";
import type { ServerBuild } from "react-router";
import type { PageRun } from "./page-run";

/**
 * gzip for pages that carry a long run of bytes known beforehand: the inline stylesheet, half of a 100 KB page
 * (docs/decisions/0044-the-stylesheet-compressed-once.md). The run is compressed once, at gzip's best level, and
 * each page only around it, at the level asked for; the pieces are joined into one deflate stream. A deflate stream
 * is any number of blocks, and a sync flush ends a piece's blocks on a byte boundary without ending the stream
 * (RFC 1951), so the joined pieces are one ordinary gzip member that any client reads. A piece cannot refer back
 * into the one before it, which costs a few hundred bytes; compressing a brand page this way takes a third of the
 * time of compressing it whole at level 1, for a smaller body.
 *
 * A page without the run (another build's, a page of no stylesheet) is compressed whole, as it would be anyway.
 */
export type PageGzip = {
  /** The page in gzip, made on this thread. */
  now(page: Buffer, level: number): Buffer;
  /** The page in gzip, its pieces made on libuv's thread pool. */
  later(page: Buffer, level: number): Promise<Buffer>;
};

/** The gzip header Node writes: deflate, no name or time, Unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
const SYNC = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

/**
 * zlib's options for a piece of `length` bytes: a window no longer than the piece and an output buffer about as
 * long as its compressed form. With zlib's defaults (a 32 KB window, 16 KB of output) setting a stream up costs more
 * than compressing a page's 2 KB head (about 90 against 25 µs).
 */
function fitted(level: number, length: number): zlib.ZlibOptions {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 1))));
  return { level, windowBits, chunkSize: Math.min(16 * 1024, Math.max(1024, 2 ** (windowBits - 1))) };
}
const deflateRaw = promisify(zlib.deflateRaw) as (page: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;
const gzip = promisify(zlib.gzip) as (page: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;

export function createPageGzip(run: PageRun | undefined): PageGzip {
  if (!run) {
    return {
      now: (page, level) => zlib.gzipSync(page, { level }),
      later: (page, level) => gzip(page, { level }),
    };
  }
  const compressedRun = zlib.deflateRawSync(run.bytes, { level: zlib.constants.Z_BEST_COMPRESSION, ...SYNC });
  const member = (page: Buffer, at: number, before: Buffer, after: Buffer) => {
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(run.crc32(page, at), 0);
    trailer.writeUInt32LE(page.length % 2 ** 32, 4);
    return Buffer.concat([HEADER, before, compressedRun, after, trailer]);
  };
  /** What is compressed of a page around the run, with zlib's options for each piece. */
  const piecesOf = (page: Buffer, at: number, level: number) => {
    const [before, after] = [page.subarray(0, at), page.subarray(at + run.bytes.length)];
    return [
      [before, { ...fitted(level, before.length), ...SYNC }],
      [after, fitted(level, after.length)],
    ] as const;
  };
  return {
    now(page, level) {
      const at = run.at(page);
      if (at < 0) return zlib.gzipSync(page, { level });
      const [before, after] = piecesOf(page, at, level).map(([piece, options]) =>
        zlib.deflateRawSync(piece, options),
      );
      return member(page, at, before!, after!);
    },
    async later(page, level) {
      const at = run.at(page);
      if (at < 0) return gzip(page, { level });
      const [before, after] = await Promise.all(
        piecesOf(page, at, level).map(([piece, options]) => deflateRaw(piece, options)),
      );
      return member(page, at, before!, after!);
    },
  };
}

/** The stylesheet the app's server entry writes into every page (app/entry.server.tsx), as the page carries it. */
export function inlineStylesheetOf(build: ServerBuild): Buffer | undefined {
  const stylesheet = (build.entry.module as { inlineStylesheet?: unknown }).inlineStylesheet;
  return typeof stylesheet === "string" ? Buffer.from(stylesheet) : undefined;
}
