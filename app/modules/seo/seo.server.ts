import { eq, sql } from "drizzle-orm";
import { productMetadata, seoRecords } from "~db/schema";
import type { ServerContext } from "~/context";

export const DEFAULT_TITLE = "Default Title";

/** Everything a page's meta tags need; built on the server so crawlers see it. */
export type PageSeo = {
  title: string;
  description: string;
  keywords: string;
  /** Absolute canonical URL. */
  canonical: string;
  /** Absolute image URL for Open Graph. */
  image?: string;
  type: "website" | "product";
  /** Structured data (JSON-LD), e.g. a Product. */
  jsonLd?: Record<string, unknown>;
};

export type SeoSubject = {
  /** On a product page: the product's name, used when the page's SEO record has no title. */
  productName?: string;
  /** On a brand page: the brand key, whose product metadata (mcafee, norton) is used when no record exists. */
  brandKey?: string;
  /** The canonical path, when it differs from the requested one (a product's own route, say). */
  canonicalPath?: string;
  image?: string;
  type?: PageSeo["type"];
  jsonLd?: Record<string, unknown>;
};

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/**
 * The spec's rules: title, description and keywords come from the SEO record whose route matches the path;
 * a record without a title uses the product's name; brand pages without a record use their product metadata
 * (only some brands have it); otherwise the title is "Default Title".
 */
export async function seoForPath(
  { db, env }: Pick<ServerContext, "db" | "env">,
  pathname: string,
  subject: SeoSubject = {},
): Promise<PageSeo> {
  const path = normalizePath(pathname);
  const [record] = await db
    .select()
    .from(seoRecords)
    .where(eq(sql`lower(${seoRecords.route})`, path.toLowerCase()))
    .limit(1);
  const base = {
    canonical: absoluteUrl(env.PUBLIC_URL, subject.canonicalPath ?? path),
    image: subject.image ? absoluteUrl(env.PUBLIC_URL, subject.image) : undefined,
    type: subject.type ?? "website",
    jsonLd: subject.jsonLd,
  } as const;
  if (record) {
    return {
      ...base,
      title: record.title || subject.productName || DEFAULT_TITLE,
      description: record.description,
      keywords: record.keywords,
    };
  }
  if (subject.brandKey) {
    const [meta] = await db
      .select()
      .from(productMetadata)
      .where(eq(productMetadata.key, subject.brandKey.toLowerCase()))
      .limit(1);
    if (meta) return { ...base, title: meta.title, description: meta.description, keywords: meta.keywords };
  }
  return { ...base, title: DEFAULT_TITLE, description: "", keywords: "" };
}

export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl)
    ? pathOrUrl
    : `${publicUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}
