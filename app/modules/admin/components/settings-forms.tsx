import { createContext, useContext, type ComponentProps } from "react";
import { Link } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { COUNTRIES } from "~/lib/address";
import { convertCents, formatMoney, type InrRounding, toDecimalString } from "~/lib/money";
import { SETTINGS_SCHEMAS, type SettingsSection } from "../settings-schemas";
import { FormPanel, RecordFields } from "./record-form";

/** What the settings page's loader gives its forms. */
export type SettingsView = {
  settings: {
    shippingFlatCents: number;
    freeShippingThresholdCents: number;
    shipsTo: string[];
    inrPaisePerUsd: number;
    inrRounding: InrRounding;
    sandboxPayments: boolean;
    unpaidBankTransferHours: number;
    unpaidCardHours: number;
    waitingOrderHours: number;
    bankAccountHolder: string;
    bankIban: string;
    bankAccountNumber: string;
    bankRoutingNumber: string;
    bankReference: string;
    bankNote: string;
    notifyPaidOrder: boolean;
    notifyBankTransfer: boolean;
    notifyMessages: boolean;
    notifyLowStock: boolean;
    lowStockThreshold: number;
    renewalReminders: boolean;
    renewalReminderDays: number[];
    savedCartReminders: boolean;
    savedCartReminderHours: number;
    holdsEnabled: boolean;
    holdFirstOrderAboveCents: number;
    holdOrdersPerHour: number;
    holdOnRadarRisk: boolean;
    holdCheckHours: number;
  };
  identity: { name: string; email: string; phone: string; phonecall: string } | null;
  /** Stored settings that do not decode: each key, what is stored (as JSON) and what is wrong with it. */
  unreadable: Array<{ key: string; stored: string; problem: string }>;
  production: boolean;
  stripeConfigured: boolean;
  unavailableWhenEmpty: Array<{ id: number; name: string }>;
};

/**
 * Stored settings the store cannot read, said at the top of the page: the store refuses to guess them, so pages that
 * need them fail until they are saved again.
 */
