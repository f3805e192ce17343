import { data } from "react-router";
import { z } from "zod";
import { refusal, success } from "~/lib/action-reply";
import { readFormBody } from "~/lib/form-data.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { rowId } from "~/modules/admin/content-schemas";
import { ReviewsPage } from "~/modules/admin/components/reviews-page";
import { loadAdminList } from "~/modules/admin/lists.server";
import { listReviews, moderateReview, pendingReviewCount, reviewQuery } from "~/modules/admin/reviews.server";
import { reviewReply } from "~/modules/catalogue/review-schemas";
import type { Route } from "./+types/admin.reviews";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = await loadAdminList(
    { request, context },
    {
      query: reviewQuery,
      load: (db, query) => Promise.all([listReviews(db, query), pendingReviewCount(db)]),
    },
  );
  const [list, pending] = page;
  return data({ query, page: list, pending }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [{ title: "Reviews · Store admin" }];

type Answer = { reviewId?: number };

const moderationForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["approve", "hide", "unreply"]), reviewId: rowId }),
  z.object({ intent: z.literal("reply"), reviewId: rowId, reply: z.string().default("") }),
]);

/** Approve, hide, reply or remove the reply of one review; audited, refused with nothing changed when it cannot. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const body = await readFormBody(request);
  const form = moderationForm.safeParse(body.ok ? body.values : {});
  if (!form.success)
    return refusal<Answer>(
      400,
      { message: "Choose a review with its Approve, Hide or Reply button." },
      PRIVATE_HEADERS,
    );
  const { reviewId } = form.data;
  let change;
  if (form.data.intent === "reply") {
    const reply = reviewReply.safeParse(form.data.reply);
    if (!reply.success) {
      const message = reply.error.issues[0]!.message;
      return refusal<Answer>(400, { message, reviewId, errors: { reply: message } }, PRIVATE_HEADERS);
    }
    change = { intent: "reply" as const, reviewId, reply: reply.data };
  } else change = { intent: form.data.intent, reviewId };
  const done = await moderateReview(context.db, change, viewer.email);
  if (!done.ok) return refusal<Answer>(done.status, { message: done.message, reviewId }, PRIVATE_HEADERS);
  return success<Answer>({ message: done.message, reviewId }, PRIVATE_HEADERS);
}

export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  return <ReviewsPage {...loaderData} reply={actionData} />;
}
