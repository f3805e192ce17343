import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, storageObjects } from "~db/schema";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { testBuckets } from "../../../tests/support/storage";
import type { Viewer } from "./access.server";
import { defineBuckets } from "./buckets.server";
import { LocalDiskDriver } from "./drivers/local-disk.server";
import { createStorageService, type StorageService } from "./storage.server";

const png = (color: string) =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
const admin: Viewer = { id: "admin-1", role: "admin" };
const ada: Viewer = { id: "ada", role: "customer" };

async function* bytesOf(buffer: Buffer) {
  yield new Uint8Array(buffer);
}

const codeOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
    return "allowed";
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe.each(drivers)("listing and deleting stored files on %s", (driver) => {
  let database: TestDatabase;
  let dataDir: string;
  let storage: StorageService;
  let disk: LocalDiskDriver;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    dataDir = await mkdtemp(path.join(tmpdir(), "storefront-listing-"));
    disk = new LocalDiskDriver(path.join(dataDir, "storage"));
    storage = createStorageService({
      db: database.db,
      driver: disk,
      buckets: defineBuckets(testBuckets),
      stagingDir: path.join(dataDir, "storage", ".staging"),
      logger: recordingLogger().logger,
    });
    for (const [name, color] of [
      ["images/a-red.png", "#c00"],
      ["images/b-green.png", "#0c0"],
      ["images/c-blue.png", "#00c"],
      ["logos/100%_sure.png", "#333"],
    ] as const) {
      await storage.upload({
        viewer: admin,
        bucket: "products",
        fullPath: name,
        body: bytesOf(await png(color)),
      });
    }
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists a bucket page by page, newest first or by name, and finds by a part of the path", async () => {
    const newest = await storage.list(admin, "products", { limit: 2, offset: 0 });
    expect(newest.total).toBe(4);
    expect(newest.items.map((item) => item.fullPath)).toEqual(["logos/100%_sure.png", "images/c-blue.png"]);
    expect(newest.items[0]).toMatchObject({ contentType: "image/png", downloadTokens: [expect.any(String)] });
    const byName = await storage.list(admin, "products", { sort: "name", limit: 2, offset: 2 });
    expect(byName.items.map((item) => item.fullPath)).toEqual(["images/c-blue.png", "logos/100%_sure.png"]);
    expect((await storage.list(admin, "products", { q: "GREEN", limit: 10, offset: 0 })).items).toHaveLength(
      1,
    );
    // % and _ in the search text match themselves.
    const percent = await storage.list(admin, "products", { q: "0%_", limit: 10, offset: 0 });
    expect(percent.items.map((item) => item.name)).toEqual(["100%_sure.png"]);
    expect((await storage.list(admin, "products", { q: "%", limit: 10, offset: 0 })).total).toBe(1);
    expect((await storage.list(admin, "uploads", { limit: 10, offset: 0 })).total).toBe(0);
  });

  it("lists for admins only", async () => {
    expect(await codeOf(() => storage.list(null, "products", { limit: 5, offset: 0 }))).toBe(
      "storage/unauthenticated",
    );
    expect(await codeOf(() => storage.list(ada, "products", { limit: 5, offset: 0 }))).toBe(
      "storage/unauthorized",
    );
    expect(await codeOf(() => storage.list(admin, "nope", { limit: 5, offset: 0 }))).toBe(
      "storage/bucket-not-found",
    );
  });

  it("deletes record and bytes together, with the caller's own write in the same transaction", async () => {
    const [row] = await database.db
      .select()
      .from(storageObjects)
      .where(eq(storageObjects.fullPath, "images/a-red.png"));
    const key = `products/images/a-red.png#${row!.generation}`;
    expect(await disk.stream(key)).not.toBeNull();

    // A hook that fails keeps the file.
    await expect(
      storage.remove(admin, "products", "images/a-red.png", {
        inTransaction: () => Promise.reject(new Error("refused")),
      }),
    ).rejects.toThrow("refused");
    expect((await storage.list(admin, "products", { q: "a-red", limit: 5, offset: 0 })).total).toBe(1);

    await storage.remove(admin, "products", "images/a-red.png", {
      inTransaction: async (tx, object) => {
        await tx.insert(auditLog).values({
          actor: "admin@example.com",
          action: "file.delete",
          entity: "file",
          entityId: `${object.bucket}/${object.fullPath}`,
        });
      },
    });
    expect((await storage.list(admin, "products", { q: "a-red", limit: 5, offset: 0 })).total).toBe(0);
    expect(await disk.stream(key)).toBeNull();
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "file.delete"));
    expect(entry!.entityId).toBe("products/images/a-red.png");
    expect(await codeOf(() => storage.remove(admin, "products", "images/a-red.png"))).toBe(
      "storage/object-not-found",
    );
  });
});

describe("isStorageError", () => {
  it("knows a storage error from another copy of the module by its name and code", async () => {
    const { isStorageError, StorageError } = await import("./errors");
    const foreign = Object.assign(new Error("gone"), {
      name: "StorageError",
      code: "storage/object-not-found",
    });
    expect(isStorageError(new StorageError("storage/unknown", "x"))).toBe(true);
    expect(isStorageError(foreign)).toBe(true);
    expect(isStorageError(Object.assign(new Error("x"), { name: "StorageError", code: "nope" }))).toBe(false);
    expect(isStorageError(new Error("plain"))).toBe(false);
  });
});