export function UnreadableSettings({ unreadable }: { unreadable: SettingsView["unreadable"] }) {
  if (unreadable.length === 0) return null;
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-semibold">
        Some stored settings cannot be read. Check them below and save their sections again.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {unreadable.map(({ key, stored, problem }) => (
          <li key={key}>
            <code className="break-all">{key}</code> holds <code className="break-all">{stored}</code>:{" "}
            {problem}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Told when a section's form is edited, so the page keeps track of what is not saved yet. */
export const SettingsEdited = createContext<(section: SettingsSection) => void>(() => undefined);

/** One section of the settings page: its card (test id `settings-{section}`) and the form that posts the section. */
function SettingsSection({
  section,
  ...props
}: { section: SettingsSection } & Omit<
  ComponentProps<typeof FormPanel>,
  "schema" | "intent" | "testId" | "panelTestId" | "onEdit"
>) {
  const edited = useContext(SettingsEdited);
  return (
    <FormPanel
      schema={SETTINGS_SCHEMAS[section]}
      intent={section}
      panelTestId={`settings-${section}`}
      testId={`settings-${section}-form`}
      onEdit={() => edited(section)}
      {...props}
    />
  );
}

/** Text settings side by side, in a box with `className`; their limits come from the section's schema. */
const SettingFields = (props: Omit<ComponentProps<typeof RecordFields>, "autoComplete">) => (
  <RecordFields autoComplete="off" {...props} />
);

export function Checkbox({
  name,
  label,
  defaultChecked,
  hint,
  errorId,
}: {
  name: string;
  label: string;
  defaultChecked: boolean;
  hint?: string;
  /** The message of the group this box is in, when it was refused: the box is marked invalid and points to it. */
  errorId?: string;
}) {
  const id = `setting-${name.replace(/\W/g, "-")}`;
  const describedBy = [hint ? `${id}-hint` : undefined, errorId].filter(Boolean).join(" ");
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        aria-describedby={describedBy || undefined}
        aria-invalid={errorId ? true : undefined}
        className="mt-1 h-4 w-4 shrink-0"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-ink-800">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-slate-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Whether a box is ticked: as just posted (a refused form), else as stored. */
const ticked = (reply: ActionReply | undefined, name: string, stored: boolean) =>
  reply?.values ? reply.values[name] === "on" : stored;

export function BankSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  return (
    <SettingsSection
      section="bank"
      title="Bank transfer"
      description="What a buyer who pays by bank transfer is told, on their order page and in the order e-mail."
      reply={reply}
      label="Save bank details"
    >
      <SettingFields
        fields={[
          { label: "Account holder", name: "bankAccountHolder", stored: s.bankAccountHolder },
          {
            label: "IBAN",
            name: "bankIban",
            stored: s.bankIban,
            hint: "Leave empty for an account outside IBAN countries, and fill in the account number.",
          },
          { label: "Account number", name: "bankAccountNumber", stored: s.bankAccountNumber },
          {
            label: "Routing number",
            name: "bankRoutingNumber",
            stored: s.bankRoutingNumber,
            hint: "Or sort code, BSB: whatever a transfer to this account needs.",
          },
          {
            label: "Payment reference",
            name: "bankReference",
            stored: s.bankReference,
            hint: "{number} becomes the order number: Order {number} reads Order 1002.",
          },
          { label: "Note after the details", name: "bankNote", stored: s.bankNote, rows: 3 },
        ]}
      />
    </SettingsSection>
  );
}

const ROUNDINGS: Array<{ value: InrRounding; label: string }> = [
  { value: "rupee", label: "To the whole rupee (₹4,174.00)" },
  { value: "nine", label: "Up to the next rupee ending in 9 (₹4,179.00)" },
  { value: "paisa", label: "To the paisa, not rounded further (₹4,174.17)" },
];

/** Rupees: the rate every rupee price, shipping amount and threshold is worked out at, and its rounding. */
export function CurrencySettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  const rounding = (reply?.values?.inrRounding as InrRounding | undefined) ?? s.inrRounding;
  const example = (usdCents: number) =>
    formatMoney(
      convertCents(usdCents, "INR", { paisePerUsd: s.inrPaisePerUsd, rounding: s.inrRounding }),
      "INR",
    );
  return (
    <SettingsSection
      section="currencies"
      title="Currencies"
      description={
        <>
          Prices are kept in US dollars. A shopper who picks rupees (INR) in the header sees every price,
          shipping and total worked out at this rate and rounded this way, and pays in rupees; an order keeps
          the currency it was placed in.
        </>
      }
      reply={reply}
      label="Save currencies"
    >
      {(errors) => (
        <>
          <SettingFields
            fields={[
              {
                label: "Rupees per US dollar",
                name: "inrRate",
                stored: toDecimalString(s.inrPaisePerUsd),
                hint: `Now a $49.99 product is ${example(4999)}, $14.99 shipping ${example(1499)}.`,
              },
            ]}
          />
          <fieldset aria-describedby={errors.inrRounding ? "inr-rounding-error" : undefined}>
            <legend className="text-sm font-medium text-ink-800">Rupee prices are rounded</legend>
            <div className="mt-2 space-y-1">
              {ROUNDINGS.map((option) => (
                <label key={option.value} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="inrRounding"
                    value={option.value}
                    defaultChecked={rounding === option.value}
                  />
                  {option.label}
                </label>
              ))}
            </div>
            {errors.inrRounding ? (
              <p id="inr-rounding-error" role="alert" className="mt-1 text-sm text-red-700">
                {errors.inrRounding}
              </p>
            ) : null}
          </fieldset>
        </>
      )}
    </SettingsSection>
  );
}

export function ShippingSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  const ships = (code: string) =>
    reply?.values ? reply.values[`shipsTo.${code}`] === "on" : s.shipsTo.includes(code);
  return (
    <SettingsSection
      section="shipping"
      title="Shipping"
      description={
        <>
          Printers and routers ship at a flat rate, free from the threshold, to the countries ticked below:
          checkout offers only those. The{" "}
          <Link to="/shipping-policy" className="font-semibold underline">
            shipping policy page
          </Link>{" "}
          shows these three settings at its top, so it always says what checkout does.
        </>
      }
      reply={reply}
      label="Save shipping"
    >
      {(errors) => (
        <>
          <SettingFields
            fields={[
              {
                label: "Flat rate (USD)",
                name: "shippingFlat",
                stored: toDecimalString(s.shippingFlatCents),
                hint: `Now ${formatMoney(s.shippingFlatCents)} per order with printers or routers.`,
              },
              {
                label: "Free shipping from (USD)",
                name: "freeShippingThreshold",
                stored: toDecimalString(s.freeShippingThresholdCents),
                hint: "The subtotal of the printers and routers in an order.",
              },
            ]}
          />
          {/* The message is read with each box, which the focus reaches, rather than twice with the group. */}
          <fieldset>
            <legend className="text-sm font-medium text-ink-800">Countries shipped to</legend>
            <div className="mt-2 grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:grid-cols-3">
              {Object.entries(COUNTRIES).map(([code, name]) => (
                <Checkbox
                  key={code}
                  name={`shipsTo.${code}`}
                  label={name}
                  defaultChecked={ships(code)}
                  errorId={errors.shipsTo ? "ships-to-error" : undefined}
                />
              ))}
            </div>
            {errors.shipsTo ? (
              <p id="ships-to-error" role="alert" className="mt-1 text-sm text-red-700">
                {errors.shipsTo}
              </p>
            ) : null}
          </fieldset>
        </>
      )}
    </SettingsSection>
  );
}

export function PaymentSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  return (
    <SettingsSection
      section="payments"
      title="Payments"
      description="Bank transfer is always offered. Card payments need Stripe's keys in the server's environment."
      reply={reply}
      label="Save payments"
      before={
        <p className="mb-4 text-sm" data-testid="stripe-status">
          Stripe card payments:{" "}
          {view.stripeConfigured ? (
            <strong className="text-emerald-800">configured (offered at checkout)</strong>
          ) : (
            <strong className="text-ink-900">
              not configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET and restart to take cards
            </strong>
          )}
        </p>
      }
    >
      <Checkbox
        name="sandboxPayments"
        label="Offer test payments (sandbox)"
        defaultChecked={ticked(reply, "sandboxPayments", s.sandboxPayments)}
        hint={
          view.production
            ? "A test payment completes an order, licence keys included, without any money: for a demo store only. While it is on, every page says so."
            : "This server runs in development, where test payments are always offered; the switch decides for production."
        }
      />
      <p className="mt-5 text-sm text-slate-700">
        An unpaid order holds its printers and routers and a use of its discount code. When it is not paid in
        time it expires: it is cancelled, both are given back, and the buyer gets an e-mail.
      </p>
      <SettingFields
        className="mt-3 grid max-w-xl gap-4 sm:grid-cols-2"
        fields={[
          {
            label: "Bank transfer orders expire after (hours)",
            name: "unpaidBankTransferHours",
            stored: String(s.unpaidBankTransferHours),
            hint: "72 hours is three days: time for a transfer to arrive.",
          },
          {
            label: "Card checkouts expire after (hours)",
            name: "unpaidCardHours",
            stored: String(s.unpaidCardHours),
            hint: "1 to 24: the card payment page closes a few minutes before.",
          },
        ]}
      />
    </SettingsSection>
  );
}

export function StoreSettingsForm({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const info = view.identity;
  return (
    <SettingsSection
      section="store"
      title="Store"
      description="The name and contact details in every e-mail the store sends, and in the header and footer. Owner notifications go to the support e-mail. The offices are on the company details page."
      reply={reply}
      label="Save store details"
    >
      <SettingFields
        fields={[
          { label: "Store name", name: "name", stored: info?.name ?? "" },
          { label: "Support e-mail", name: "email", stored: info?.email ?? "", type: "email" },
          {
            label: "Support phone, local format",
            name: "phone",
            stored: info?.phone ?? "",
            type: "tel",
            hint: "Like (212) 555-0100.",
          },
          {
            label: "Support phone, international format",
            name: "phonecall",
            stored: info?.phonecall ?? "",
            type: "tel",
            hint: "Like +12125550100.",
          },
        ]}
      />
    </SettingsSection>
  );
}

export function DeliverySettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  return (
    <SettingsSection
      section="delivery"
      title="Licence key delivery"
      description="When a product's key pool is empty, a product that takes waiting orders can still be bought: the buyer is promised keys within these hours."
      reply={reply}
      label="Save delivery promise"
      after={
        <div className="mt-4 text-sm text-slate-700" data-testid="unavailable-when-empty">
          <p>
            Whether a product with an empty pool may still be ordered is chosen per product (“When out of
            stock” in the product form).{" "}
            {view.unavailableWhenEmpty.length === 0
              ? "Every product takes waiting orders now."
              : `Shown as unavailable when out of stock (${view.unavailableWhenEmpty.length}):`}
          </p>
          {view.unavailableWhenEmpty.length > 0 ? (
            <ul className="mt-1 list-disc pl-5">
              {view.unavailableWhenEmpty.map((product) => (
                <li key={product.id}>
                  {/* A list of links, not a sentence: each is a 24 px target (WCAG 2.5.8). */}
                  <Link to={`/admin/products/${product.id}`} className="inline-block py-0.5 underline">
                    {product.name}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      }
    >
      <SettingFields
        className="max-w-xs"
        fields={[
          {
            label: "Keys promised within (hours)",
            name: "waitingOrderHours",
            stored: String(s.waitingOrderHours),
          },
        ]}
      />
    </SettingsSection>
  );
}

/** The owner's notifications, each a box of its own. */
const NOTIFICATIONS = [
  { name: "notifyPaidOrder", label: "A new order is paid" },
  { name: "notifyBankTransfer", label: "A bank-transfer order waits for its payment" },
  {
    name: "notifyMessages",
    label: "A contact message or quote request arrives",
    hint: "Replying to the e-mail answers the customer.",
  },
  { name: "notifyLowStock", label: "Once a day, when key pools run low" },
] as const satisfies ReadonlyArray<{ name: keyof SettingsView["settings"]; label: string; hint?: string }>;

export function NotificationSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  const to = view.identity?.email;
  return (
    <SettingsSection
      section="notifications"
      title="Owner notifications"
      description={
        to ? (
          <>
            E-mails to the support address, <strong className="text-ink-900">{to}</strong>.
          </>
        ) : (
          "No support e-mail is set (Store, above): no notification is sent until there is one."
        )
      }
      reply={reply}
      label="Save notifications"
    >
      <div className="space-y-3">
        {NOTIFICATIONS.map((box) => (
          <Checkbox
            key={box.name}
            name={box.name}
            label={box.label}
            hint={"hint" in box ? box.hint : undefined}
            defaultChecked={ticked(reply, box.name, s[box.name])}
          />
        ))}
      </div>
      <SettingFields
        className="max-w-xs"
        fields={[
          {
            label: "Low means fewer than",
            name: "lowStockThreshold",
            stored: String(s.lowStockThreshold),
            hint: "Unused licence keys in a product's pool.",
          },
        ]}
      />
    </SettingsSection>
  );
}

/** Renewal reminders to customers: the switch and the days before expiry. */
export function RenewalSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  return (
    <SettingsSection
      section="renewals"
      title="Renewal reminders"
      description="E-mails to customers whose licence keys expire soon, each with a link to renew the same product and a one-click unsubscribe. Each key gets each reminder once; a key renewed already, or a customer who unsubscribed, gets none."
      reply={reply}
      label="Save renewal reminders"
    >
      <Checkbox
        name="renewalReminders"
        label="Send renewal reminders"
        defaultChecked={ticked(reply, "renewalReminders", s.renewalReminders)}
        hint="Switched on, a key whose reminder days have passed already gets only the nearest one, never a pile."
      />
      <SettingFields
        className="mt-3 max-w-xs"
        fields={[
          {
            label: "Days before expiry",
            name: "renewalReminderDays",
            stored: s.renewalReminderDays.join(", "),
            hint: "Up to 5 whole numbers from 0 to 365, like 30, 7, 0 (0: on the day it expires).",
          },
        ]}
      />
    </SettingsSection>
  );
}

/** Saved-cart reminders to signed-in customers: the switch and how long a cart waits first. */
export function SavedCartSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  return (
    <SettingsSection
      section="savedCarts"
      title="Saved-cart reminders"
      description="One e-mail to a signed-in customer who left items in the cart: the items at today's prices, a link that puts them back in the cart, and a one-click unsubscribe. Never to a guest, never twice for the same cart (a changed cart is a new one), and not once the customer has ordered."
      reply={reply}
      label="Save saved-cart reminders"
    >
      <Checkbox
        name="savedCartReminders"
        label="Send saved-cart reminders"
        defaultChecked={ticked(reply, "savedCartReminders", s.savedCartReminders)}
      />
      <SettingFields
        className="mt-3 max-w-xs"
        fields={[
          {
            label: "Hours after the cart's last change",
            name: "savedCartReminderHours",
            stored: String(s.savedCartReminderHours),
            hint: "A whole number from 1 to 720; 24 is a day.",
          },
        ]}
      />
    </SettingsSection>
  );
}

/** Hold risky orders (ADR 0035): the switch, each rule (an empty figure is off), and the buyer's promise. */
export function HoldSettings({ view, reply }: { view: SettingsView; reply?: ActionReply }) {
  const s = view.settings;
  return (
    <SettingsSection
      section="holds"
      title="Hold risky orders"
      description="A paid card or test-payment order that a rule matches is put on hold: no licence key is sent until you approve it on its page (Orders, On hold); rejecting it refunds it. Bank transfers you mark paid yourself are never held."
      reply={reply}
      label="Save hold rules"
    >
      <div className="space-y-3">
        <Checkbox
          name="holdsEnabled"
          label="Hold paid orders that a rule below matches"
          defaultChecked={ticked(reply, "holdsEnabled", s.holdsEnabled)}
        />
        <Checkbox
          name="holdOnRadarRisk"
          label="Hold card payments Stripe Radar rates elevated or highest risk, or opens a review of"
          hint="Also when Stripe cannot be asked for its verdict."
          defaultChecked={ticked(reply, "holdOnRadarRisk", s.holdOnRadarRisk)}
        />
      </div>
      <SettingFields
        className="mt-4 grid max-w-xl gap-4 sm:grid-cols-2"
        fields={[
          {
            label: "Hold a first order above (amount)",
            name: "holdFirstOrderAbove",
            stored: s.holdFirstOrderAboveCents === 0 ? "" : toDecimalString(s.holdFirstOrderAboveCents),
            hint: "An e-mail address with no paid order before. Empty: no limit.",
          },
          {
            label: "Hold beyond this many orders an hour",
            name: "holdOrdersPerHour",
            stored: s.holdOrdersPerHour === 0 ? "" : String(s.holdOrdersPerHour),
            hint: "From one e-mail address, one client address, or one card. Empty: not counted.",
          },
          {
            label: "Customers are promised an answer within (hours)",
            name: "holdCheckHours",
            stored: String(s.holdCheckHours),
            hint: "Said on the order page and in the receipt.",
          },
        ]}
      />
    </SettingsSection>
  );
}
