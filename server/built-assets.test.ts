import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { describe, expect, it } from "vitest";
import { serverFor } from "../tests/support/http-server";
import { rawRequest } from "../tests/support/store-process";
import { builtAssets } from "./built-assets";

const dir = mkdtempSync(path.join(tmpdir(), "built-assets-"));
const script = Buffer.from(`export const greeting = "${"hello ".repeat(400)}";\n`);
const brotli = zlib.brotliCompressSync(script);
const gzip = zlib.gzipSync(script);
// A name with ".br" and ".gz" inside it, as the build's route chunks have (admin.brand-content-...).
const names = ["entry-abc123.js", "admin.brand-content-B497UrWp.js", "admin.gz-page-x1.js"];
for (const name of names) {
  writeFileSync(path.join(dir, name), script);
  writeFileSync(path.join(dir, `${name}.br`), brotli);
  writeFileSync(path.join(dir, `${name}.gz`), gzip);
}
writeFileSync(path.join(dir, "lonely-def456.js"), script);

describe("the build's files", () => {
  const app = express();
  app.use("/assets", builtAssets(dir));
  app.use((_req, res) => res.status(404).type("text/plain").send("no such file"));
  const { port } = serverFor(app, { HEADERS_TIMEOUT_SECONDS: 5, REQUEST_TIMEOUT_SECONDS: 5 });
  const ask = (target: string, headers: Record<string, string> = {}, method = "GET") =>
    rawRequest(`http://127.0.0.1:${port()}`, { target, headers, method });

  it("are sent in the brotli copy to a client that takes it, else gzip, else as they are, whatever their name", async () => {
    for (const name of names) {
      const br = await ask(`/assets/${name}`, { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(br.headers["content-encoding"], name).toBe("br");
      expect(br.body.equals(brotli), name).toBe(true);
      expect(br.headers["content-length"], name).toBe(String(brotli.length));
      expect(br.headers["content-type"], name).toMatch(/^text\/javascript; charset=utf-8$/i);
      expect(br.headers.vary, name).toBe("Accept-Encoding");
      expect(br.headers["cache-control"], name).toBe("public, max-age=31536000, immutable");

      const gz = await ask(`/assets/${name}`, { "accept-encoding": "GZIP, br;q=0" });
      expect(gz.headers["content-encoding"], name).toBe("gzip");
      expect(gz.body.equals(gzip), name).toBe(true);

      const plain = await ask(`/assets/${name}`, { "accept-encoding": "identity" });
      expect(plain.headers["content-encoding"], name).toBeUndefined();
      expect(plain.body.equals(script), name).toBe(true);
    }
  });

  it("answer HEAD with the copy's headers and no body, and a known ETag with 304", async () => {
    const head = await ask(`/assets/${names[0]}`, { "accept-encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(String(brotli.length));
    expect(head.body.length).toBe(0);
    const again = await ask(`/assets/${names[0]}`, {
      "accept-encoding": "br",
      "if-none-match": String(head.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("send a file without copies as it is, and leave what is not there to the app, never saying it is compressed", async () => {
    const lonely = await ask("/assets/lonely-def456.js", { "accept-encoding": "br" });
    expect(lonely.headers["content-encoding"]).toBeUndefined();
    expect(lonely.body.equals(script)).toBe(true);

    const missing = await ask("/assets/nothing-here.js", { "accept-encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();

    // A range the copy does not have, and a copy gone from the disk (a build made again under a running store).
    const range = await ask(`/assets/${names[1]}`, { "accept-encoding": "br", range: "bytes=900000-900010" });
    expect(range.headers["content-encoding"]).toBeUndefined();
    rmSync(path.join(dir, `${names[2]}.br`));
    const gone = await ask(`/assets/${names[2]}`, { "accept-encoding": "br" });
    expect(gone.status).toBe(404);
    expect(gone.headers["content-encoding"]).toBeUndefined();
    expect(gone.body.toString()).toBe("no such file");
  });
});
