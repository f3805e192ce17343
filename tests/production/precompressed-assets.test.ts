import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppTestServer, startAppServer } from "../support/app-server";
import { rawRequest } from "../support/store-process";

// The build's scripts are sent as the build compressed them (scripts/compress-assets.mjs, ADR 0049): a request costs
// the server no compressing, and its body is the smallest each format makes.

const ASSETS = "build/client/assets";
const scripts = readdirSync(ASSETS).filter((name) => name.endsWith(".js"));
const vendor = scripts.find((name) => name.startsWith("vendor-"))!;

describe("the build's scripts", () => {
  it("each have a brotli and a gzip copy beside them that decompress to the script, but the smallest", () => {
    const compressed = scripts.filter((name) => statSync(path.join(ASSETS, name)).size >= 1024);
    expect(compressed.length).toBeGreaterThan(20);
    for (const name of compressed) {
      const script = readFileSync(path.join(ASSETS, name));
      expect(
        zlib.brotliDecompressSync(readFileSync(path.join(ASSETS, `${name}.br`))).equals(script),
        name,
      ).toBe(true);
      expect(zlib.gunzipSync(readFileSync(path.join(ASSETS, `${name}.gz`))).equals(script), name).toBe(true);
    }
    // Compressed as hard as brotli goes: its best quality, not the light one a page made for one request gets.
    const script = readFileSync(path.join(ASSETS, vendor));
    const light = zlib.brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } });
    expect(statSync(path.join(ASSETS, `${vendor}.br`)).size).toBeLessThan(light.length * 0.9);
  });
});

describe("a script asked of the store", () => {
  let server: AppTestServer;
  beforeAll(async () => {
    server = await startAppServer("pglite");
  });
  afterAll(async () => {
    await server?.close();
  });

  const ask = (acceptEncoding: string) =>
    rawRequest(server.url, { target: `/assets/${vendor}`, headers: { "accept-encoding": acceptEncoding } });

  it("comes in the build's brotli copy to a client that takes brotli, its length said, kept for a year", async () => {
    const answer = await ask("gzip, deflate, br, zstd");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.body.equals(readFileSync(path.join(ASSETS, `${vendor}.br`)))).toBe(true);
    expect(answer.headers["content-length"]).toBe(String(answer.body.length));
    expect(answer.headers["content-type"]).toMatch(/^text\/javascript; charset=utf-8$/i);
    expect(answer.headers.vary).toMatch(/Accept-Encoding/);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("comes in the gzip copy to a client that takes only gzip, and as it is to one that takes neither", async () => {
    const gzip = await ask("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals(readFileSync(path.join(ASSETS, `${vendor}.gz`)))).toBe(true);
    expect(gzip.headers["content-length"]).toBe(String(gzip.body.length));

    for (const refusing of ["identity", "br;q=0, gzip;q=0"]) {
      const plain = await ask(refusing);
      expect(plain.headers["content-encoding"], refusing).toBeUndefined();
      expect(plain.body.equals(readFileSync(path.join(ASSETS, vendor))), refusing).toBe(true);
    }
  });
});
