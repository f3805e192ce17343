import { asc, eq } from "drizzle-orm";
import { brandGroups, products, services } from "~db/schema";
import type { ServerContext } from "~/context";
import { absoluteUrl } from "./seo.server";

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

export async function sitemapPaths({ db }: Pick<ServerContext, "db">): Promise<string[]> {
  const [groups, productRoutes, serviceSlugs] = await Promise.all([
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
  ]);
  return [
    ...STATIC_PATHS,
    ...serviceSlugs.map((service) => `/digital/${service.slug}`),
    ...groups.map((group) => `/${group.section}/${group.slug}`),
    ...groups.map((group) => `/support/${group.slug}`),
    ...productRoutes.map((product) => product.route),
  ];
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function sitemapXml(publicUrl: string, paths: string[]): string {
  const urls = [...new Set(paths)].map(
    (path) => `  <url><loc>${escapeXml(absoluteUrl(publicUrl, path))}</loc></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
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
