import { and, asc, eq, sql } from "drizzle-orm";
import { brandGroups, products, productVariants, services } from "~db/schema";
import type { ServerContext } from "~/context";
import { variantPath } from "~/modules/catalogue/variants";
import { absoluteUrl } from "./seo.server";

/** The most addresses one sitemap file may list (sitemaps.org); a store with more gets an index of files. */
export const SITEMAP_URL_LIMIT = 50_000;

/** Public pages that always exist; brands, products and services are added from the database. */
export const STATIC_PATHS = [
  "/",
  "/about",
  "/contact",
  "/disclaimer",
  "/antivirus",
  "/windows",
  "/printer",
  "/router",
  "/digital",
  "/best-sellers",
  "/top-rated",
  "/categories",
  "/termsandconditions",
  "/privacypolicy",
  "/returnandrefundpolicy",
  "/shipping-policy",
];

/**
 * Every public page a search engine should know, each once: the fixed pages, services, brands and their support
 * pages, products, and each variant page other than a product's first (whose page is the product's own, ADR 0034).
 */
export async function sitemapPaths({ db }: Pick<ServerContext, "db">): Promise<string[]> {
  // A variant's place among its product's variants on sale: the first is the product's page itself.
  const rank = sql<number>`row_number() over (partition by ${productVariants.productId} order by ${productVariants.position}, ${productVariants.id})`;
  const [groups, productRoutes, serviceSlugs, variantPages] = await Promise.all([
    db
      .select({ section: brandGroups.section, slug: brandGroups.slug })
      .from(brandGroups)
      .orderBy(asc(brandGroups.position)),
    db
      .select({ route: products.route })
      .from(products)
      .where(eq(products.hidden, false))
      .orderBy(asc(products.id)),
    db.select({ slug: services.slug }).from(services).orderBy(asc(services.position)),
    db
      .select({ route: products.route, sku: productVariants.sku, rank })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(eq(products.hidden, false), eq(productVariants.hidden, false)))
      .orderBy(asc(products.id), asc(productVariants.position), asc(productVariants.id)),
  ]);
  return [
    ...STATIC_PATHS,
    ...serviceSlugs.map((service) => `/digital/${service.slug}`),
    ...groups.map((group) => `/${group.section}/${group.slug}`),
    ...groups.map((group) => `/support/${group.slug}`),
    ...productRoutes.map((product) => product.route),
    ...variantPages
      .filter((variant) => Number(variant.rank) > 1)
      .map((variant) => variantPath(variant.route, variant.sku)),
  ];
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A sitemap may be kept an hour by anyone: search engines read it far less often. */
export const SITEMAP_HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=3600",
};

const XML_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n`;
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

function urlset(publicUrl: string, paths: string[]): string {
  const urls = paths.map((path) => `  <url><loc>${escapeXml(absoluteUrl(publicUrl, path))}</loc></url>`);
  return `${XML_HEAD}<urlset xmlns="${SITEMAP_NS}">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Where the index's n-th file (from 1) is served. */
export const sitemapPartPath = (part: number) => `/sitemaps/${part}.xml`;

/**
 * /sitemap.xml: every address in one file while they fit in one, else an index of files of at most `limit` each
 * (the index itself names them, so a search engine finds them all from robots.txt's one line).
 */
export function sitemapXml(publicUrl: string, paths: string[], limit = SITEMAP_URL_LIMIT): string {
  const unique = [...new Set(paths)];
  if (unique.length <= limit) return urlset(publicUrl, unique);
  const files = Array.from(
    { length: Math.ceil(unique.length / limit) },
    (_, index) =>
      `  <sitemap><loc>${escapeXml(absoluteUrl(publicUrl, sitemapPartPath(index + 1)))}</loc></sitemap>`,
  );
  return `${XML_HEAD}<sitemapindex xmlns="${SITEMAP_NS}">\n${files.join("\n")}\n</sitemapindex>\n`;
}

/**
 * The index's n-th file, or null when there is no such file: no index at all (the store's addresses fit in
 * /sitemap.xml, which is then their only list) or a number past its end.
 */
export function sitemapPartXml(
  publicUrl: string,
  paths: string[],
  part: number,
  limit = SITEMAP_URL_LIMIT,
): string | null {
  const unique = [...new Set(paths)];
  if (unique.length <= limit || !Number.isSafeInteger(part) || part < 1) return null;
  const slice = unique.slice((part - 1) * limit, part * limit);
  return slice.length === 0 ? null : urlset(publicUrl, slice);
}

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Disallow: /admin",
    "Disallow: /user",
    "Disallow: /cart",
    "Disallow: /payment",
    "Disallow: /reminders",
    "Disallow: /stock-alerts",
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
