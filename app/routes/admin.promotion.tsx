import { data, redirect, useLocation } from "react-router";
import { fieldErrors, formToObject } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { PromotionEditor } from "~/modules/admin/components/promotion-form";
import { rowId } from "~/modules/admin/content-schemas";
import { FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { promotionFormSchema, promotionFormValues } from "~/modules/admin/promotions-schemas";
import {
  createPromotion,
  promotionForEdit,
  promotionScopeOptions,
  updatePromotion,
} from "~/modules/admin/promotions.server";
import type { Route } from "./+types/admin.promotion";

const NOT_FOUND = "There is no such discount code: it may have been deleted.";
const notFound = () => data({ message: NOT_FOUND }, { status: 404, headers: PRIVATE_HEADERS });

/** "new", or the id of a code (anything else is no code). */
function promotionId(param: string | undefined): number | "new" | null {
  if (param === "new") return "new";
  const id = rowId.safeParse(param);
  return id.success && /^[1-9]\d*$/.test(param ?? "") ? id.data : null;
}

const NEW_CODE: Record<string, string> = { kind: "percent", scope: "order" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const id = promotionId(params.id);
  if (id === null) throw notFound();
  const [found, options] = await Promise.all([
    id === "new" ? null : promotionForEdit(context.db, id),
    promotionScopeOptions(context.db),
  ]);
  if (id !== "new" && !found) throw notFound();
  if (!found)
    return data({ id: null, values: NEW_CODE, figures: null, options }, { headers: PRIVATE_HEADERS });
  const { promotion, ...figures } = found;
  return data(
    {
      id: promotion.id,
      values: promotionFormValues(promotion),
      figures: { ...figures, uses: promotion.uses, usageLimit: promotion.usageLimit },
      options,
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData?.id ? `Discount code ${loaderData.values.code}` : "New discount code"} · Store admin`,
  },
  { name: "robots", content: "noindex, nofollow" },
];

/** Saves the form: a new code, or the code's new terms. Back to the list once saved. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const id = promotionId(params.id);
  if (id === null) throw notFound();
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const values = body.values;
  const parsed = promotionFormSchema.safeParse(formToObject(values));
  if (!parsed.success) return reply(400, { message: FIX_FIELDS, errors: fieldErrors(parsed.error), values });
  const result =
    id === "new"
      ? await createPromotion(context.db, parsed.data, admin.email)
      : await updatePromotion(context.db, id, parsed.data, admin.email);
  if (!result.ok)
    return result.reason === "not-found"
      ? reply(404, { message: NOT_FOUND })
      : reply(400, { message: FIX_FIELDS, errors: result.errors, values });
  return redirect(`/admin/promotions?done=${id === "new" ? "created" : "saved"}`);
}

export default function PromotionPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  return <PromotionEditor {...loaderData} reply={actionData} formKey={location.key} />;
}
