import { createContext, useContext } from "react";
import { Form, Link } from "react-router";
import type { z } from "zod";
import { COUNTRIES } from "~/lib/address";
import type { FieldErrors } from "~/lib/forms";
import { toDecimalString, formatMoney } from "~/lib/money";
import { useFormCheck } from "~/lib/use-form-check";
import { TextAreaField, TextField } from "~/ui/field";
import { FormButtons, FormMessage } from "../content-fields";
import { SETTINGS_SCHEMAS, type SettingsSection } from "../settings-schemas";
import { Panel } from "./admin-page";

/** What the settings page's loader gives its forms. */
export type SettingsView = {
  settings: {
    shippingFlatCents: number;
    freeShippingThresholdCents: number;
    shipsTo: string[];
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

/** A refused form's answer: the message, a message per field, and what was posted (to show again). */
export type SettingsReply = {
  message?: string;
  intent?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
};

/** Told when a section's form is edited, so the page keeps track of what is not saved yet. */
export const SettingsEdited = createContext<(section: SettingsSection) => void>(() => undefined);

function SectionForm({
  section,
  reply,
  label,
  children,
}: {
  section: SettingsSection;
  reply?: SettingsReply;
  label: string;
  children: (errors: FieldErrors) => React.ReactNode;
}) {
  const schema: z.ZodType = SETTINGS_SCHEMAS[section];
  const { errors, onSubmit, onChange, formRef } = useFormCheck(schema, reply?.errors);
  const edited = useContext(SettingsEdited);
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={(event) => {
        onChange(event);
        edited(section);
      }}
      className="space-y-4"
      data-testid={`settings-${section}-form`}
    >
      <input type="hidden" name="intent" value={section} />
      <FormMessage message={reply?.message} />
      {children(errors)}
      <FormButtons label={label} />
    </Form>
  );
}

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

/** The value a field shows: what was just posted (a refused form), else the stored one. */
const shown = (reply: SettingsReply | undefined, name: string, stored: string) =>
  reply?.values?.[name] ?? stored;
const ticked = (reply: SettingsReply | undefined, name: string, stored: boolean) =>
  reply?.values ? reply.values[name] === "on" : stored;

export function BankSettings({ view, reply }: { view: SettingsView; reply?: SettingsReply }) {
  const s = view.settings;
  return (
    <Panel
      title="Bank transfer"
      testId="settings-bank"
      description="What a buyer who pays by bank transfer is told, on their order page and in the order e-mail."
    >
      <SectionForm section="bank" reply={reply} label="Save bank details">
        {(errors) => (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Account holder"
              name="bankAccountHolder"
              autoComplete="off"
              required
              maxLength={120}
              defaultValue={shown(reply, "bankAccountHolder", s.bankAccountHolder)}
              error={errors.bankAccountHolder}
            />
            <TextField
              label="IBAN"
              name="bankIban"
              autoComplete="off"
              maxLength={50}
              defaultValue={shown(reply, "bankIban", s.bankIban)}
              error={errors.bankIban}
              hint="Leave empty for an account outside IBAN countries, and fill in the account number."
            />
            <TextField
              label="Account number"
              name="bankAccountNumber"
              autoComplete="off"
              maxLength={34}
              defaultValue={shown(reply, "bankAccountNumber", s.bankAccountNumber)}
              error={errors.bankAccountNumber}
            />
            <TextField
              label="Routing number"
              name="bankRoutingNumber"
              autoComplete="off"
              maxLength={20}
              defaultValue={shown(reply, "bankRoutingNumber", s.bankRoutingNumber)}
              error={errors.bankRoutingNumber}
              hint="Or sort code, BSB: whatever a transfer to this account needs."
            />
            <TextField
              label="Payment reference"
              name="bankReference"
              autoComplete="off"
              required
              maxLength={100}
              defaultValue={shown(reply, "bankReference", s.bankReference)}
              error={errors.bankReference}
              hint="{number} becomes the order number: Order {number} reads Order 1002."
            />
            <TextAreaField
              label="Note after the details"
              name="bankNote"
              autoComplete="off"
              rows={3}
              maxLength={500}
              defaultValue={shown(reply, "bankNote", s.bankNote)}
              error={errors.bankNote}
            />
          </div>
        )}
      </SectionForm>
    </Panel>
  );
}

export function ShippingSettings({ view, reply }: { view: SettingsView; reply?: SettingsReply }) {
  const s = view.settings;
  const ships = (code: string) =>
    reply?.values ? reply.values[`shipsTo.${code}`] === "on" : s.shipsTo.includes(code);
  return (
    <Panel
      title="Shipping"
      testId="settings-shipping"
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
    >
      <SectionForm section="shipping" reply={reply} label="Save shipping">
        {(errors) => (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label="Flat rate (USD)"
                name="shippingFlat"
                inputMode="decimal"
                autoComplete="off"
                required
                defaultValue={shown(reply, "shippingFlat", toDecimalString(s.shippingFlatCents))}
                error={errors.shippingFlat}
                hint={`Now ${formatMoney(s.shippingFlatCents)} per order with printers or routers.`}
              />
              <TextField
                label="Free shipping from (USD)"
                name="freeShippingThreshold"
                inputMode="decimal"
                autoComplete="off"
                required
                defaultValue={shown(
                  reply,
                  "freeShippingThreshold",
                  toDecimalString(s.freeShippingThresholdCents),
                )}
                error={errors.freeShippingThreshold}
                hint="The subtotal of the printers and routers in an order."
              />
            </div>
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
      </SectionForm>
    </Panel>
  );
}

export function PaymentSettings({ view, reply }: { view: SettingsView; reply?: SettingsReply }) {
  const s = view.settings;
  return (
    <Panel
      title="Payments"
      testId="settings-payments"
      description="Bank transfer is always offered. Card payments need Stripe's keys in the server's environment."
    >
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
      <SectionForm section="payments" reply={reply} label="Save payments">
        {(errors) => (
          <>
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
              An unpaid order holds its printers and routers and a use of its discount code. When it is not
              paid in time it expires: it is cancelled, both are given back, and the buyer gets an e-mail.
            </p>
            <div className="mt-3 grid max-w-xl gap-4 sm:grid-cols-2">
              <TextField
                label="Bank transfer orders expire after (hours)"
                name="unpaidBankTransferHours"
                inputMode="numeric"
                autoComplete="off"
                required
                defaultValue={shown(reply, "unpaidBankTransferHours", String(s.unpaidBankTransferHours))}
                error={errors.unpaidBankTransferHours}
                hint="72 hours is three days: time for a transfer to arrive."
              />
              <TextField
                label="Card checkouts expire after (hours)"
                name="unpaidCardHours"
                inputMode="numeric"
                autoComplete="off"
                required
                defaultValue={shown(reply, "unpaidCardHours", String(s.unpaidCardHours))}
                error={errors.unpaidCardHours}
                hint="1 to 24: the card payment page closes a few minutes before."
              />
            </div>
          </>
        )}
      </SectionForm>
    </Panel>
  );
}

export function StoreSettingsForm({ view, reply }: { view: SettingsView; reply?: SettingsReply }) {
  const info = view.identity;
  return (
    <Panel
      title="Store"
      testId="settings-store"
      description="The name and contact details in every e-mail the store sends, and in the header and footer. Owner notifications go to the support e-mail. The offices are on the company details page."
    >
      <SectionForm section="store" reply={reply} label="Save store details">
        {(errors) => (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Store name"
              name="name"
              autoComplete="off"
              required
              maxLength={120}
              defaultValue={shown(reply, "name", info?.name ?? "")}
              error={errors.name}
            />
            <TextField
              label="Support e-mail"
              name="email"
              type="email"
              autoComplete="off"
              required
              maxLength={254}
              defaultValue={shown(reply, "email", info?.email ?? "")}
              error={errors.email}
            />
            <TextField
              label="Support phone, local format"
              name="phone"
              type="tel"
              autoComplete="off"
              required
              maxLength={40}
              defaultValue={shown(reply, "phone", info?.phone ?? "")}
              error={errors.phone}
              hint="Like (212) 555-0100."
            />
            <TextField
              label="Support phone, international format"
              name="phonecall"
              type="tel"
              autoComplete="off"
              required
              maxLength={16}
              defaultValue={shown(reply, "phonecall", info?.phonecall ?? "")}
              error={errors.phonecall}
              hint="Like +12125550100."
            />
          </div>
        )}
      </SectionForm>
    </Panel>
  );
}

export function DeliverySettings({ view, reply }: { view: SettingsView; reply?: SettingsReply }) {
  const s = view.settings;
  return (
    <Panel
      title="Licence key delivery"
      testId="settings-delivery"
      description="When a product's key pool is empty, a product that takes waiting orders can still be bought: the buyer is promised keys within these hours."
    >
      <SectionForm section="delivery" reply={reply} label="Save delivery promise">
        {(errors) => (
          <div className="max-w-xs">
            <TextField
              label="Keys promised within (hours)"
              name="waitingOrderHours"
              inputMode="numeric"
              autoComplete="off"
              required
              defaultValue={shown(reply, "waitingOrderHours", String(s.waitingOrderHours))}
              error={errors.waitingOrderHours}
            />
          </div>
        )}
      </SectionForm>
      <div className="mt-4 text-sm text-slate-700" data-testid="unavailable-when-empty">
        <p>
          Whether a product with an empty pool may still be ordered is chosen per product (“When out of stock”
          in the product form).{" "}
          {view.unavailableWhenEmpty.length === 0
            ? "Every product takes waiting orders now."
            : `Shown as unavailable when out of stock (${view.unavailableWhenEmpty.length}):`}
        </p>
        {view.unavailableWhenEmpty.length > 0 ? (
          <ul className="mt-1 list-disc pl-5">
            {view.unavailableWhenEmpty.map((product) => (
              <li key={product.id}>
                <Link to={`/admin/products/${product.id}`} className="underline">
                  {product.name}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Panel>
  );
}

export function NotificationSettings({ view, reply }: { view: SettingsView; reply?: SettingsReply }) {
  const s = view.settings;
  const to = view.identity?.email;
  return (
    <Panel
      title="Owner notifications"
      testId="settings-notifications"
      description={
        to ? (
          <>
            E-mails to the support address, <strong className="text-ink-900">{to}</strong>.
          </>
        ) : (
          "No support e-mail is set (Store, above): no notification is sent until there is one."
        )
      }
    >
      <SectionForm section="notifications" reply={reply} label="Save notifications">
        {(errors) => (
          <>
            <div className="space-y-3">
              <Checkbox
                name="notifyPaidOrder"
                label="A new order is paid"
                defaultChecked={ticked(reply, "notifyPaidOrder", s.notifyPaidOrder)}
              />
              <Checkbox
                name="notifyBankTransfer"
                label="A bank-transfer order waits for its payment"
                defaultChecked={ticked(reply, "notifyBankTransfer", s.notifyBankTransfer)}
              />
              <Checkbox
                name="notifyMessages"
                label="A contact message or quote request arrives"
                hint="Replying to the e-mail answers the customer."
                defaultChecked={ticked(reply, "notifyMessages", s.notifyMessages)}
              />
              <Checkbox
                name="notifyLowStock"
                label="Once a day, when key pools run low"
                defaultChecked={ticked(reply, "notifyLowStock", s.notifyLowStock)}
              />
            </div>
            <div className="max-w-xs">
              <TextField
                label="Low means fewer than"
                name="lowStockThreshold"
                inputMode="numeric"
                autoComplete="off"
                required
                defaultValue={shown(reply, "lowStockThreshold", String(s.lowStockThreshold))}
                error={errors.lowStockThreshold}
                hint="Unused licence keys in a product's pool."
              />
            </div>
          </>
        )}
      </SectionForm>
    </Panel>
  );
}
