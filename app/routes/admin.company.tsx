import { data, useLocation } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { saveSectionForm } from "~/modules/admin/form-actions.server";
import { DoneNotice, FormMessage, formatWhen } from "~/modules/admin/content-fields";
import { FormPanel, RecordFields } from "~/modules/admin/components/record-form";
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

export const action = (args: Route.ActionArgs) =>
  saveSectionForm(
    args,
    "/admin/company",
    {
      company: { schema: companyFormSchema, save: saveCompanyDetails },
      webinfo: { schema: webInfoFormSchema, save: saveWebInfo },
    },
    "Choose what to do with the page's buttons.",
  );

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
        <FormPanel
          key={`company:${location.key}`}
          title="Company phone"
          panelTestId="company-panel"
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
          schema={companyFormSchema}
          reply={actionData?.intent === "company" ? actionData : undefined}
          intent="company"
          label="Save phone"
          testId="company-form"
        >
          <RecordFields
            autoComplete="off"
            fields={[
              {
                label: "Phone, local format",
                name: "phone",
                type: "tel",
                stored: company?.phone ?? "",
                hint: "The store's one phone: the header, footer, contact page and e-mails show it, like (212) 555-0100. The settings page edits the same one.",
              },
              {
                label: "Phone, international format",
                name: "phonecall",
                type: "tel",
                stored: company?.phonecall ?? "",
                hint: "What the phone link dials, like +12125550100.",
              },
            ]}
          />
        </FormPanel>
        <FormPanel
          key={`webinfo:${location.key}`}
          title="Default web info"
          panelTestId="web-info-panel"
          description={
            webInfo
              ? `Saved ${formatWhen(webInfo.updatedAt)}. The next e-mail the store sends uses a new name or address.`
              : "No web info yet: the store is called “Storefront” until you save it."
          }
          schema={webInfoFormSchema}
          reply={actionData?.intent === "webinfo" ? actionData : undefined}
          intent="webinfo"
          label="Save web info"
          testId="web-info-form"
        >
          <RecordFields
            autoComplete="off"
            fields={[
              {
                label: "Store name",
                name: "name",
                stored: webInfo?.name ?? "",
                hint: "Shown in the header, the footer, the reseller notices and e-mails.",
              },
              { label: "E-mail address", name: "email", type: "email", stored: webInfo?.email ?? "" },
              {
                label: "USA office address",
                name: "address2",
                rows: 3,
                stored: webInfo?.address2 ?? "",
                hint: "Empty hides this office.",
              },
              {
                label: "India office address",
                name: "address",
                rows: 3,
                stored: webInfo?.address ?? "",
                hint: "Empty hides this office.",
              },
            ]}
          />
        </FormPanel>
        {actionData && !actionData.intent ? <FormMessage message={actionData.message} /> : null}
      </div>
    </AdminPage>
  );
}
