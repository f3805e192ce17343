import { SITEMAP_HEADERS, sitemapPaths, sitemapXml } from "~/modules/seo/sitemap.server";
import type { Route } from "./+types/sitemap";

export async function loader({ context }: Route.LoaderArgs) {
  return new Response(sitemapXml(context.env.PUBLIC_URL, await sitemapPaths(context)), {
    headers: SITEMAP_HEADERS,
  });
}
