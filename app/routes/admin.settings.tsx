import { data, redirect, useLocation } from "react-router";
import { fieldErrors, formToObject } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  BankSettings,
  DeliverySettings,
  NotificationSettings,
  PaymentSettings,
  ShippingSettings,
  StoreSettingsForm,
} from "~/modules/admin/components/settings-forms";
import { DoneNotice, FormMessage } from "~/modules/admin/content-fields";
import { FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { SETTINGS_SCHEMAS, SETTINGS_SECTIONS } from "~/modules/admin/settings-schemas";
import { saveSettingsSection, settingsPage } from "~/modules/admin/store-settings.server";
import type { Route } from "./+types/admin.settings";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return data(await settingsPage(context), { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [
  { title: "Store settings · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const { intent, ...values } = body.values;
  const section = SETTINGS_SECTIONS.find((name) => name === intent);
  if (!section) return reply(400, { message: "Choose what to save with the page's buttons." });
  const parsed = SETTINGS_SCHEMAS[section].safeParse(formToObject(values));
  if (!parsed.success)
    return reply(400, { message: FIX_FIELDS, intent, errors: fieldErrors(parsed.error), values });
  await saveSettingsSection(context.db, section, parsed.data as never, admin.email);
  return redirect(`/admin/settings?done=${section}`);
}

const DONE = {
  bank: "Bank details saved: new orders and their e-mails show them now.",
  shipping: "Shipping saved: checkout charges and offers it now.",
  payments: "Payments saved: checkout offers what you chose now.",
  store: "Store details saved: the next e-mail uses them.",
  delivery: "Delivery promise saved: product pages show it now.",
  notifications: "Notifications saved.",
};

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const replyFor = (section: string) => (actionData?.intent === section ? actionData : undefined);
  const props = (section: string) => ({
    key: `${section}:${location.key}`,
    view: loaderData,
    reply: replyFor(section),
  });
  return (
    <AdminPage
      title="Store settings"
      intro="How the store takes payments, ships, names itself in e-mails and tells you what happens. Every change is live at once, in every server process, and recorded in the audit log."
    >
      <DoneNotice messages={DONE} />
      {actionData && !actionData.intent ? <FormMessage message={actionData.message} /> : null}
      <div className="space-y-6">
        <PaymentSettings {...props("payments")} />
        <BankSettings {...props("bank")} />
        <ShippingSettings {...props("shipping")} />
        <StoreSettingsForm {...props("store")} />
        <DeliverySettings {...props("delivery")} />
        <NotificationSettings {...props("notifications")} />
      </div>
    </AdminPage>
  );
}
