import { eq, sql } from "drizzle-orm";
import { productMetadata, seoRecords } from "~db/schema";
import type { ServerContext } from "~/context";
import { shareImage } from "~/modules/content/placeholder-raster.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { storeFacts, withStoreFacts } from "~/modules/content/store-facts.server";
import { summarize, withStoreName } from "./summary";

export const DEFAULT_TITLE = "Default Title";

/** Everything a page's meta tags need; built on the server so crawlers see it. */
export type PageSeo = {
  title: string;
  description: string;
  keywords: string;
  /** Absolute canonical URL. */
  canonical: string;
  /** The picture a shared link shows (Open Graph, X): a raster image, its absolute URL, words for it and its size. */
  image?: { url: string; alt: string; width?: number; height?: number };
  /** The store's name, as link previews show it beside the title. */
  siteName: string;
  type: "website" | "product";
  /** Structured data (JSON-LD), e.g. a Product. */
  jsonLd?: Record<string, unknown>;
};

export type SeoSubject = {
  /** A product page: its name and description stand in for what the page's SEO record leaves out. */
  product?: { name: string; description: string };
  /** A brand page: its product metadata (only some brands have it), else its support title and why-choose text. */
  brand?: { key: string; title: string; whyChoose: string };
  /** One of the store's own pages: what the page is called and what it is for. */
  page?: { title: string; description: string };
  /** The page's own address, when it differs from the requested one (a product's own route, say). */
  canonicalPath?: string;
  /** The page's picture (a product's image, a brand's logo) and what it shows, in words. */
  image?: { path: string; alt: string };
  type?: PageSeo["type"];
  jsonLd?: Record<string, unknown>;
};

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/**
 * A page's title, description, keywords and canonical address, each from the first that has it:
 * 1. the SEO record whose route matches the path (any case), used as its owner wrote it;
 * 2. on a product page, the product's name and description;
 * 3. on a brand page, its product metadata (mcafee, norton), as written;
 * 4. on a brand page, its support title and why-choose text;
 * 5. on one of the store's own pages, the page's name and what it is for.
 * Names of the store's making carry the store's name. Only a path the store knows nothing about (the future pages)
 * is titled "Default Title".
 */
export async function seoForPath(
  context: Pick<ServerContext, "db" | "env"> & Partial<Pick<ServerContext, "contentVersion">>,
  pathname: string,
  subject: SeoSubject = {},
): Promise<PageSeo> {
  const { db, env } = context;
  const path = normalizePath(pathname);
  const brandKey = subject.brand?.key.toLowerCase();
  const [[record], [metadata], facts] = await Promise.all([
    fromSnapshot(context, `seo-record:${path.toLowerCase()}`, () =>
      db
        .select()
        .from(seoRecords)
        .where(eq(sql`lower(${seoRecords.route})`, path.toLowerCase()))
        .limit(1),
    ),
    brandKey
      ? fromSnapshot(context, `product-metadata:${brandKey}`, () =>
          db.select().from(productMetadata).where(eq(productMetadata.key, brandKey)).limit(1),
        )
      : [],
    storeFacts(context),
  ]);
  // Stored texts name the store's facts by placeholder ({store}, {phone}...): today's facts fill them.
  const filled = (text: string | null | undefined) => (text ? withStoreFacts(text, facts) : text);
  const { product, brand, page } = subject;
  // Product metadata is looked up for brand pages only, so it never competes with a product's own name.
  const ownName = product?.name || brand?.title || page?.title;
  const title =
    filled(record?.title?.trim()) ||
    filled(metadata?.title) ||
    (ownName ? withStoreName(ownName, facts.store) : DEFAULT_TITLE);
  const description =
    filled(record?.description.trim()) ||
    filled(metadata?.description) ||
    summarize(product?.description ?? brand?.whyChoose ?? page?.description ?? "");
  return {
    title,
    description,
    keywords: filled(record?.keywords.trim()) || filled(metadata?.keywords) || "",
    // The page's own address is canonical; a record's route only differs from the path in its letters' case.
    canonical: absoluteUrl(env.PUBLIC_URL, subject.canonicalPath ?? record?.route ?? path),
    image: subject.image ? sharedImage(env.PUBLIC_URL, subject.image) : undefined,
    siteName: facts.store,
    type: subject.type ?? "website",
    jsonLd: subject.jsonLd,
  };
}

function sharedImage(publicUrl: string, image: { path: string; alt: string }): PageSeo["image"] {
  const { path, width, height } = shareImage(image.path);
  return { url: absoluteUrl(publicUrl, path), alt: image.alt, width, height };
}

export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl)
    ? pathOrUrl
    : `${publicUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}
