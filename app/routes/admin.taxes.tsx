import { data, redirect, useLocation } from "react-router";
import { z } from "zod";
import { fieldErrors, formToObject } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { type TAX_DONE_MESSAGES, TaxesScreen } from "~/modules/admin/components/taxes-page";
import { rowId } from "~/modules/admin/content-schemas";
import { backToList, FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import {
  deleteTaxRegistration,
  deleteTaxRule,
  getTaxRule,
  listTaxRules,
  MAX_REGISTRATIONS,
  moveTaxRule,
  savePricesIncludeTax,
  saveTaxRegistration,
  createTaxRule,
  updateTaxRule,
} from "~/modules/admin/tax-rules.server";
import {
  pricesFormSchema,
  taxRegistrationFormSchema,
  taxRegistrationFormValues,
  taxRuleFormSchema,
  taxRuleFormValues,
} from "~/modules/admin/tax-schemas";
import { getSettings } from "~/modules/orders/settings.server";
import type { Route } from "./+types/admin.taxes";

const RULE_GONE = "There is no such tax rule: it may have been deleted.";
const REGISTRATIONS_CHANGED =
  "The registrations changed since this page was opened (another admin?): nothing was saved. Look again and retry.";
const notFound = (message: string) => data({ message }, { status: 404, headers: PRIVATE_HEADERS });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const [store, rules] = await Promise.all([getSettings(context.db), listTaxRules(context.db)]);
  let rule: { id: number | null; values: Record<string, string> } | null = null;
  const ruleParam = url.searchParams.get("rule");
  if (ruleParam === "new") rule = { id: null, values: { country: "US", productKind: "all" } };
  else if (ruleParam !== null) {
    const id = rowId.safeParse(ruleParam);
    const found = id.success ? await getTaxRule(context.db, id.data) : null;
    if (!found) throw notFound(RULE_GONE);
    rule = { id: found.id, values: taxRuleFormValues(found) };
  }
  let registration: { index: number | null; was: string; values: Record<string, string> } | null = null;
  const registrationParam = url.searchParams.get("registration");
  if (registrationParam === "new") registration = { index: null, was: "", values: { country: "US" } };
  else if (registrationParam !== null) {
    const index = /^\d{1,2}$/.test(registrationParam) ? Number(registrationParam) : -1;
    const found = store.taxRegistrations[index];
    if (!found) throw notFound("There is no such registration: it may have been deleted.");
    registration = { index, was: found.number, values: taxRegistrationFormValues(found) };
  }
  return data(
    {
      pricesIncludeTax: store.pricesIncludeTax,
      registrations: store.taxRegistrations,
      rules: rules.map((row) => ({
        id: row.id,
        country: row.country,
        region: row.region,
        productKind: row.productKind,
        name: row.name,
        rateBasisPoints: row.rateBasisPoints,
        appliesToShipping: row.appliesToShipping,
      })),
      rule,
      registration,
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Taxes · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const ruleRef = z.object({ id: rowId });
const moveForm = z.object({ id: rowId, direction: z.enum(["up", "down"]) });
/** Which registration a form changes: its place in the list and the number it had when the form was opened. */
const registrationRef = z.object({ index: z.coerce.number().int().min(0).max(99), was: z.string().max(40) });

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const { intent, ...values } = body.values;
  const done = (word: keyof typeof TAX_DONE_MESSAGES) =>
    redirect(backToList(request, word, ["rule", "registration"]));
  const refused = (errors: Record<string, string | undefined>) =>
    reply(400, { message: FIX_FIELDS, intent, errors, values });

  switch (intent) {
    case "prices": {
      const parsed = pricesFormSchema.parse(values);
      await savePricesIncludeTax(context.db, parsed.pricesIncludeTax, admin.email);
      return done("prices");
    }
    case "rule-save": {
      const parsed = taxRuleFormSchema.safeParse(formToObject(values));
      if (!parsed.success) return refused(fieldErrors(parsed.error));
      if (!values.id) {
        await createTaxRule(context.db, parsed.data, admin.email);
        return done("rule-created");
      }
      const ref = ruleRef.safeParse(values);
      if (!ref.success || !(await updateTaxRule(context.db, ref.data.id, parsed.data, admin.email)))
        return reply(404, { message: RULE_GONE, intent });
      return done("rule-saved");
    }
    case "rule-delete": {
      const ref = ruleRef.safeParse(values);
      if (!ref.success || !(await deleteTaxRule(context.db, ref.data.id, admin.email)))
        return reply(404, { message: RULE_GONE, intent });
      return done("rule-deleted");
    }
    case "rule-move": {
      const move = moveForm.safeParse(values);
      if (!move.success) return reply(400, { message: "Move a rule up or down with its arrows.", intent });
      if (!(await moveTaxRule(context.db, move.data.id, move.data.direction, admin.email)))
        return reply(404, { message: RULE_GONE, intent });
      return done("rule-moved");
    }
    case "registration-save": {
      const parsed = taxRegistrationFormSchema.safeParse(formToObject(values));
      if (!parsed.success) return refused(fieldErrors(parsed.error));
      const ref =
        values.index === undefined || values.index === "" ? null : registrationRef.safeParse(values);
      if (ref && !ref.success) return reply(409, { message: REGISTRATIONS_CHANGED, intent });
      const outcome = await saveTaxRegistration(context.db, ref?.data ?? null, parsed.data, admin.email);
      if (outcome.ok) return done(ref ? "registration-saved" : "registration-created");
      if (outcome.reason === "duplicate") return refused({ number: "This registration is listed already" });
      if (outcome.reason === "full")
        return reply(400, { message: `The store keeps at most ${MAX_REGISTRATIONS} registrations.`, intent });
      return reply(409, { message: REGISTRATIONS_CHANGED, intent });
    }
    case "registration-delete": {
      const ref = registrationRef.safeParse(values);
      const outcome = ref.success ? await deleteTaxRegistration(context.db, ref.data, admin.email) : null;
      if (!outcome?.ok) return reply(409, { message: REGISTRATIONS_CHANGED, intent });
      return done("registration-deleted");
    }
    default:
      return reply(400, { message: "Choose what to do with the page's buttons." });
  }
}

export default function TaxesPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  return <TaxesScreen {...loaderData} reply={actionData} formKey={location.key} />;
}
