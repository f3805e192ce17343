/**
 * What an upload really is. The type is read from the bytes (file-type's magic numbers), never taken from the name or
 * from what the browser claims; images are decoded and re-encoded, which drops metadata (EXIF, GPS, comments) and
 * anything hidden after the image data.
 */
import { fileTypeFromFile } from "file-type";
import sharp from "sharp";
import { type AllowedType, IMAGE_TYPES } from "./buckets.server";
import { StorageError } from "./errors";

/** The file name extensions each accepted type may carry. */
export const EXTENSIONS: Record<AllowedType, readonly string[]> = {
  "image/png": ["png"],
  "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
  "image/gif": ["gif"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
};

/** Largest image accepted, in pixels (per frame): bigger ones are refused before they are decoded. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/**
 * The type the file's bytes show, if the bucket accepts it; otherwise storage/invalid-argument. SVG (scriptable XML),
 * HTML and anything else without a recognised signature are refused.
 */
export async function sniffType(
  file: string,
  allowed: readonly AllowedType[],
  claims: { name: string; contentType?: string | undefined },
): Promise<AllowedType> {
  const detected = await fileTypeFromFile(file);
  const type = allowed.find((candidate) => candidate === detected?.mime);
  const accepted = allowed.join(", ");
  if (!type) {
    throw new StorageError(
      "storage/invalid-argument",
      detected
        ? `The file is ${detected.mime}, which this bucket does not accept (it takes ${accepted}).`
        : `The file's content is not one of the types this bucket accepts (${accepted}).`,
    );
  }
  const extension = /\.([^./]+)$/.exec(claims.name)?.[1]?.toLowerCase();
  if (extension !== undefined && !EXTENSIONS[type].includes(extension)) {
    throw new StorageError(
      "storage/invalid-argument",
      `The name ends in .${extension} but the file is ${type}: use .${EXTENSIONS[type][0]}.`,
    );
  }
  const claimed = claims.contentType?.split(";")[0]?.trim().toLowerCase();
  if (claimed && claimed !== "application/octet-stream" && claimed !== type) {
    throw new StorageError("storage/invalid-argument", `The file was sent as ${claimed} but it is ${type}.`);
  }
  return type;
}

export const isImage = (type: AllowedType) => IMAGE_TYPES.includes(type);

/** Decodes the image and writes it again in the same format (animations kept, metadata dropped, JPEGs upright). */
export async function reencodeImage(input: string, output: string, type: AllowedType): Promise<void> {
  const animated = type === "image/gif" || type === "image/webp";
  try {
    let image = sharp(input, { animated, limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" });
    if (type === "image/jpeg") image = image.rotate().jpeg({ quality: 90, mozjpeg: true });
    else if (type === "image/png") image = image.png({ compressionLevel: 9 });
    else if (type === "image/webp") image = image.webp({ quality: 90 });
    else image = image.gif();
    await image.toFile(output);
  } catch (error) {
    throw new StorageError(
      "storage/invalid-argument",
      `The image could not be read (${error instanceof Error ? error.message : "unknown error"}).`,
      { cause: error },
    );
  }
}
