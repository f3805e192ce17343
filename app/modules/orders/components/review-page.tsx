import { Form, Link, useNavigation } from "react-router";
import type { FieldErrors } from "~/lib/forms";
import { useFormCheck } from "~/lib/use-form-check";
import { AccountShell, Card, formatDate } from "~/modules/accounts/components/account-shell";
import { Stars } from "~/modules/catalogue/components/stars";
import { REVIEW_MAX, REVIEW_MIN, REVIEW_NAME_MAX, reviewForm } from "~/modules/catalogue/review-schemas";
import { TextAreaField, TextField } from "~/ui/field";
import type { OwnReview } from "../reviews.server";

const STATUS_TEXT: Record<OwnReview["status"], string> = {
  pending: "Waiting for the store's approval: it shows on the product's page once approved.",
  approved: "Published on the product's page.",
  hidden: "Not shown on the product's page.",
};

type Product = { id: number; name: string; route: string };

export type ReviewPageProps = {
  product: Product | null;
  /** Whether this customer bought it (a paid, unrefunded line in one of their orders). */
  bought: boolean;
  own: OwnReview | null;
  suggestedName: string;
  reply?: { errors?: FieldErrors; values?: Record<string, string>; message?: string };
};

/** A verified buyer's review of one product: the form, or the review they wrote and where it stands. */
export function ReviewPage({ product, bought, own, suggestedName, reply }: ReviewPageProps) {
  return (
    <AccountShell
      title={product ? `Review ${product.name}` : "Review a product"}
      intro="Reviews come from customers who bought the product, one per product, and show once the store approves them."
      testId="user-review"
    >
      {own ? (
        <OwnReviewCard own={own} product={product} />
      ) : !product || !bought ? (
        <Card title="You cannot review this product">
          <p className="text-sm text-slate-700" role="alert" data-testid="review-refused">
            Only customers who bought this product (a paid order in their account) can review it.
          </p>
          {product ? (
            <p className="mt-3 text-sm">
              <Link to={product.route} className="font-semibold text-brand-700 hover:underline">
                Back to {product.name}
              </Link>
            </p>
          ) : null}
        </Card>
      ) : (
        <ReviewForm suggestedName={suggestedName} reply={reply} />
      )}
    </AccountShell>
  );
}

function OwnReviewCard({ own, product }: { own: OwnReview; product: Product | null }) {
  return (
    <Card title="Your review" testId="own-review">
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Stars rating={own.rating} />
        <span>{own.rating} out of 5</span>
        <span>· {formatDate(own.createdAt)}</span>
      </p>
      <p className="mt-3 whitespace-pre-line break-words text-ink-900">{own.body}</p>
      <p className="mt-2 text-sm text-slate-600">Shown as {own.authorName}</p>
      <p className="mt-3 text-sm font-semibold text-ink-900" data-testid="own-review-status">
        {STATUS_TEXT[own.status]}
      </p>
      {own.reply ? (
        <p className="mt-3 whitespace-pre-line break-words rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          <span className="font-semibold">The store replied:</span> {own.reply}
        </p>
      ) : null}
      {product ? (
        <p className="mt-4 text-sm">
          <Link to={product.route} className="font-semibold text-brand-700 hover:underline">
            Back to {product.name}
          </Link>
        </p>
      ) : null}
    </Card>
  );
}

function ReviewForm({ suggestedName, reply }: { suggestedName: string; reply?: ReviewPageProps["reply"] }) {
  const { errors, onSubmit, onChange, formRef } = useFormCheck(reviewForm, reply?.errors);
  const busy = useNavigation().state === "submitting";
  const values = reply?.values ?? {};
  const ratingError = errors.rating;
  return (
    <Card title="Your review" testId="review-form-card">
      {reply?.message && !reply.errors ? (
        <p className="mb-3 text-sm font-semibold text-red-700" role="alert">
          {reply.message}
        </p>
      ) : null}
      <Form
        method="post"
        noValidate
        ref={formRef}
        onSubmit={onSubmit}
        onChange={onChange}
        className="space-y-4"
      >
        <fieldset aria-describedby={ratingError ? "rating-error" : undefined}>
          <legend className="text-sm font-medium text-ink-800">Your rating</legend>
          <div className="mt-1 flex flex-wrap gap-2">
            {[5, 4, 3, 2, 1].map((n) => (
              <label
                key={n}
                className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input type="radio" name="rating" value={n} defaultChecked={values.rating === String(n)} />
                <Stars rating={n} width={70} />
                <span>
                  {n} {n === 1 ? "star" : "stars"}
                </span>
              </label>
            ))}
          </div>
          {ratingError ? (
            <p id="rating-error" className="mt-1 text-sm text-red-700" role="alert">
              {ratingError}
            </p>
          ) : null}
        </fieldset>
        <TextAreaField
          label="Your review"
          name="body"
          rows={6}
          maxLength={REVIEW_MAX}
          defaultValue={values.body ?? ""}
          error={errors.body}
          hint={`Plain text, ${REVIEW_MIN} to ${REVIEW_MAX.toLocaleString("en-US")} characters: what you bought it for, how it works.`}
        />
        <TextField
          label="Show my name as"
          name="authorName"
          maxLength={REVIEW_NAME_MAX}
          autoComplete="off"
          defaultValue={values.authorName ?? suggestedName}
          error={errors.authorName}
          hint="Your first name and initial, or any name you like; your e-mail is never shown."
        />
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
        >
          Send the review
        </button>
      </Form>
    </Card>
  );
}
