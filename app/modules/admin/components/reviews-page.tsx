import { Form, Link, useNavigation } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { Stars } from "~/modules/catalogue/components/stars";
import type { ReviewQuery, ReviewRow } from "../reviews.server";
import { ActionNotice, AdminPage } from "./admin-page";
import { FilterLinks, Pagination } from "./list-controls";
import { StatusPill } from "./status-pill";

export type ReviewReply = ActionReply<{ reviewId?: number }>;

const STATUS_FILTERS = [
  ["pending", "Waiting"],
  ["approved", "Approved"],
  ["hidden", "Hidden"],
  ["all", "All"],
] as const;

const STATUS_LABEL: Record<ReviewRow["status"], string> = {
  pending: "Waiting",
  approved: "Approved",
  hidden: "Hidden",
};

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  }) + " UTC";

const secondaryButton =
  "rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-ink-900 hover:bg-slate-50 disabled:text-slate-400";

/** The owner's queue of product reviews: approve (public), hide (off the page), reply under a review. */
export function ReviewsPage({
  query,
  page,
  pending,
  reply,
}: {
  query: ReviewQuery;
  page: { rows: ReviewRow[]; total: number };
  pending: number;
  reply?: ReviewReply;
}) {
  return (
    <AdminPage
      title="Reviews"
      intro={`Reviews from customers who bought the product${pending > 0 ? ` (${pending} waiting)` : ""}. Only approved reviews show on the product's page, its cards and its search data; hide one to take it off, and reply to answer it in public.`}
    >
      <ActionNotice result={reply} />
      <FilterLinks label="Review status" param="status" options={STATUS_FILTERS} current={query.status} />
      {page.rows.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600" data-testid="reviews-empty">
          {query.status === "pending" ? "No review waits for you." : "No reviews here."}
        </p>
      ) : (
        <ol className="mt-6 space-y-4" data-testid="admin-reviews">
          {page.rows.map((row) => (
            <ReviewItem
              key={row.id}
              row={row}
              replyError={reply && !reply.ok && reply.reviewId === row.id ? reply.errors?.reply : undefined}
            />
          ))}
        </ol>
      )}
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}

function ReviewItem({ row, replyError }: { row: ReviewRow; replyError?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("reviewId") === String(row.id);
  const headingId = `review-${row.id}`;
  const fieldId = `review-${row.id}-reply`;
  const button = (intent: "approve" | "hide", label: string, primary: boolean) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="reviewId" value={row.id} />
      <button
        type="submit"
        disabled={busy}
        data-testid={`review-${intent}`}
        className={
          primary
            ? "rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
            : secondaryButton
        }
      >
        {label}
        <span className="sr-only">
          {" "}
          the review of {row.product.name} by {row.authorName}
        </span>
      </button>
    </Form>
  );
  return (
    <li
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      aria-labelledby={headingId}
      data-testid="admin-review"
      data-review-id={row.id}
      data-status={row.status}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="font-bold text-ink-900">
            <Link to={row.product.route} className="hover:underline">
              {row.product.name}
            </Link>
          </h2>
          <p className="mt-0.5 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <Stars rating={row.rating} />
            <span>{row.rating} out of 5</span>
            <span>· by {row.authorName}</span>
            {row.sample ? <span className="font-semibold">· sample content</span> : null}
          </p>
          <p className="break-all text-sm text-slate-700">
            {row.customerEmail ?? "No account (sample)"}
            {row.orderNumber !== null ? (
              <>
                {" · "}
                <Link
                  to={`/admin/orders/${row.orderNumber}`}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  {`Order #${row.orderNumber}`}
                </Link>
              </>
            ) : null}
          </p>
        </div>
        <p className="text-sm text-slate-600">
          <StatusPill
            tone={row.status === "pending" ? "waiting" : row.status === "approved" ? "done" : "closed"}
            testId="admin-review-status"
          >
            {STATUS_LABEL[row.status]}
          </StatusPill>{" "}
          <time dateTime={row.createdAt}>{when(row.createdAt)}</time>
        </p>
      </div>
      <blockquote className="mt-3 whitespace-pre-line break-words border-l-4 border-slate-200 pl-3 text-sm text-ink-900">
        {row.body}
      </blockquote>
      {row.reply ? (
        <p
          className="mt-2 whitespace-pre-line break-words text-sm text-slate-700"
          data-testid="admin-review-reply"
        >
          <span className="font-semibold">Your reply:</span> {row.reply}
        </p>
      ) : null}
      {row.moderatedAt ? (
        <p className="mt-2 text-xs text-slate-600">
          {STATUS_LABEL[row.status]} {when(row.moderatedAt)}
          {row.moderatedBy ? ` · ${row.moderatedBy.replace(/^admin:/, "")}` : ""}
        </p>
      ) : null}
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        {row.status !== "approved" ? button("approve", "Approve", true) : null}
        {row.status !== "hidden" ? button("hide", "Hide", row.status === "approved") : null}
        <details className="min-w-0 flex-1 text-sm" open={replyError ? true : undefined}>
          <summary className={`cursor-pointer sm:inline-block ${secondaryButton}`}>
            {row.reply ? "Change the reply" : "Reply"}
            <span className="sr-only"> to {row.authorName}</span>
          </summary>
          <Form method="post" className="mt-2 space-y-2" data-testid="review-reply-form">
            <input type="hidden" name="intent" value="reply" />
            <input type="hidden" name="reviewId" value={row.id} />
            <label htmlFor={fieldId} className="block text-slate-700">
              Your public reply, shown under the review (2 to 1,000 characters, plain text)
            </label>
            <textarea
              id={fieldId}
              name="reply"
              required
              minLength={2}
              maxLength={1000}
              rows={3}
              defaultValue={row.reply ?? ""}
              aria-invalid={replyError ? true : undefined}
              aria-describedby={replyError ? `${fieldId}-error` : undefined}
              className={`block w-full rounded-lg border px-3 py-2 ${replyError ? "border-red-500" : "border-slate-300"}`}
            />
            {replyError ? (
              <p id={`${fieldId}-error`} className="text-red-700">
                {replyError}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <button type="submit" disabled={busy} className={secondaryButton}>
                Save the reply
              </button>
              {row.reply ? (
                <button
                  type="submit"
                  name="intent"
                  value="unreply"
                  disabled={busy}
                  formNoValidate
                  className={secondaryButton}
                >
                  Remove the reply
                </button>
              ) : null}
            </div>
          </Form>
        </details>
      </div>
    </li>
  );
}
