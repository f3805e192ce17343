import { data, redirect, useLocation } from "react-router";
import { fieldErrors } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage, Panel } from "~/modules/admin/components/admin-page";
import { FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { DoneNotice, FormMessage, formatWhen } from "~/modules/admin/content-fields";
import { RecordField, RecordForm } from "~/modules/admin/components/record-form";
import { webInfoFormSchema } from "~/modules/admin/content-schemas";
import { getCompanySettings, saveCompanyDetails, saveWebInfo } from "~/modules/admin/content.server";
import { companyFormSchema } from "~/modules/admin/schemas";
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
  return (
    <RecordForm
      schema={companyFormSchema}
      reply={reply}
      intent="company"
      label="Save phone"
      testId="company-form"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <RecordField
          label="Phone, local format"
          name="phone"
          autoComplete="off"
          type="tel"
          stored={company?.phone ?? ""}
          hint="The store's one phone: the header, footer, contact page and e-mails show it, like (212) 555-0100. The settings page edits the same one."
        />
        <RecordField
          label="Phone, international format"
          name="phonecall"
          autoComplete="off"
          type="tel"
          stored={company?.phonecall ?? ""}
          hint="What the phone link dials, like +12125550100."
        />
      </div>
    </RecordForm>
  );
}

function WebInfoForm({ info, reply }: { info: Settings["webInfo"]; reply?: Reply }) {
  return (
    <RecordForm
      schema={webInfoFormSchema}
      reply={reply}
      intent="webinfo"
      label="Save web info"
      testId="web-info-form"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <RecordField
          label="Store name"
          name="name"
          autoComplete="off"
          stored={info?.name ?? ""}
          hint="Shown in the header, the footer, the reseller notices and e-mails."
        />
        <RecordField
          label="E-mail address"
          name="email"
          autoComplete="off"
          type="email"
          stored={info?.email ?? ""}
        />
        <RecordField
          label="USA office address"
          name="address2"
          autoComplete="off"
          rows={3}
          stored={info?.address2 ?? ""}
          hint="Empty hides this office."
        />
        <RecordField
          label="India office address"
          name="address"
          autoComplete="off"
          rows={3}
          stored={info?.address ?? ""}
          hint="Empty hides this office."
        />
      </div>
    </RecordForm>
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
