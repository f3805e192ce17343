import { createHash } from "node:crypto";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~db/client.server";
import { objectUrlPath, uploadUrlPath } from "~/modules/storage/paths";
import type { StoredObjectResponse } from "~/modules/storage/schemas";
import { createTestDatabase, drivers, type TestDatabase } from "../support/database";
import { startS3rver, type S3rverInstance } from "../support/s3";
import { startStallingRelay } from "../support/stalling-relay";
import { startStorageServer, type StorageTestServer } from "../support/storage";

/** The most a storage request may take when the object store fails: then it must have answered. */
const ANSWER_WITHIN_MS = 5000;
/** Well past ANSWER_WITHIN_MS: a request still open then has hung, and the test says so instead of waiting on. */
const hung = () => AbortSignal.timeout(10_000);

const png = (color: string) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
/** A valid PDF of about `size` bytes (PDFs are stored byte for byte). */
const pdf = (size: number) => {
  const head = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n";
  const tail = "\n%%EOF\n";
  return Buffer.from(head + "%".repeat(size - head.length - tail.length) + tail);
};
const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("base64");

/** Milliseconds `work` took, and what it gave. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

// Two servers of one store: each its own storage service and S3 client over the same database and the same S3 bucket
// (s3rver). On PostgreSQL each has a connection pool of its own; PGlite is one handle in one process, shared.
// The second reaches S3 through a relay the test can make go silent.
describe.each(drivers)("file storage in S3 (s3rver) on %s", (driver) => {
  let s3: S3rverInstance;
  let relay: Awaited<ReturnType<typeof startStallingRelay>>;
  let database: TestDatabase;
  let secondHandle: TestDatabase;
  let first: StorageTestServer;
  let second: StorageTestServer;
  let firstAdmin: string;
  let secondAdmin: string;
  beforeAll(async () => {
    s3 = await startS3rver();
    relay = await startStallingRelay({ host: "127.0.0.1", port: s3.port });
    database = await createTestDatabase(driver);
    secondHandle = database.url ? await openDatabase({ url: database.url }) : database;
    first = await startStorageServer(driver, undefined, { database, storageDriver: s3.driver() });
    second = await startStorageServer(driver, undefined, {
      database: secondHandle,
      // A download's allowed silence shortened from 10 s, so that a stalled one ends quickly.
      storageDriver: s3.driver(relay.url, { downloadIdleTimeoutMs: 1000 }),
    });
    firstAdmin = first.signIn({ id: "admin-1", role: "admin" });
    secondAdmin = second.signIn({ id: "admin-1", role: "admin" });
  });
  afterAll(async () => {
    await relay?.close();
    await first?.close();
    await second?.close();
    if (secondHandle !== database) await secondHandle?.close();
    await database?.close();
    await s3?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  function upload(server: StorageTestServer, token: string, bucket: string, fullPath: string, bytes: Buffer) {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)]), fullPath.split("/").pop());
    return fetch(`${server.url}${uploadUrlPath(bucket, fullPath)}`, {
      method: "POST",
      body: form,
      headers: bearer(token),
      signal: hung(),
    });
  }
  async function uploaded(
    server: StorageTestServer,
    token: string,
    bucket: string,
    path: string,
    bytes: Buffer,
  ) {
    const response = await upload(server, token, bucket, path, bytes);
    expect(response.status).toBe(200);
    return (await response.json()) as StoredObjectResponse;
  }
  const download = (server: StorageTestServer, object: StoredObjectResponse) =>
    fetch(
      `${server.url}${objectUrlPath(object.bucket, object.fullPath)}?alt=media&token=${object.downloadTokens[0]}`,
      { signal: hung() },
    );
  const metadataOf = (server: StorageTestServer, token: string, bucket: string, fullPath: string) =>
    fetch(`${server.url}${objectUrlPath(bucket, fullPath)}`, { headers: bearer(token), signal: hung() });
  const objectsInS3 = async () => {
    const listing = await s3.driver().client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (listing.Contents ?? []).map((object) => object.Key);
  };
  /** The answer is the storage API's JSON error: 503, storage/unknown, saying the file store is out of reach. */
  async function expectStoreUnavailable(response: Response) {
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 503,
      body: { error: { code: "storage/unknown", message: expect.stringMatching(/file store/i) } },
    });
  }

  it("shares uploads between the servers: one uploads, the other serves and deletes, the first sees it gone", async () => {
    const bytes = await png("#0a6");
    const object = await uploaded(first, firstAdmin, "products", "brands/acme/logo.png", bytes);

    const metadata = await metadataOf(second, secondAdmin, "products", "brands/acme/logo.png");
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual(object);
    const served = await download(second, object);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    const servedBytes = new Uint8Array(await served.arrayBuffer());
    expect({ size: servedBytes.length, md5: md5(servedBytes) }).toEqual({
      size: object.size,
      md5: object.md5Hash,
    });
    expect(await objectsInS3()).toEqual([
      expect.stringMatching(/^products\/brands\/acme\/logo\.png#[\w-]+$/),
    ]);

    const removed = await fetch(`${second.url}${objectUrlPath("products", "brands/acme/logo.png")}`, {
      method: "DELETE",
      headers: bearer(secondAdmin),
      signal: hung(),
    });
    expect(removed.status).toBe(204);
    expect((await metadataOf(first, firstAdmin, "products", "brands/acme/logo.png")).status).toBe(404);
    const gone = await download(first, object);
    expect({ status: gone.status, body: await gone.json() }).toMatchObject({
      status: 404,
      body: { error: { code: "storage/object-not-found" } },
    });
    expect(await objectsInS3()).toEqual([]);
  });

  it("answers 503 within 5 s, not a hang, while the object store takes connections but answers nothing", async () => {
    const object = await uploaded(first, firstAdmin, "products", "silent/kept.png", await png("#a06"));
    const bytes = await png("#06a");
    relay.stall();
    try {
      const refused = await timed(() => upload(second, secondAdmin, "products", "silent/new.png", bytes));
      expect(refused.ms).toBeLessThan(ANSWER_WITHIN_MS);
      await expectStoreUnavailable(refused.result);

      const unserved = await timed(() => download(second, object));
      expect(unserved.ms).toBeLessThan(ANSWER_WITHIN_MS);
      await expectStoreUnavailable(unserved.result);
      // The operator is told, with the cause.
      expect(second.logs()).toContainEqual(
        expect.objectContaining({ level: 50, msg: expect.stringMatching(/file store cannot be reached/) }),
      );
      // What the database knows is still served.
      expect((await metadataOf(second, secondAdmin, "products", "silent/kept.png")).status).toBe(200);
    } finally {
      relay.resume();
    }
    expect((await metadataOf(second, secondAdmin, "products", "silent/new.png")).status).toBe(404);
  });

  it("ends a download whose bytes stop coming from the object store midway, within 5 s", async () => {
    const object = await uploaded(first, firstAdmin, "uploads", "stalled/manual.pdf", pdf(200 * 1024));
    relay.stall({ afterBytes: 64 * 1024 });
    try {
      const response = await download(second, object);
      expect(response.status).toBe(200);
      const reading = await timed(() =>
        response.arrayBuffer().then(
          () => "read in full",
          (error: Error) => error.name,
        ),
      );
      // The server cut the connection (fetch: "TypeError: terminated"), the test's own deadline did not.
      expect(reading.result).toBe("TypeError");
      expect(reading.ms).toBeLessThan(ANSWER_WITHIN_MS);
    } finally {
      relay.resume();
    }
  });

  // Last: the object store is gone for the rest of the file.
  it("answers 503 within 5 s once the object store has stopped", async () => {
    const object = await uploaded(first, firstAdmin, "products", "stopped/kept.png", await png("#60a"));
    const bytes = await png("#06a");
    await s3.stop();

    const refused = await timed(() => upload(first, firstAdmin, "products", "stopped/new.png", bytes));
    expect(refused.ms).toBeLessThan(ANSWER_WITHIN_MS);
    await expectStoreUnavailable(refused.result);
    const unserved = await timed(() => download(first, object));
    expect(unserved.ms).toBeLessThan(ANSWER_WITHIN_MS);
    await expectStoreUnavailable(unserved.result);
  });
});
