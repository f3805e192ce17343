import { and, asc, count, desc, ilike, or, type SQL } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { banners } from "~db/schema";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const bannerListQuery = listQuerySchema(["position", "title"], { sort: "position", dir: "asc" });
type BannerListQuery = ReturnType<typeof bannerListQuery.parse>;

const sorts = { position: banners.position, title: banners.title };

export type BannerRow = typeof banners.$inferSelect;

/** One page of the home page's banners (the spec's banners list), in the order they show. */
export async function listBanners(db: Database, query: BannerListQuery): Promise<ListPage<BannerRow>> {
  const filters: SQL[] = [];
  if (query.q)
    filters.push(or(ilike(banners.title, likePattern(query.q)), ilike(banners.link, likePattern(query.q)))!);
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = sorts[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(banners)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(banners.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(banners).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
