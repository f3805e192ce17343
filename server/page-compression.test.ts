import { randomBytes } from "node:crypto";
import zlib, { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createPageGzip } from "./page-compression";
import { pageRun } from "./page-run";

/** A stylesheet-like run: long, repetitive text, as Tailwind writes. */
const run = Buffer.from(
  Array.from(
    { length: 600 },
    (_, i) => `.c${i}{margin:${i % 7}px;color:#${(i * 7919).toString(16).padStart(6, "0")}}`,
  ).join(""),
);
const page = (head: string, body: string) =>
  Buffer.concat([Buffer.from(`${head}<style>`), run, Buffer.from(`</style>${body}`)]);
/** The run as the compressor keeps it: what a joined page carries byte for byte. */
const compressedRun = zlib.deflateRawSync(run, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });

describe("createPageGzip", () => {
  const gzip = createPageGzip(pageRun(run));

  it("makes one gzip member that decodes to the page, with the run compressed once, now and later", async () => {
    const html = page(
      "<!DOCTYPE html><html><head><title>McAfee</title>",
      `<main>${"<p>McAfee Total Protection</p>".repeat(200)}</main></html>`,
    );
    for (const body of [gzip.now(html, 1), await gzip.later(html, 1), gzip.now(html, 9)]) {
      expect(gunzipSync(body).equals(html)).toBe(true);
      expect(body.includes(compressedRun)).toBe(true);
      // One member: what `gunzip` reads with its trailer checked (CRC-32 and length of the whole page).
      expect(body.readUInt32LE(body.length - 4)).toBe(html.length);
      expect(body.readUInt32LE(body.length - 8)).toBe(zlib.crc32(html));
    }
  });

  it("costs no more bytes than compressing the page whole at the same level", () => {
    const html = page("<head>", `<main>${randomBytes(2000).toString("hex")}</main>`);
    expect(gzip.now(html, 1).length).toBeLessThanOrEqual(zlib.gzipSync(html, { level: 1 }).length);
  });

  it("joins pages whose run starts or ends them, or comes twice", () => {
    for (const html of [
      run,
      Buffer.concat([run, Buffer.from("<p>after</p>")]),
      Buffer.concat([Buffer.from("<p>before</p>"), run]),
      Buffer.concat([run, Buffer.from("<hr>"), run]),
    ]) {
      const body = gzip.now(html, 1);
      expect(gunzipSync(body).equals(html)).toBe(true);
      expect(body.includes(compressedRun)).toBe(true);
    }
  });

  it("compresses whole a page without the run, or with only its start", async () => {
    const changed = Buffer.from(run);
    changed[changed.length - 10] = "!".charCodeAt(0);
    for (const html of [
      Buffer.from("<p>no stylesheet</p>"),
      Buffer.alloc(0),
      page("<head>", "").subarray(0, 200),
      Buffer.concat([Buffer.from("<style>"), changed, Buffer.from("</style>")]),
    ]) {
      for (const body of [gzip.now(html, 1), await gzip.later(html, 1)]) {
        expect(gunzipSync(body).equals(html)).toBe(true);
        expect(body.includes(compressedRun)).toBe(false);
      }
    }
  });

  it("compresses pages whole when no run is given, or one too short to be worth it", () => {
    const html = page("<head>", "<p>body</p>");
    for (const without of [createPageGzip(undefined), createPageGzip(pageRun(Buffer.from("short")))]) {
      const body = without.now(html, 1);
      expect(gunzipSync(body).equals(html)).toBe(true);
      expect(body.includes(compressedRun)).toBe(false);
    }
  });
});
