import type { Env } from "~/lib/env.server";
import { BUCKET_NAME } from "./paths";

/** A content type the store accepts, recognised from the bytes themselves. */
export type AllowedType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "application/pdf";

export const IMAGE_TYPES: readonly AllowedType[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

export type BucketConfig = {
  name: string;
  /** Anyone may read the objects (metadata and bytes) without a token: product images. */
  publicRead: boolean;
  /** Customers may write under users/{their id}/ (admins may write anywhere in every bucket). */
  customerUploads: boolean;
  /** Most bytes the bucket may hold in all. */
  quotaBytes: number;
  /** Most bytes one customer may keep in their folder of the bucket, so no customer fills it for everyone. */
  userQuotaBytes?: number;
  /** Largest single upload. */
  maxObjectBytes: number;
  allowedTypes: readonly AllowedType[];
};

export type Buckets = ReadonlyMap<string, BucketConfig>;

export function defineBuckets(list: BucketConfig[]): Buckets {
  for (const bucket of list) {
    if (!BUCKET_NAME.test(bucket.name)) throw new Error(`Invalid bucket name: ${bucket.name}`);
  }
  return new Map(list.map((bucket) => [bucket.name, bucket]));
}

/**
 * The store's buckets: `products` holds the catalogue's images (public, admins write), `uploads` holds private files
 * (admins anywhere, customers in their own users/{id}/ folder, up to a quota each).
 */
export function bucketsFromEnv(
  env: Pick<
    Env,
    | "STORAGE_MAX_OBJECT_BYTES"
    | "STORAGE_PRODUCTS_QUOTA_BYTES"
    | "STORAGE_UPLOADS_QUOTA_BYTES"
    | "STORAGE_UPLOADS_USER_QUOTA_BYTES"
  >,
): Buckets {
  return defineBuckets([
    {
      name: "products",
      publicRead: true,
      customerUploads: false,
      quotaBytes: env.STORAGE_PRODUCTS_QUOTA_BYTES,
      maxObjectBytes: env.STORAGE_MAX_OBJECT_BYTES,
      allowedTypes: IMAGE_TYPES,
    },
    {
      name: "uploads",
      publicRead: false,
      customerUploads: true,
      quotaBytes: env.STORAGE_UPLOADS_QUOTA_BYTES,
      userQuotaBytes: env.STORAGE_UPLOADS_USER_QUOTA_BYTES,
      maxObjectBytes: env.STORAGE_MAX_OBJECT_BYTES,
      allowedTypes: [...IMAGE_TYPES, "application/pdf"],
    },
  ]);
}
