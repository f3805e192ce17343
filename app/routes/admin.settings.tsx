import { useState } from "react";
import { data, useLocation, useSearchParams } from "react-router";
import { useUnsavedChanges } from "~/lib/use-unsaved-changes";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  BankSettings,
  DeliverySettings,
  CurrencySettings,
  HoldSettings,
  NotificationSettings,
  PaymentSettings,
  RenewalSettings,
  SavedCartSettings,
  SettingsEdited,
  ShippingSettings,
  StoreSettingsForm,
  UnreadableSettings,
} from "~/modules/admin/components/settings-forms";
import { DoneNotice, FormMessage } from "~/modules/admin/content-fields";
import { type SectionForm, saveSectionForm } from "~/modules/admin/form-actions.server";
import { SETTINGS_SCHEMAS, SETTINGS_SECTIONS, type SettingsSection } from "~/modules/admin/settings-schemas";
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

/** Each section's form: its schema, and the write of its settings. */
const SECTION_FORMS = Object.fromEntries(
  SETTINGS_SECTIONS.map((section): [SettingsSection, SectionForm] => [
    section,
    {
      schema: SETTINGS_SCHEMAS[section],
      save: (db, form, admin) => saveSettingsSection(db, section, form, admin),
    },
  ]),
);

export const action = (args: Route.ActionArgs) =>
  saveSectionForm(args, "/admin/settings", SECTION_FORMS, "Choose what to save with the page's buttons.");

const DONE = {
  bank: "Bank details saved: new orders and their e-mails show them now.",
  shipping: "Shipping saved: checkout charges and offers it now.",
  payments: "Payments saved: checkout offers what you chose now.",
  store: "Store details saved: the next e-mail uses them.",
  delivery: "Delivery promise saved: product pages show it now.",
  notifications: "Notifications saved.",
  renewals: "Renewal reminders saved: the next look for expiring keys follows them.",
  savedCarts: "Saved-cart reminders saved: the next look for carts left follows them.",
  holds: "Hold rules saved: the next paid order is checked against them.",
  currencies: "Currencies saved: rupee prices follow the new rate at once; orders placed keep theirs.",
};

const TITLES: Record<SettingsSection, string> = {
  payments: "Payments",
  bank: "Bank transfer",
  shipping: "Shipping",
  currencies: "Currencies",
  store: "Store details",
  delivery: "Delivery promise",
  notifications: "Notifications",
  renewals: "Renewal reminders",
  savedCarts: "Saved-cart reminders",
  holds: "Hold risky orders",
};

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const saved = searchParams.get("done");
  // Sections edited and not saved yet. Saving one section redraws only that one, so the others keep their edits.
  const [unsaved, setUnsaved] = useState<SettingsSection[]>([]);
  const edited = (section: SettingsSection) =>
    setUnsaved((sections) => (sections.includes(section) ? sections : [...sections, section]));
  // A save lands as a new location (adjusted while rendering, as React advises): the section saved is no longer
  // unsaved, and is drawn afresh with what is stored now. The others keep their keys, and with them their edits.
  const [landed, setLanded] = useState(location.key);
  const [drawn, setDrawn] = useState<Partial<Record<SettingsSection, string>>>({});
  if (landed !== location.key) {
    setLanded(location.key);
    const section = SETTINGS_SECTIONS.find((name) => name === saved);
    if (section) {
      setUnsaved((sections) => sections.filter((other) => other !== section));
      setDrawn((keys) => ({ ...keys, [section]: location.key }));
    }
  }
  useUnsavedChanges(
    unsaved.length > 0,
    `You have unsaved changes in ${unsaved.map((section) => TITLES[section]).join(", ")}. Leave the page and lose them?`,
  );
  const replyFor = (section: string) => (actionData?.intent === section ? actionData : undefined);
  const props = (section: SettingsSection) => ({
    key: `${section}:${drawn[section] ?? ""}`,
    view: loaderData,
    reply: replyFor(section),
  });
  return (
    <AdminPage
      title="Store settings"
      intro="How the store takes payments, ships, names itself in e-mails and tells you what happens. Every change is live at once, in every server process, and recorded in the audit log."
    >
      <DoneNotice messages={DONE} />
      <UnreadableSettings unreadable={loaderData.unreadable} />
      {actionData && !actionData.intent ? <FormMessage message={actionData.message} /> : null}
      {unsaved.length > 0 ? (
        <p
          role="status"
          data-testid="unsaved-settings"
          className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          Not saved yet: {unsaved.map((section) => TITLES[section]).join(", ")}. Each section has its own Save
          button.
        </p>
      ) : null}
      <SettingsEdited.Provider value={edited}>
        <div className="space-y-6">
          <PaymentSettings {...props("payments")} />
          <BankSettings {...props("bank")} />
          <ShippingSettings {...props("shipping")} />
          <CurrencySettings {...props("currencies")} />
          <StoreSettingsForm {...props("store")} />
          <DeliverySettings {...props("delivery")} />
          <NotificationSettings {...props("notifications")} />
          <RenewalSettings {...props("renewals")} />
          <SavedCartSettings {...props("savedCarts")} />
          <HoldSettings {...props("holds")} />
        </div>
      </SettingsEdited.Provider>
    </AdminPage>
  );
}
