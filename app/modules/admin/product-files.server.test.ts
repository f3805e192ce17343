import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, products } from "~db/schema";
import { defineBuckets } from "~/modules/storage/buckets.server";
import { LocalDiskDriver } from "~/modules/storage/drivers/local-disk.server";
import { createStorageService, type StorageService } from "~/modules/storage/storage.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { testBuckets } from "../../../tests/support/storage";
import { deleteProductFile, fileListQuery, listProductFiles, productImageUrl } from "./product-files.server";

const admin = { id: "admin-1", email: "owner@example.com" };

async function* pngBytes(color: string) {
  yield new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
      .png()
      .toBuffer(),
  );
}

describe.each(drivers)("the product images bucket for the admin on %s", (driver) => {
  let database: TestDatabase;
  let dataDir: string;
  let storage: StorageService;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    dataDir = await mkdtemp(path.join(tmpdir(), "storefront-files-"));
    storage = createStorageService({
      db: database.db,
      driver: new LocalDiskDriver(path.join(dataDir, "storage")),
      buckets: defineBuckets(testBuckets),
      stagingDir: path.join(dataDir, "storage", ".staging"),
      logger: recordingLogger().logger,
    });
    for (const [name, color] of [
      ["images/used.png", "#c00"],
      ["images/spare.png", "#0c0"],
    ] as const) {
      await storage.upload({
        viewer: { id: admin.id, role: "admin" },
        bucket: "products",
        fullPath: name,
        body: pngBytes(color),
      });
    }
    await database.db
      .update(products)
      .set({ img: productImageUrl("images/used.png") })
      .where(eq(products.route, "/antivirus/norton/360-deluxe"));
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists the stored images with their public address and the products that show them", async () => {
    const page = await listProductFiles(
      { db: database.db, storage },
      admin,
      fileListQuery.parse({ sort: "name" }),
    );
    expect(page.total).toBe(2);
    expect(page.rows.map((row) => [row.name, row.contentType, row.usedBy.map((user) => user.name)])).toEqual([
      ["spare.png", "image/png", []],
      ["used.png", "image/png", ["Norton 360 Deluxe"]],
    ]);
    expect(page.rows[1]!.url).toBe("/api/storage/v0/b/products/o/images%2Fused.png?alt=media");
  });

  it("keeps an image a product shows, deletes an unused one with an audit entry, and says when it is gone", async () => {
    const ctx = { db: database.db, storage };
    expect(await deleteProductFile(ctx, admin, "images/used.png")).toEqual({
      ok: false,
      status: 409,
      error: "Norton 360 Deluxe shows this image: give it another image first",
    });
    expect(await deleteProductFile(ctx, admin, "images/spare.png")).toEqual({ ok: true });
    expect(await deleteProductFile(ctx, admin, "images/spare.png")).toMatchObject({ ok: false, status: 404 });
    expect(await deleteProductFile(ctx, admin, "../escape.png")).toMatchObject({ ok: false, status: 400 });
    const page = await listProductFiles(ctx, admin, fileListQuery.parse({}));
    expect(page.rows.map((row) => row.name)).toEqual(["used.png"]);
    const entries = await database.db.select().from(auditLog).where(eq(auditLog.action, "file.delete"));
    expect(entries.map((entry) => [entry.actor, entry.entityId])).toEqual([
      ["owner@example.com", "products/images/spare.png"],
    ]);
  });
});
