import { asc, desc, eq } from "drizzle-orm";
import { banners, blogPosts } from "~db/schema";
import type { ServerContext } from "~/context";

export async function getActiveBanners({ db }: Pick<ServerContext, "db">) {
  return db
    .select({
      id: banners.id,
      title: banners.title,
      subtitle: banners.subtitle,
      image: banners.image,
      alt: banners.alt,
      link: banners.link,
    })
    .from(banners)
    .where(eq(banners.active, true))
    .orderBy(asc(banners.position), asc(banners.id));
}

export async function getLatestBlogPosts({ db }: Pick<ServerContext, "db">, limit = 3) {
  return db
    .select({
      slug: blogPosts.slug,
      title: blogPosts.title,
      excerpt: blogPosts.excerpt,
      image: blogPosts.image,
      publishedAt: blogPosts.publishedAt,
    })
    .from(blogPosts)
    .orderBy(desc(blogPosts.publishedAt))
    .limit(limit);
}
