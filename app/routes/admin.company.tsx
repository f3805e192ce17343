import { data, Form, redirect, useLocation } from "react-router";
import { fieldErrors } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage, Panel } from "~/modules/admin/components/admin-page";
import { FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { DoneNotice, FormButtons, FormMessage, formatWhen } from "~/modules/admin/content-fields";
import { WEB_INFO_LIMITS, webInfoFormSchema } from "~/modules/admin/content-schemas";
import { getCompanySettings, saveCompanyDetails, saveWebInfo } from "~/modules/admin/content.server";
import { companyFormSchema } from "~/modules/admin/schemas";
import { TextAreaField, TextField } from "~/ui/field";
import { useFormCheck } from "~/lib/use-form-check";
import type { Route } from "./+types/admin.company";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return data(await getCompanySettings(context.db), { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [
  { title: "Company details · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const { intent, ...values } = body.values;
  if (intent === "company") {
    const parsed = companyFormSchema.safeParse(values);
    if (!parsed.success)
      return reply(400, { message: FIX_FIELDS, intent, errors: fieldErrors(parsed.error), values });
    await saveCompanyDetails(context.db, parsed.data, admin.email);
    return redirect("/admin/company?done=company");
  }
  if (intent === "webinfo") {
    const parsed = webInfoFormSchema.safeParse(values);
    if (!parsed.success)
      return reply(400, { message: FIX_FIELDS, intent, errors: fieldErrors(parsed.error), values });
    await saveWebInfo(context.db, parsed.data, admin.email);
    return redirect("/admin/company?done=webinfo");
  }
  return reply(400, { message: "Choose what to do with the page's buttons." });
}

type Reply = Route.ComponentProps["actionData"];
type Settings = Route.ComponentProps["loaderData"];

function CompanyForm({ company, reply }: { company: Settings["company"]; reply?: Reply }) {
  const { errors, onSubmit, onChange, formRef } = useFormCheck(companyFormSchema, reply?.errors);
  const pick = (field: "phone" | "phonecall") => reply?.values?.[field] ?? company?.[field] ?? "";
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={onChange}
      className="space-y-4"
      data-testid="company-form"
    >
      <input type="hidden" name="intent" value="company" />
      <FormMessage message={reply?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Phone, local format"
          name="phone"
          autoComplete="off"
          type="tel"
          required
          maxLength={40}
          defaultValue={pick("phone")}
          error={errors.phone}
          hint="The store's one phone: the header, footer, contact page and e-mails show it, like (212) 555-0100. The settings page edits the same one."
        />
        <TextField
          label="Phone, international format"
          name="phonecall"
          autoComplete="off"
          type="tel"
          required
          maxLength={16}
          defaultValue={pick("phonecall")}
          error={errors.phonecall}
          hint="What the phone link dials, like +12125550100."
        />
      </div>
      <FormButtons label="Save phone" />
    </Form>
  );
}

function WebInfoForm({ info, reply }: { info: Settings["webInfo"]; reply?: Reply }) {
  const { errors, onSubmit, onChange, formRef } = useFormCheck(webInfoFormSchema, reply?.errors);
  const pick = (field: "name" | "email" | "address" | "address2") =>
    reply?.values?.[field] ?? info?.[field] ?? "";
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={onChange}
      className="space-y-4"
      data-testid="web-info-form"
    >
      <input type="hidden" name="intent" value="webinfo" />
      <FormMessage message={reply?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Store name"
          name="name"
          autoComplete="off"
          required
          maxLength={WEB_INFO_LIMITS.name}
          defaultValue={pick("name")}
          error={errors.name}
          hint="Shown in the header, the footer, the reseller notices and e-mails."
        />
        <TextField
          label="E-mail address"
          name="email"
          autoComplete="off"
          type="email"
          required
          maxLength={WEB_INFO_LIMITS.email}
          defaultValue={pick("email")}
          error={errors.email}
        />
        <TextAreaField
          label="USA office address"
          name="address2"
          autoComplete="off"
          rows={3}
          maxLength={WEB_INFO_LIMITS.address}
          defaultValue={pick("address2")}
          error={errors.address2}
          hint="Empty hides this office."
        />
        <TextAreaField
          label="India office address"
          name="address"
          autoComplete="off"
          rows={3}
          maxLength={WEB_INFO_LIMITS.address}
          defaultValue={pick("address")}
          error={errors.address}
          hint="Empty hides this office."
        />
      </div>
      <FormButtons label="Save web info" />
    </Form>
  );
}

export default function CompanyPage({ loaderData, actionData }: Route.ComponentProps) {
  const { company, webInfo } = loaderData;
  const location = useLocation();
  return (
    <AdminPage
      title="Company details"
      intro="The phone every page shows, and the store's default web info used by the contact and about pages."
    >
      <DoneNotice
        messages={{
          company: "Phone saved: the header shows it now.",
          webinfo: "Web info saved: the contact and about pages show it now.",
        }}
      />
      <div className="space-y-6">
        <Panel
          title="Company phone"
          testId="company-panel"
          description={
            company ? (
              <>
                The header shows <strong className="text-ink-900">{company.phone}</strong>, dialling{" "}
                <span className="font-mono">{company.phonecall}</span>. Saved {formatWhen(company.updatedAt)}.
              </>
            ) : (
              "No company record yet: the header shows no phone until you save one."
            )
          }
        >
          <CompanyForm
            key={`company:${location.key}`}
            company={company}
            reply={actionData?.intent === "company" ? actionData : undefined}
          />
        </Panel>
        <Panel
          title="Default web info"
          testId="web-info-panel"
          description={
            webInfo
              ? `Saved ${formatWhen(webInfo.updatedAt)}. The next e-mail the store sends uses a new name or address.`
              : "No web info yet: the store is called “Storefront” until you save it."
          }
        >
          <WebInfoForm
            key={`webinfo:${location.key}`}
            info={webInfo}
            reply={actionData?.intent === "webinfo" ? actionData : undefined}
          />
        </Panel>
        {actionData && !actionData.intent ? <FormMessage message={actionData.message} /> : null}
      </div>
    </AdminPage>
  );
}
