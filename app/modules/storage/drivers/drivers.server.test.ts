import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readAll, StorageKeyError } from "./driver.server";
import { LocalDiskDriver } from "./local-disk.server";
import { S3Driver } from "./s3.server";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "storefront-driver-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function staged(name: string, content: string) {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const bytes = Buffer.from(content);
  return {
    path: file,
    size: bytes.length,
    md5: createHash("md5").update(bytes).digest("base64"),
    contentType: "image/png",
  };
}

describe("the local disk driver", () => {
  it("moves a staged file under root/<key>, reads it back and deletes it with its empty folders", async () => {
    const driver = new LocalDiskDriver(path.join(dir, "storage"));
    const file = await staged("a.upload", "hello");
    await driver.put("products/brands/logo.png#g1", file);
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(path.join(dir, "storage/products/brands/logo.png#g1"))).toBe(true);
    expect((await driver.get("products/brands/logo.png#g1"))?.toString()).toBe("hello");
    expect((await readAll((await driver.stream("products/brands/logo.png#g1"))!)).toString()).toBe("hello");
    expect(await driver.get("products/brands/other.png#g1")).toBeNull();
    expect(await driver.stream("products/brands/logo.png#g1/deeper")).toBeNull();

    await driver.delete("products/brands/logo.png#g1");
    await driver.delete("products/brands/logo.png#g1"); // already gone: fine
    expect(await driver.get("products/brands/logo.png#g1")).toBeNull();
    // The empty folders go, the bucket's own folder stays.
    expect(await readdir(path.join(dir, "storage/products"))).toEqual([]);
  });

  it("refuses keys that could leave its root", async () => {
    const driver = new LocalDiskDriver(path.join(dir, "storage"));
    for (const key of [
      "../outside",
      "products/../../outside",
      "/etc/passwd",
      "a//b",
      "a/./b",
      "a\\..\\b",
      "a\0b",
    ]) {
      expect(() => driver.filePath(key)).toThrow(StorageKeyError);
      await expect(driver.put(key, await staged("x.upload", "x"))).rejects.toThrow(StorageKeyError);
    }
    expect(await readdir(dir)).toEqual(["x.upload"]);
  });
});

/**
 * S3Driver against a local HTTP server that records what the SDK sends (and keeps PUT bodies to answer GETs). No real
 * S3 is reachable here, so this checks how the commands are built and signed, not S3 itself.
 */
describe("the S3 driver", () => {
  type Recorded = { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer };
  let server: http.Server;
  let endpoint: string;
  const recorded: Recorded[] = [];
  const objects = new Map<string, Buffer>();

  beforeEach(async () => {
    recorded.length = 0;
    objects.clear();
    server = http.createServer(async (req, res) => {
      const body = await readAll(req);
      const url = req.url!;
      recorded.push({ method: req.method!, url, headers: req.headers, body });
      const key = url.split("?")[0]!;
      if (req.method === "PUT") {
        objects.set(key, body);
        res.writeHead(200, { ETag: '"etag"' }).end();
      } else if (req.method === "GET" && objects.has(key)) {
        res.writeHead(200, { "Content-Type": "image/png" }).end(objects.get(key));
      } else if (req.method === "GET") {
        res
          .writeHead(404, { "Content-Type": "application/xml" })
          .end("<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>");
      } else if (req.method === "DELETE") {
        objects.delete(key);
        res.writeHead(204).end();
      } else res.writeHead(405).end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const driver = () =>
    new S3Driver({
      bucket: "store-files",
      region: "auto",
      endpoint,
      credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "test-secret" },
      forcePathStyle: true,
    });

  it("puts a staged file with its length, type and Content-MD5, signed, without checksum trailers", async () => {
    const file = await staged("b.upload", "png bytes");
    await driver().put("products/a b/logo.png#g1", file);
    expect(existsSync(file.path)).toBe(false);
    expect(recorded).toHaveLength(1);
    const [put] = recorded;
    expect(put!.method).toBe("PUT");
    expect(put!.url.split("?")[0]).toBe("/store-files/products/a%20b/logo.png%23g1");
    expect(put!.body.toString()).toBe("png bytes");
    expect(put!.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": String(file.size),
      "content-md5": file.md5,
    });
    expect(put!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/auto\/s3\/aws4_request, SignedHeaders=.*content-md5.*, Signature=[0-9a-f]{64}$/,
    );
    expect(put!.headers["x-amz-content-sha256"]).toBeDefined();
    // S3-compatible stores often refuse aws-chunked bodies with CRC trailers: none are sent.
    expect(put!.headers["content-encoding"]).toBeUndefined();
    expect(Object.keys(put!.headers).filter((name) => name.startsWith("x-amz-checksum"))).toEqual([]);
  });

  it("gets an object's bytes, null for a missing key, and deletes", async () => {
    const s3 = driver();
    await s3.put("uploads/users/u1/f.pdf#g2", await staged("c.upload", "%PDF-1.4 ..."));
    expect((await s3.get("uploads/users/u1/f.pdf#g2"))?.toString()).toBe("%PDF-1.4 ...");
    expect(await s3.get("uploads/users/u1/missing.pdf#g2")).toBeNull();
    await s3.delete("uploads/users/u1/f.pdf#g2");
    expect(recorded.map((request) => `${request.method} ${request.url.split("?")[0]}`)).toEqual([
      "PUT /store-files/uploads/users/u1/f.pdf%23g2",
      "GET /store-files/uploads/users/u1/f.pdf%23g2",
      "GET /store-files/uploads/users/u1/missing.pdf%23g2",
      "DELETE /store-files/uploads/users/u1/f.pdf%23g2",
    ]);
    await expect(s3.get("../escape")).rejects.toThrow(StorageKeyError);
  });
});
