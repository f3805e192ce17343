import { and, asc, count, desc, ilike, or, type SQL } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { blogPosts } from "~db/schema";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const blogListQuery = listQuerySchema(["published", "title", "slug"], {
  sort: "published",
  dir: "desc",
});
type BlogListQuery = ReturnType<typeof blogListQuery.parse>;

const sorts = { published: blogPosts.publishedAt, title: blogPosts.title, slug: blogPosts.slug };

export type BlogPostRow = typeof blogPosts.$inferSelect;

/** One page of the blog teasers the home page shows (the spec's _blogs list). */
export async function listBlogPosts(db: Database, query: BlogListQuery): Promise<ListPage<BlogPostRow>> {
  const filters: SQL[] = [];
  if (query.q)
    filters.push(
      or(ilike(blogPosts.title, likePattern(query.q)), ilike(blogPosts.slug, likePattern(query.q)))!,
    );
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = sorts[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(blogPosts)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(blogPosts.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(blogPosts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
