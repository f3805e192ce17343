import { SITEMAP_HEADERS, sitemapPartXml, sitemapPaths } from "~/modules/seo/sitemap.server";
import type { Route } from "./+types/sitemap-part";

/** One file of the sitemap index (/sitemaps/2.xml), when the store has more addresses than one file may list. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const part = /^[1-9]\d{0,5}\.xml$/.test(params.file) ? Number.parseInt(params.file, 10) : Number.NaN;
  const xml = Number.isNaN(part)
    ? null
    : sitemapPartXml(context.env.PUBLIC_URL, await sitemapPaths(context), part);
  if (xml === null) {
    return new Response("There is no such sitemap file: /sitemap.xml lists them.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
    });
  }
  return new Response(xml, { headers: SITEMAP_HEADERS });
}
