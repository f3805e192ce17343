import { data, redirect } from "react-router";
import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { PromotionsList } from "~/modules/admin/components/promotions-list";
import { rowId } from "~/modules/admin/content-schemas";
import { backToList, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { readListQuery } from "~/modules/admin/list-query";
import { promotionListQuery } from "~/modules/admin/promotions-schemas";
import { deletePromotion, listPromotions, setPromotionPaused } from "~/modules/admin/promotions.server";
import type { Route } from "./+types/admin.promotions";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = readListQuery(promotionListQuery, request);
  const { counts, ...page } = await listPromotions(context.db, query);
  return data({ page, query, counts }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [
  { title: "Discount codes · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const NOT_FOUND = "There is no such discount code: it may have been deleted.";
const rowAction = z.object({ intent: z.enum(["pause", "resume", "delete"]), id: rowId });

/** The list's row buttons (the edit page's too): pause, resume and delete one code. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const parsed = rowAction.safeParse(body.values);
  if (!parsed.success) {
    return body.values.intent === "delete" ||
      body.values.intent === "pause" ||
      body.values.intent === "resume"
      ? reply(404, { message: NOT_FOUND })
      : reply(400, { message: "Choose what to do with a code's buttons." });
  }
  const { intent, id } = parsed.data;
  if (intent === "delete") {
    const deleted = await deletePromotion(context.db, id, admin.email);
    if (deleted.ok) return redirect(backToList(request, "deleted"));
    if (deleted.reason === "not-found") return reply(404, { message: NOT_FOUND });
    return reply(409, {
      message: `This code was used by ${deleted.orders} ${deleted.orders === 1 ? "order" : "orders"}, so it stays with its figures: pause it instead.`,
    });
  }
  if (!(await setPromotionPaused(context.db, id, intent === "pause", admin.email)))
    return reply(404, { message: NOT_FOUND });
  return redirect(backToList(request, intent === "pause" ? "paused" : "resumed"));
}

export default function PromotionsPage({ loaderData, actionData }: Route.ComponentProps) {
  return <PromotionsList {...loaderData} reply={actionData} />;
}
