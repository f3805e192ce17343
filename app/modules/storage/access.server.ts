/**
 * Who may do what with stored files. The caller's identity comes from a StorageAuth the server is given (the
 * accounts' session once it exists); the rules here only look at the identity, the bucket and the path.
 */
import type { Database } from "~db/client.server";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import type { BucketConfig } from "./buckets.server";
import { StorageError } from "./errors";

export type Viewer = { id: string; role: "admin" | "customer" };

export type StorageAuthContext = { db: Database; env: Env; logger: Logger };

/**
 * Resolves the caller of a storage request (cookies, Authorization header...) to an identity, or null for nobody.
 * The request carries the method, URL and headers only: never read its body.
 */
export type StorageAuth = (request: Request, context: StorageAuthContext) => Promise<Viewer | null>;

/** No identity for anyone: until accounts exist, only token downloads and public buckets work. */
export const anonymousStorageAuth: StorageAuth = async () => null;

/** The folder a customer owns in buckets that take customer uploads. */
export const customerFolder = (viewer: Viewer) => `users/${viewer.id}/`;

/** May this identity write (upload, delete, see tokens of) the object at this path? */
export function canManage(viewer: Viewer, bucket: BucketConfig, fullPath: string): boolean {
  if (viewer.role === "admin") return true;
  if (!bucket.customerUploads) return false;
  // An id that could escape the folder (empty, or with a /) owns nothing.
  if (viewer.id === "" || viewer.id.includes("/") || viewer.id === "." || viewer.id === "..") return false;
  return fullPath.startsWith(customerFolder(viewer));
}

/** Throws unless the caller may write the object: no identity -> unauthenticated, the wrong one -> unauthorized. */
export function requireManage(viewer: Viewer | null, bucket: BucketConfig, fullPath: string): Viewer {
  if (!viewer) throw new StorageError("storage/unauthenticated", "Sign in to change stored files.");
  if (!canManage(viewer, bucket, fullPath)) {
    throw new StorageError(
      "storage/unauthorized",
      viewer.role === "customer" && bucket.customerUploads
        ? `You may only change files under ${customerFolder(viewer)} in ${bucket.name}.`
        : `You may not change files in ${bucket.name}.`,
    );
  }
  return viewer;
}

/** Throws unless the caller may read the object's metadata and bytes without a token. */
export function requireRead(viewer: Viewer | null, bucket: BucketConfig, fullPath: string): void {
  if (bucket.publicRead) return;
  if (!viewer)
    throw new StorageError("storage/unauthenticated", "Sign in, or use a download link with a token.");
  if (!canManage(viewer, bucket, fullPath))
    throw new StorageError("storage/unauthorized", "You may not read this file.");
}
