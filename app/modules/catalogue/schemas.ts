import { z } from "zod";
import { LISTINGS, SECTION_ORDER } from "./sections";

/** The first segment of a section page's path, any case: /antivirus, /Windows. */
export const sectionPathSchema = z
  .string()
  .transform((pathname) => pathname.split("/").filter(Boolean)[0]?.toLowerCase() ?? "")
  .pipe(z.enum(SECTION_ORDER));

/** /best-sellers or /top-rated, any case. */
export const listingPathSchema = z
  .string()
  .transform((pathname) => pathname.split("/").filter(Boolean)[0]?.toLowerCase() ?? "")
  .pipe(z.enum(Object.keys(LISTINGS) as [keyof typeof LISTINGS, ...(keyof typeof LISTINGS)[]]));

/** A path the catalogue could serve: product routes and brand pages use only these characters. */
export const cataloguePathSchema = z
  .string()
  .max(300)
  .regex(/^(\/[A-Za-z0-9._-]+)+\/?$/);

/** /support/{brandkey}: a brand key (letters and digits), looked up in lower case. */
export const supportParamsSchema = z.object({
  brand: z
    .string()
    .regex(/^[A-Za-z0-9]{1,60}$/)
    .transform((key) => key.toLowerCase()),
});

/** /search?q=: anything (or nothing); the search module trims and cuts it. */
export const searchParamsSchema = z.object({ q: z.string().nullish().catch(null) });
