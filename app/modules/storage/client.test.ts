import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { drivers } from "../../../tests/support/database";
import { startStorageServer, type StorageTestServer } from "../../../tests/support/storage";
import {
  createStorageClient,
  MAX_OPERATION_RETRY_MS,
  MAX_UPLOAD_RETRY_MS,
  type RetryEvent,
  StorageError,
  type UploadProgress,
} from "./client";

/** A real HTTP server that fails the first `failures` requests (with `status`, or by dropping the connection). */
function flakyServer() {
  const state = {
    failures: 0,
    status: 503 as number | "drop" | "hang",
    requests: [] as Array<{ method: string; size: number }>,
  };
  const server = http.createServer((req, res) => {
    let size = 0;
    req.on("data", (chunk: Buffer) => (size += chunk.length));
    req.on("end", () => {
      state.requests.push({ method: req.method!, size });
      if (state.requests.length <= state.failures) {
        if (state.status === "drop") return req.socket.destroy();
        if (state.status === "hang") return; // never answers
        res.writeHead(state.status, { "content-type": "application/json" });
        const code = state.status === 403 ? "storage/unauthorized" : "storage/unknown";
        return res.end(JSON.stringify({ error: { code, message: "try later" } }));
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ bucket: "uploads", fullPath: "a.png", downloadTokens: ["t1"] }));
    });
  });
  return { server, state };
}

