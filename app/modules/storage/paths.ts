import { StorageError } from "./errors";

/** Longest object path, in UTF-8 bytes (as Cloud Storage). */
export const MAX_PATH_BYTES = 1024;
/** Longest path segment, in UTF-8 bytes: file systems allow 255, and the stored file adds a generation suffix. */
export const MAX_SEGMENT_BYTES = 200;

/**
 * Characters refused anywhere in a path: control characters (NUL included), the backslash (a separator on Windows),
 * and the characters Cloud Storage advises against (`#` also separates a path from its generation on disk).
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f\\#[\]*?]/;

/**
 * Checks a user-chosen object path and returns it unchanged, or throws `storage/invalid-argument`.
 * A path is relative to its bucket: no leading `/`, no empty, `.` or `..` segment, so it can never leave the bucket.
 */
export function checkObjectPath(fullPath: string): string {
  const refuse = (why: string): never => {
    throw new StorageError("storage/invalid-argument", `The object path ${why}.`);
  };
  if (fullPath.length === 0) refuse("is empty");
  if (new TextEncoder().encode(fullPath).length > MAX_PATH_BYTES)
    refuse(`is longer than ${MAX_PATH_BYTES} bytes`);
  if (FORBIDDEN.test(fullPath))
    refuse("contains a character that is not allowed (control characters, \\ # [ ] * ?)");
  if (fullPath.startsWith("/")) refuse("must be relative to the bucket (no leading /)");
  for (const segment of fullPath.split("/")) {
    if (segment === "") refuse("has an empty segment (// or a trailing /)");
    if (segment === "." || segment === "..") refuse("must not contain . or .. segments");
    if (new TextEncoder().encode(segment).length > MAX_SEGMENT_BYTES)
      refuse(`has a segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  return fullPath;
}

/** The last segment of a path: the object's name. */
export const objectName = (fullPath: string) => fullPath.slice(fullPath.lastIndexOf("/") + 1);

/** A bucket name: lower-case letters, digits, - and _, starting with a letter or digit. */
export const BUCKET_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** The API path of an object (the object path is one URL segment, its slashes encoded). */
export const objectUrlPath = (bucket: string, fullPath: string) =>
  `/api/storage/v0/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(fullPath)}`;

/** The API path uploads are posted to. */
export const uploadUrlPath = (bucket: string, fullPath: string) =>
  `/api/storage/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(fullPath)}`;
