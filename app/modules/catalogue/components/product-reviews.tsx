import { PageLink } from "~/ui/page-link";
import type { ProductReviews as ProductReviewsData } from "../reviews.server";
import { Pager } from "./pager";
import { RatingLine, Stars } from "./stars";

/**
 * A product's approved reviews, newest first, a page at a time, with their average and count. The same for every
 * visitor (the page is cached for all): writing a review happens on the customer's own page, linked from here.
 */
export function ProductReviews({ productId, reviews }: { productId: number; reviews: ProductReviewsData }) {
  const { summary, items } = reviews;
  return (
    <section
      id="reviews"
      aria-labelledby="reviews-heading"
      className="mx-auto max-w-7xl px-4 pt-10"
      data-testid="product-reviews"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="reviews-heading" className="text-2xl font-bold tracking-tight text-ink-900">
            Customer reviews
          </h2>
          {summary ? (
            <RatingLine
              average={summary.average}
              count={summary.count}
              className="mt-1 text-base"
              testId="review-summary"
            />
          ) : (
            <p className="mt-1 text-sm text-slate-600" data-testid="review-summary">
              No reviews yet.
            </p>
          )}
        </div>
        <PageLink
          to={`/user/reviews/${productId}`}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-ink-900 hover:border-brand-400 hover:text-brand-700"
          data-testid="write-review"
        >
          Write a review
        </PageLink>
      </div>
      <p className="mt-2 text-sm text-slate-600">Only customers who bought the product can review it.</p>
      {items.some((review) => review.sample) ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="sample-review-note">
          Reviews marked “Sample content” are sample content of the demo store, not statements of real
          customers.
        </p>
      ) : null}
      {items.length > 0 ? (
        <ol className="mt-6 grid gap-4 lg:grid-cols-2" data-testid="review-list">
          {items.map((review) => (
            <li
              key={review.id}
              className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
              data-testid="review"
            >
              <article aria-label={`Review by ${review.authorName}`}>
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <Stars rating={review.rating} />
                  <span className="sr-only">Rated {review.rating} out of 5</span>
                  <span className="font-semibold text-ink-900">{review.authorName}</span>
                  <time dateTime={review.createdAt} className="text-slate-600">
                    {review.createdOn}
                  </time>
                  {review.sample ? (
                    <span
                      className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900"
                      data-testid="review-sample"
                    >
                      Sample content
                    </span>
                  ) : (
                    <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-semibold text-emerald-900">
                      Verified buyer
                    </span>
                  )}
                </div>
                <p className="mt-3 whitespace-pre-line break-words text-ink-900" data-testid="review-body">
                  {review.body}
                </p>
                {review.reply ? (
                  <div
                    className="mt-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-700"
                    data-testid="review-reply"
                  >
                    <p className="font-semibold text-ink-900">The store replied</p>
                    <p className="mt-1 whitespace-pre-line break-words">{review.reply}</p>
                  </div>
                ) : null}
              </article>
            </li>
          ))}
        </ol>
      ) : null}
      <Pager page={reviews.page} pageCount={reviews.pageCount} />
    </section>
  );
}