describe("the storage client's retries", () => {
  let flaky: ReturnType<typeof flakyServer>;
  let baseUrl: string;
  beforeEach(async () => {
    flaky = flakyServer();
    flaky.server.listen(0, "127.0.0.1");
    await once(flaky.server, "listening");
    baseUrl = `http://127.0.0.1:${(flaky.server.address() as AddressInfo).port}`;
    // Only the client's waits are fake; sockets and setImmediate stay real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    flaky.server.closeAllConnections();
    await new Promise((resolve) => flaky.server.close(resolve));
  });

  /**
   * Runs an operation to its end: real network I/O in between, and each backoff wait passed at once on the fake
   * clock. Returns the outcome, the waits and the fake time spent.
   */
  async function drive<T>(operation: (onRetry: (event: RetryEvent) => void) => Promise<T>) {
    const retries: RetryEvent[] = [];
    const started = Date.now();
    let outcome: { value?: T; error?: unknown } | undefined;
    operation((event) => retries.push(event)).then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    for (let passed = 0, spins = 0; !outcome; spins++) {
      if (spins > 200_000) throw new Error("the operation never ended");
      if (retries.length > passed) await vi.advanceTimersByTimeAsync(retries[passed++]!.delayMs);
      else await new Promise((resolve) => setImmediate(resolve));
    }
    return { ...outcome, retries, elapsed: Date.now() - started };
  }

  it("retries failed operations with exponential backoff, then succeeds", async () => {
    flaky.state.failures = 3;
    const result = await drive((onRetry) =>
      createStorageClient({ baseUrl, random: () => 0.5, onRetry }).getMetadata("uploads", "a.png"),
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toMatchObject({ fullPath: "a.png" });
    expect(result.retries.map((event) => event.delayMs)).toEqual([1500, 2500, 4500]);
    expect(result.retries.map((event) => event.error.status)).toEqual([503, 503, 503]);
    expect(flaky.state.requests).toHaveLength(4);
  });

  it("gives up on an operation with storage/retry-limit-exceeded before 120000 ms", async () => {
    flaky.state.failures = Infinity;
    const result = await drive((onRetry) =>
      createStorageClient({ baseUrl, random: () => 0, onRetry }).getMetadata("uploads", "a.png"),
    );
    expect(result.error).toBeInstanceOf(StorageError);
    expect((result.error as StorageError).code).toBe("storage/retry-limit-exceeded");
    // 1 + 2 + 4 + 8 + 16 + 32 s waited; another 64 s would pass 120 s.
    expect(result.retries.map((event) => event.delayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 32000]);
    expect(result.elapsed).toBe(63_000);
    expect(result.elapsed + 64_000).toBeGreaterThan(MAX_OPERATION_RETRY_MS);
    expect(flaky.state.requests).toHaveLength(7);
  });

  it("keeps retrying an upload for up to 600000 ms, resending the whole file each time", async () => {
    flaky.state.failures = Infinity;
    flaky.state.status = "drop"; // no answer at all: a network error
    const file = new Blob([new Uint8Array(5000)], { type: "image/png" });
    const result = await drive((onRetry) =>
      createStorageClient({ baseUrl, random: () => 0, onRetry }).uploadFile("uploads", "a.png", file),
    );
    expect((result.error as StorageError).code).toBe("storage/retry-limit-exceeded");
    // 63 s, then 64 s waits up to 575 s; one more would pass 600 s.
    expect(result.retries.map((event) => event.delayMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 64000, 64000, 64000, 64000, 64000, 64000, 64000, 64000,
    ]);
    expect(result.elapsed).toBe(575_000);
    expect(result.elapsed + 64_000).toBeGreaterThan(MAX_UPLOAD_RETRY_MS);
    expect(flaky.state.requests).toHaveLength(15);
    expect(flaky.state.requests.every((request) => request.method === "POST" && request.size > 5000)).toBe(
      true,
    );
  });

  it("does not retry an answer that will not change (4xx), and reports its code", async () => {
    flaky.state.failures = 1;
    flaky.state.status = 403;
    const result = await drive((onRetry) =>
      createStorageClient({ baseUrl, onRetry }).deleteObject("uploads", "a.png"),
    );
    expect(result.error).toMatchObject({ code: "storage/unauthorized", status: 403 });
    expect(result.retries).toEqual([]);
    expect(flaky.state.requests).toHaveLength(1);
  });

  it("cancels during a wait between attempts: storage/canceled, no further attempt", async () => {
    flaky.state.failures = Infinity;
    const controller = new AbortController();
    const result = await drive((onRetry) =>
      createStorageClient({
        baseUrl,
        onRetry: (event) => {
          onRetry(event);
          controller.abort();
        },
      }).uploadFile("uploads", "a.png", new Blob(["x"]), { signal: controller.signal }),
    );
    expect(result.error).toMatchObject({ code: "storage/canceled" });
    expect(flaky.state.requests).toHaveLength(1);
  });

  it("cancels an upload waiting for its answer: storage/canceled, not retried", async () => {
    flaky.state.failures = Infinity;
    flaky.state.status = "hang";
    const controller = new AbortController();
    const retries: RetryEvent[] = [];
    const upload = createStorageClient({ baseUrl, onRetry: (event) => retries.push(event) }).uploadFile(
      "uploads",
      "a.png",
      new Blob(["x"]),
      { signal: controller.signal },
    );
    await vi.waitUntil(() => flaky.state.requests.length === 1, { timeout: 5000 });
    controller.abort();
    await expect(upload).rejects.toMatchObject({ code: "storage/canceled" });
    expect(retries).toEqual([]);
  });
});

describe.each(drivers)("the storage client against the store on %s", (driver) => {
  let server: StorageTestServer;
  let token: string;
  beforeAll(async () => {
    server = await startStorageServer(driver);
    token = server.signIn({ id: "admin-1", role: "admin" });
  });
  afterAll(async () => {
    await server.close();
  });

  it("uploads with progress, reads metadata and a download URL, deletes, then gets storage/object-not-found", async () => {
    const client = createStorageClient({
      baseUrl: server.url,
      headers: () => ({ authorization: `Bearer ${token}` }),
    });
    const bytes = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#123" } })
      .png()
      .toBuffer();
    const progress: UploadProgress[] = [];
    const object = await client.uploadFile("products", "brands/logo.png", new Blob([new Uint8Array(bytes)]), {
      metadata: { cacheControl: "public, max-age=600" },
      onProgress: (event) => progress.push(event),
    });
    expect(object).toMatchObject({
      bucket: "products",
      fullPath: "brands/logo.png",
      contentType: "image/png",
    });
    expect(progress[0]).toEqual({ bytesTransferred: 0, totalBytes: bytes.length });
    expect(progress.at(-1)).toEqual({ bytesTransferred: bytes.length, totalBytes: bytes.length });

    expect(await client.getMetadata("products", "brands/logo.png")).toEqual(object);
    const url = await client.getDownloadURL("products", "brands/logo.png");
    expect(url).toBe(
      `${server.url}/api/storage/v0/b/products/o/brands%2Flogo.png?alt=media&token=${object.downloadTokens[0]}`,
    );
    const download = await fetch(url);
    expect(download.headers.get("cache-control")).toBe("public, max-age=600");
    expect((await download.arrayBuffer()).byteLength).toBe(object.size);

    await client.deleteObject("products", "brands/logo.png");
    await expect(client.getMetadata("products", "brands/logo.png")).rejects.toMatchObject({
      name: "StorageError",
      code: "storage/object-not-found",
      status: 404,
    });
    // Checked before anything is sent.
    await expect(client.uploadFile("products", "../x.png", new Blob(["x"]))).rejects.toMatchObject({
      code: "storage/invalid-argument",
    });
  });
});
