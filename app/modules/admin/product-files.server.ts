/** The admin's view of the `products` bucket: the stored images, which products use them, and deleting them. */
import { asc, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Transaction } from "~db/client.server";
import { products } from "~db/schema";
import { downloadUrl } from "~/modules/storage/client";
import { isStorageError } from "~/modules/storage/errors";
import { checkObjectPath } from "~/modules/storage/paths";
import type { StorageService } from "~/modules/storage/storage.server";
import { recordAudit } from "~/lib/audit-log.server";
import { PRODUCT_BUCKET } from "./product-image-path";
import { type ListPage, offsetOf } from "./list-query";

export { PRODUCT_BUCKET };

export const fileListQuery = z.object({
  q: z.string().trim().max(200).catch(""),
  sort: z.enum(["newest", "name", "size"]).catch("newest"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(5).max(100).catch(25),
});

export type FileListQuery = z.infer<typeof fileListQuery>;

export type ProductFileRow = {
  fullPath: string;
  name: string;
  size: number;
  contentType: string;
  updated: string;
  /** Where the storefront loads it from (the bucket is public: no token needed). */
  url: string;
  usedBy: Array<{ id: number; name: string }>;
};

type Ctx = { db: Database; storage: StorageService };
type Admin = { id: string; email: string };

/** The address a product's `img` holds for an object of the products bucket. */
export const productImageUrl = (fullPath: string) => downloadUrl(PRODUCT_BUCKET, fullPath);

/** Products whose image is one of these objects (with or without a download token in the address). */
async function productsUsing(db: Database | Transaction, fullPaths: string[]) {
  if (fullPaths.length === 0) return [];
  const bases = fullPaths.map((fullPath) => productImageUrl(fullPath).split("?")[0]!);
  return db
    .select({ id: products.id, name: products.name, base: sql<string>`split_part(${products.img}, '?', 1)` })
    .from(products)
    .where(
      sql`split_part(${products.img}, '?', 1) in (${sql.join(
        bases.map((base) => sql`${base}`),
        sql`, `,
      )})`,
    )
    .orderBy(asc(products.name));
}

export async function listProductFiles(
  { db, storage }: Ctx,
  admin: Admin,
  query: FileListQuery,
): Promise<ListPage<ProductFileRow>> {
  const page = await storage.list({ id: admin.id, role: "admin" }, PRODUCT_BUCKET, {
    q: query.q,
    sort: query.sort,
    limit: query.pageSize,
    offset: offsetOf(query),
  });
  const users = await productsUsing(
    db,
    page.items.map((item) => item.fullPath),
  );
  return {
    total: page.total,
    rows: page.items.map((item) => {
      const url = productImageUrl(item.fullPath);
      const base = url.split("?")[0];
      return {
        fullPath: item.fullPath,
        name: item.name,
        size: item.size,
        contentType: item.contentType,
        updated: item.updated,
        url,
        usedBy: users.filter((user) => user.base === base).map(({ id, name }) => ({ id, name })),
      };
    }),
  };
}

class InUse extends Error {}

export type FileDelete = { ok: true } | { ok: false; status: 400 | 404 | 409; error: string };

/**
 * Deletes an object of the products bucket through the storage service (record and bytes together), with an
 * audit entry in the same transaction. A file a product still shows is kept: change the product's image first.
 */
export async function deleteProductFile(
  { storage }: Ctx,
  admin: Admin,
  fullPath: string,
): Promise<FileDelete> {
  try {
    checkObjectPath(fullPath);
    await storage.remove({ id: admin.id, role: "admin" }, PRODUCT_BUCKET, fullPath, {
      async inTransaction(tx, object) {
        const users = await productsUsing(tx, [fullPath]);
        if (users.length > 0) {
          throw new InUse(
            `${users
              .slice(0, 3)
              .map((user) => user.name)
              .join(
                ", ",
              )}${users.length > 3 ? ` and ${users.length - 3} more` : ""} ${users.length === 1 ? "shows" : "show"} this image: give ${users.length === 1 ? "it" : "them"} another image first`,
          );
        }
        await recordAudit(tx, {
          actor: admin.email,
          action: "file.delete",
          entity: "file",
          entityId: `${object.bucket}/${object.fullPath}`,
          before: object,
        });
      },
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof InUse) return { ok: false, status: 409, error: error.message };
    if (isStorageError(error)) {
      if (error.code === "storage/object-not-found")
        return { ok: false, status: 404, error: "This file no longer exists" };
      if (error.code === "storage/invalid-argument") return { ok: false, status: 400, error: error.message };
    }
    throw error;
  }
}
