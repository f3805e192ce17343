import { createHash, randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { pageEtag, pageRun } from "./page-run";

const run = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `.c${i}{padding:${i % 5}px}`)
    .join("")
    .concat("ü€"),
);
const page = (before: string, after: string) => Buffer.concat([Buffer.from(before), run, Buffer.from(after)]);
const sha256Etag = (bytes: Buffer) =>
  `W/"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;

describe("pageRun", () => {
  const stylesheet = pageRun(run)!;

  it("finds the run in a page, and only the whole run", () => {
    expect(stylesheet.at(page("<head><style>", "</style></head>"))).toBe("<head><style>".length);
    expect(stylesheet.at(run)).toBe(0);
    expect(stylesheet.at(Buffer.from("<p>no stylesheet</p>"))).toBe(-1);
    expect(stylesheet.at(run.subarray(0, run.length - 1))).toBe(-1);
    const changed = Buffer.from(run);
    changed[changed.length - 8] = "!".charCodeAt(0);
    expect(stylesheet.at(changed)).toBe(-1);
  });

  it("gives a page's CRC-32 as zlib does over the whole page, whatever is around the run", () => {
    for (const [before, after] of [
      ["", ""],
      ["<head><style>", "</style><main>McAfee</main>"],
      [randomBytes(3000).toString("base64"), randomBytes(20_000).toString("hex")],
      ["\u{1F600}", ""],
    ] as const) {
      const html = page(before, after);
      expect(stylesheet.crc32(html, stylesheet.at(html))).toBe(zlib.crc32(html));
    }
  });

  it("is not worth it for a short run, or none", () => {
    expect(pageRun(Buffer.from("body{margin:0}"))).toBeUndefined();
    expect(pageRun(undefined)).toBeUndefined();
  });
});

describe("pageEtag", () => {
  const stylesheet = pageRun(run)!;
  const html = page("<head><style>", "</style><main>McAfee Total Protection</main>");

  it("is the same for the same bytes and changes with any byte before, in or after the run", () => {
    expect(pageEtag(Buffer.from(html), stylesheet)).toBe(pageEtag(html, stylesheet));
    expect(pageEtag(html, stylesheet)).toMatch(/^W\/"[\w-]{27}"$/);
    const tags = new Set([pageEtag(html, stylesheet)]);
    for (const at of [3, "<head><style>".length + 100, html.length - 5]) {
      const changed = Buffer.from(html);
      changed[at]! ^= 1;
      tags.add(pageEtag(changed, stylesheet));
    }
    expect(tags.size).toBe(4);
  });

  it("hashes a page without the run whole, as without a run at all", () => {
    const plain = Buffer.from("<main>no stylesheet</main>");
    expect(pageEtag(plain, stylesheet)).toBe(sha256Etag(plain));
    expect(pageEtag(html, undefined)).toBe(sha256Etag(html));
    expect(pageEtag(html, stylesheet)).not.toBe(sha256Etag(html));
  });
});
