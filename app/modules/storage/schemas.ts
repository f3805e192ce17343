import { z } from "zod";

/** The stored file object of the spec (section 3), as the API returns it. Unset optional fields are null. */
export type StoredObject = {
  bucket: string;
  fullPath: string;
  name: string;
  /** Bytes stored (after images are re-encoded). */
  size: number;
  contentType: string;
  /** ISO 8601. */
  timeCreated: string;
  updated: string;
  /** MD5 of the stored bytes, base64. */
  md5Hash: string;
  cacheControl: string | null;
  contentDisposition: string | null;
  contentEncoding: string | null;
  contentLanguage: string | null;
  customMetadata: Record<string, string>;
};

/** What GET (metadata) and a finished upload answer: the object and its download tokens. */
export type StoredObjectResponse = StoredObject & {
  /** Tokens that let anyone holding them download the object; empty for callers who may not manage it. */
  downloadTokens: string[];
};

/** Visible ASCII and spaces only: the value becomes an HTTP header. */
const headerValue = (max: number, what: string) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[\x20-\x7e]*$/, `${what} must be plain ASCII without control characters`);

export const MAX_CUSTOM_METADATA_ENTRIES = 32;

/** The optional "metadata" part of an upload (JSON). Everything else about the object is computed by the server. */
export const uploadMetadataSchema = z
  .object({
    /** Must agree with the bytes when given; the stored type is always the one the bytes show. */
    contentType: z.string().trim().toLowerCase().max(255).optional(),
    cacheControl: headerValue(256, "cacheControl").optional(),
    contentDisposition: z
      .string()
      .max(300)
      .regex(
        /^(inline|attachment)(; ?filename="[\x20\x21\x23-\x5b\x5d-\x7e]{1,200}")?$/i,
        'must be inline or attachment, optionally with ; filename="..." (plain ASCII, no quotes)',
      )
      .optional(),
    /** Uploads are stored as sent and checked byte by byte, so compressed transfer encodings are not accepted. */
    contentEncoding: z.literal("identity", "only identity is accepted").optional(),
    contentLanguage: z
      .string()
      .regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/, "must be a language tag like en or en-US")
      .optional(),
    customMetadata: z
      .record(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/,
            "keys are 1-128 letters, digits, _ . or - (starting with a letter or digit)",
          ),
        z.string().max(1024, "values are at most 1024 characters"),
      )
      .refine(
        (value) => Object.keys(value).length <= MAX_CUSTOM_METADATA_ENTRIES,
        `at most ${MAX_CUSTOM_METADATA_ENTRIES} entries`,
      )
      .optional(),
  })
  .strict();

export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;
