import { data } from "react-router";
import { z } from "zod";
import { fieldErrors } from "~/lib/forms";
import { readFormBody } from "~/lib/form-data.server";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { defaultReviewName, reviewForm } from "~/modules/catalogue/review-schemas";
import { ReviewPage } from "~/modules/orders/components/review-page";
import { reviewPageData, submitReview } from "~/modules/orders/reviews.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.review";

const productId = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

function productOf(params: Route.LoaderArgs["params"]) {
  const id = productId.safeParse(params.productId);
  if (!id.success) throw data("There is no such product.", { status: 404, headers: PRIVATE_HEADERS });
  return id.data;
}

/** A verified buyer's review of one product (personal: never in the page cache; the product page only links here). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const page = await reviewPageData(context.db, viewer.id, productOf(params));
  if (!page.product) throw data("There is no such product.", { status: 404, headers: PRIVATE_HEADERS });
  const seo = await seoForPath(context, new URL(request.url).pathname, {
    page: { title: `Review ${page.product.name}`, description: "Rate and review a product you bought." },
  });
  return data(
    { ...page, suggestedName: defaultReviewName(viewer.name), seo },
    { status: page.bought || page.own ? 200 : 403, headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

/** Sends the review: checked with the form's schema, then written once, pending the owner's approval. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const id = productOf(params);
  const body = await readFormBody(request);
  const values = body.ok ? body.values : {};
  const form = reviewForm.safeParse(values);
  if (!form.success) {
    const errors = fieldErrors(form.error);
    // What was posted comes back into the fields, cut to what they hold (a huge post is not echoed whole).
    const shown = Object.fromEntries(
      ["rating", "body", "authorName"].map((name) => [name, String(values[name] ?? "").slice(0, 2000)]),
    );
    return data(
      { ok: false, message: Object.values(errors)[0], errors, values: shown },
      { status: 400, headers: PRIVATE_HEADERS },
    );
  }
  const done = await submitReview(context.db, viewer.id, id, form.data);
  if (!done.ok)
    return data({ ok: false, message: done.message }, { status: done.status, headers: PRIVATE_HEADERS });
  return data(
    { ok: true, message: "Thank you: your review waits for the store's approval." },
    { headers: PRIVATE_HEADERS },
  );
}

export default function UserReview({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ReviewPage
      product={loaderData.product}
      bought={loaderData.bought}
      own={loaderData.own}
      suggestedName={loaderData.suggestedName}
      reply={actionData && !actionData.ok ? actionData : undefined}
    />
  );
}
