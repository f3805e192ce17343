/**
 * What a product's public pages show of its reviews: the approved ones alone (newest first, a page at a time), their
 * average and count. Read inside the page's snapshot entry; an approval, a hiding or a reply changes the content
 * version (migration 0033's triggers), so cached pages and cards showing the old figures are dropped.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { productReviews } from "~db/schema";
import { offsetOf, pageCountOf } from "./pagination";
import { REVIEWS_PER_PAGE } from "./review-schemas";

export type PublicReview = {
  id: number;
  rating: number;
  body: string;
  authorName: string;
  sample: boolean;
  createdAt: string;
  /** The day it was written, as the page shows it: "Nov 28, 2026" (UTC). */
  createdOn: string;
  reply: string | null;
  repliedAt: string | null;
};

/**
 * Written here rather than in the browser: a browser's first date formatter costs a slow phone about 30 ms of its main
 * thread (its locale data), the product page's longest task while it hydrates (112 ms at Lighthouse's 4x slowdown).
 */
const REVIEW_DAY = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export type RatingSummary = { average: number; count: number };

export type ProductReviews = {
  /** All approved reviews (samples included, which the page marks as such); null when there are none. */
  summary: RatingSummary | null;
  /** Approved reviews of verified buyers only: what structured data may claim (samples are not real opinions). */
  verified: RatingSummary | null;
  items: PublicReview[];
  page: number;
  pageCount: number;
};

const approvedOf = (productId: number) =>
  and(eq(productReviews.productId, productId), eq(productReviews.status, "approved"));

const summaryOf = (row: { n: number; average: string | null } | undefined): RatingSummary | null =>
  row && row.n > 0 && row.average !== null ? { average: Number(row.average), count: row.n } : null;

/** One page of a product's approved reviews with its figures; null past the last page (the first always exists). */
export async function productReviewsPage(
  db: Database,
  productId: number,
  page: number,
): Promise<ProductReviews | null> {
  const figures = (sample?: false) =>
    db
      .select({ n: count(), average: sql<string | null>`round(avg(${productReviews.rating}), 1)` })
      .from(productReviews)
      .where(
        sample === false
          ? and(approvedOf(productId), eq(productReviews.sample, false))
          : approvedOf(productId),
      );
  const [[all], [verified]] = await Promise.all([figures(), figures(false)]);
  const summary = summaryOf(all);
  const pageCount = pageCountOf(summary?.count ?? 0, REVIEWS_PER_PAGE);
  if (page > pageCount) return null;
  const rows = await db
    .select({
      id: productReviews.id,
      rating: productReviews.rating,
      body: productReviews.body,
      authorName: productReviews.authorName,
      sample: productReviews.sample,
      createdAt: productReviews.createdAt,
      reply: productReviews.reply,
      repliedAt: productReviews.repliedAt,
    })
    .from(productReviews)
    .where(approvedOf(productId))
    .orderBy(desc(productReviews.createdAt), desc(productReviews.id))
    .limit(REVIEWS_PER_PAGE)
    .offset(offsetOf(page, REVIEWS_PER_PAGE));
  return {
    summary,
    verified: summaryOf(verified),
    items: rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      createdOn: REVIEW_DAY.format(row.createdAt),
      repliedAt: row.repliedAt?.toISOString() ?? null,
    })),
    page,
    pageCount,
  };
}

/** A card's stars: the approved reviews' average (one decimal) and count, or null when it has none. */
export const cardRatingColumn = (productId: unknown) => sql<RatingSummary | null>`(
  select json_build_object('average', round(avg(r.rating), 1), 'count', count(*))
  from ${productReviews} r
  where r.product_id = ${productId} and r.status = 'approved'
  having count(*) > 0
)`;
