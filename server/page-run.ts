import { createHash, hash } from "node:crypto";
import zlib from "node:zlib";

/**
 * A long run of bytes known before any page is rendered and carried by nearly every one: the inline stylesheet, half
 * of a 100 KB brand page. What is computed over a whole page (gzip's CRC-32, the ETag's hash) is worked out for the
 * run once, so a page costs only what is around it (docs/decisions/0044-the-stylesheet-compressed-once.md).
 */
export type PageRun = {
  bytes: Buffer;
  /** Where the run starts in the page, or -1. */
  at(page: Buffer): number;
  /** The CRC-32 of a page carrying the run at `at`, as zlib.crc32 gives it for the whole page. */
  crc32(page: Buffer, at: number): number;
  /** The run's SHA-256, standing for it in a page's ETag. */
  digest: Buffer;
};

/** Enough of the run's start to find it in a page at once; the rest is compared byte for byte. */
const PROBE_BYTES = 64;
/** Shorter runs are not worth working out apart. */
const SHORTEST_RUN = 4096;

export function pageRun(bytes: Buffer | undefined): PageRun | undefined {
  if (!bytes || bytes.length < SHORTEST_RUN) return undefined;
  const probe = bytes.subarray(0, PROBE_BYTES);
  // A CRC-32 carried across the run is an affine map of the CRC before it: the CRC from 0, and for each bit set
  // before, what that bit alone changes (zlib's crc32_combine works the same way, over GF(2)).
  const fromZero = zlib.crc32(bytes, 0);
  const byBit = Uint32Array.from({ length: 32 }, (_, bit) => zlib.crc32(bytes, 2 ** bit) ^ fromZero);
  const across = (crc: number) => {
    let after = fromZero;
    for (let bit = 0; crc !== 0; bit++, crc >>>= 1) if (crc & 1) after ^= byBit[bit]!;
    return after >>> 0;
  };
  return {
    bytes,
    at(page) {
      const at = page.indexOf(probe);
      const found = at >= 0 && at + bytes.length <= page.length;
      return found && page.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0 ? at : -1;
    },
    crc32(page, at) {
      const before = zlib.crc32(page.subarray(0, at));
      return zlib.crc32(page.subarray(at + bytes.length), across(before));
    },
    digest: hash("sha256", bytes, "buffer"),
  };
}

/**
 * A page's weak ETag: a hash of its bytes, the run's own hash in the run's place (a page's run is its build's, so
 * it changes only with it). Half the hashing of a brand page.
 */
export function pageEtag(page: Buffer, run: PageRun | undefined): string {
  const at = run ? run.at(page) : -1;
  const digest =
    run && at >= 0
      ? createHash("sha256")
          .update(page.subarray(0, at))
          .update(run.digest)
          .update(page.subarray(at + run.bytes.length))
          .digest("base64url")
      : hash("sha256", page, "base64url");
  return `W/"${digest.slice(0, 27)}"`;
}
