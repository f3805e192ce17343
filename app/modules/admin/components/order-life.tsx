import { useState } from "react";
import type { FieldErrors } from "~/lib/forms";
import { type Currency, formatMoney } from "~/lib/money";
import { refundForm, shipForm } from "~/modules/orders/action-schemas";
import { CARRIER_KEYS, CARRIERS, LINE_STATE_LABELS, type LineState } from "~/modules/orders/tracking";
import { buttonClass } from "~/ui/button";
import { SelectField, TextAreaField, TextField } from "~/ui/field";
import { Panel } from "./admin-page";
import { IntentForm } from "./intent-form";
import { When } from "./orders-parts";

type LineView = {
  id: number;
  name: string;
  kind: string;
  quantity: number;
  lineTotalCents: number;
  /** What refunding the line gives back: its price less its discount, with its tax. */
  paidCents: number;
  state: LineState;
  revokedHints: string[];
  replacedHints: string[];
};
type OrderView = {
  number: number;
  currency: Currency;
  totalCents: number;
  refundedCents: number;
  paymentMethod: string;
};

const STATE_STYLES: Record<LineState, string> = {
  cancelled: "bg-slate-100 text-slate-700",
  refunded: "bg-rose-100 text-rose-900",
  "awaiting shipment": "bg-amber-100 text-amber-900",
  shipped: "bg-emerald-100 text-emerald-900",
  "delivered keys": "bg-emerald-100 text-emerald-900",
  "keys to follow": "bg-amber-100 text-amber-900",
};

/** How a refund's money goes back, by the way the order was paid. */
const REFUND_ROUTES: Record<string, string> = {
  stripe: "The money goes back to the card through Stripe.",
  sandbox: "It was a test payment: there is no money to send back.",
  none: "Nothing was paid: there is no money to send back.",
  "bank-transfer": "Send the money back by bank transfer; the store records it here.",
};

/** Where one line of an order stands: the same words the customer reads. */
export function LineStateBadge({ state }: { state: LineState }) {
  return (
    <span
      className={`ml-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-semibold ${STATE_STYLES[state]}`}
      data-testid="line-state"
      data-state={state}
    >
      {LINE_STATE_LABELS[state]}
    </span>
  );
}

/**
 * The licence keys of a software line, by their last characters only (the admin never reads a key): those it
 * delivered, then those a refund revoked (kept against the order, never sold again, no longer shown to the customer)
 * and those replaced after the customer reported them broken.
 */
export function KeyHints({ line }: { line: LineView & { keyHints: string[] } }) {
  if (line.kind !== "software") return null;
  return (
    <>
      <HintList
        hints={line.revokedHints}
        label={`Revoked licence keys of ${line.name} (last characters only)`}
        outOfUse="revoked"
      />
      <HintList
        hints={line.replacedHints}
        label={`Licence keys of ${line.name} replaced as broken (last characters only)`}
        outOfUse="replaced"
      />
      {line.keyHints.length > 0 ? (
        <HintList hints={line.keyHints} label={`Licence keys of ${line.name} (last characters only)`} />
      ) : line.revokedHints.length + line.replacedHints.length > 0 ? null : (
        <p className="mt-1 text-xs text-slate-500">No key allocated yet</p>
      )}
    </>
  );
}

function HintList({
  hints,
  label,
  outOfUse,
}: {
  hints: string[];
  label: string;
  /** Why these keys no longer work, said beside each: a refund revoked them, or they were replaced as broken. */
  outOfUse?: "revoked" | "replaced";
}) {
  if (hints.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-wrap gap-1.5" aria-label={label}>
      {hints.map((hint) => (
        <li key={hint}>
          <code
            className={`rounded px-1.5 py-0.5 font-mono text-xs ${outOfUse ? "bg-rose-50 text-rose-900 line-through" : "bg-slate-100"}`}
            data-testid={outOfUse ? `${outOfUse}-key-hint` : "key-hint"}
          >
            {hint}
          </code>
          {outOfUse ? (
            <>
              {" "}
              <span className="text-xs font-semibold text-rose-900">{outOfUse}</span>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function ConfirmBox({ label, error }: { label: string; error?: string }) {
  return (
    <div>
      <label className="flex items-start gap-2 text-sm text-ink-900">
        <input
          type="checkbox"
          name="confirm"
          value="yes"
          className="mt-0.5"
          aria-invalid={error ? true : undefined}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Records a parcel for one physical line, or every line still to ship, with the carrier and tracking link. */
export function ShipForm({ lines, serverErrors }: { lines: LineView[]; serverErrors?: FieldErrors }) {
  const open = lines.filter((line) => line.state === "awaiting shipment");
  const [carrier, setCarrier] = useState("ups");
  return (
    <IntentForm title="Ship" intent="ship" schema={shipForm} serverErrors={serverErrors} testId="ship-form">
      {(errors, busy) => (
        <>
          <SelectField label="What ships" name="lineId" defaultValue="all" error={errors.lineId}>
            {open.length > 1 ? (
              <option value="all">Everything still to ship ({open.length} lines)</option>
            ) : null}
            {open.map((line) => (
              <option key={line.id} value={open.length > 1 ? line.id : "all"}>
                {line.quantity} × {line.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Carrier"
            name="carrier"
            value={carrier}
            onChange={(event) => setCarrier(event.currentTarget.value)}
            error={errors.carrier}
          >
            {CARRIER_KEYS.map((key) => (
              <option key={key} value={key}>
                {CARRIERS[key].name}
              </option>
            ))}
          </SelectField>
          {/* Also when the server asked for it: a page without its scripts shows the field only then. */}
          {carrier === "other" || errors.otherCarrier ? (
            <TextField
              label="Carrier's name"
              name="otherCarrier"
              maxLength={60}
              autoComplete="off"
              error={errors.otherCarrier}
              hint="As the customer knows it: the e-mail and the order page name it."
            />
          ) : null}
          <TextField
            label="Tracking number"
            name="trackingNumber"
            maxLength={60}
            autoComplete="off"
            error={errors.trackingNumber}
            hint="The carrier's number; the customer gets it by e-mail."
          />
          <TextField
            label="Tracking page (optional)"
            name="trackingUrl"
            type="url"
            maxLength={500}
            autoComplete="off"
            error={errors.trackingUrl}
            hint="Needed for another carrier; for UPS, FedEx, USPS and DHL the link is made from the number."
          />
          <button type="submit" className={buttonClass("primary")} disabled={busy}>
            {busy ? "Saving…" : "Add shipment"}
          </button>
        </>
      )}
    </IntentForm>
  );
}

/** A refund: all that is left, one line, or an amount; never more than was paid less earlier refunds. */
export function RefundForm({
  order,
  lines,
  serverErrors,
}: {
  order: OrderView;
  lines: LineView[];
  serverErrors?: FieldErrors;
}) {
  const [mode, setMode] = useState<"full" | "line" | "amount">("full");
  const remaining = order.totalCents - order.refundedCents;
  const open = lines.filter((line) => line.state !== "refunded");
  const how = REFUND_ROUTES[order.paymentMethod] ?? REFUND_ROUTES["bank-transfer"];
  return (
    <IntentForm
      title="Refund"
      intent="refund"
      schema={refundForm}
      serverErrors={serverErrors}
      testId="refund-form"
    >
      {(errors, busy) => (
        <>
          <p className="text-sm text-slate-700">
            Up to {formatMoney(remaining, order.currency)} can be refunded
            {order.refundedCents > 0
              ? ` (${formatMoney(order.refundedCents, order.currency)} refunded already)`
              : ""}
            . {how} Keys of refunded lines are revoked: kept against this order, never sold again, hidden from
            the customer.
          </p>
          <fieldset>
            <legend className="text-sm font-medium text-ink-900">What to refund</legend>
            <div className="mt-1 space-y-1 text-sm">
              {(
                [
                  ["full", `Everything left (${formatMoney(remaining, order.currency)})`],
                  ["line", "One line"],
                  ["amount", "An amount"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="mode"
                    value={value}
                    checked={mode === value}
                    onChange={() => setMode(value)}
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          {mode === "line" ? (
            <SelectField label="Line to refund" name="lineId" error={errors.lineId} defaultValue="">
              <option value="">Choose a line</option>
              {open.map((line) => (
                <option key={line.id} value={line.id}>
                  {line.quantity} × {line.name} ({formatMoney(line.paidCents, order.currency)})
                </option>
              ))}
            </SelectField>
          ) : null}
          {mode === "amount" ? (
            <TextField
              label={`Amount (${order.currency})`}
              name="amount"
              inputMode="decimal"
              maxLength={20}
              autoComplete="off"
              error={errors.amount}
              hint={`For example 12.50; at most ${formatMoney(remaining, order.currency)}.`}
            />
          ) : null}
          <TextField
            label="Reason (optional, told to the customer)"
            name="reason"
            maxLength={500}
            error={errors.reason}
          />
          <ConfirmBox label={`Yes, refund order #${order.number}`} error={errors.confirm} />
          <button type="submit" className={buttonClass("danger")} disabled={busy}>
            {busy ? "Refunding…" : "Refund"}
          </button>
        </>
      )}
    </IntentForm>
  );
}

type ShipmentView = {
  id: number;
  carrier: string;
  trackingNumber: string;
  link: string | null;
  lines: string[];
  createdAt: string;
};
type RefundView = {
  id: number;
  amountCents: number;
  kind: string;
  reason: string;
  createdBy: string;
  createdAt: string;
};

/** The parcels sent and the money given back. */
export function DeliveryPanel({
  shipments,
  refunds,
  currency,
}: {
  shipments: ShipmentView[];
  refunds: RefundView[];
  /** The order's currency, what refunds were given in. */
  currency: Currency;
}) {
  if (shipments.length === 0 && refunds.length === 0) return null;
  return (
    <Panel title="Shipments and refunds" testId="order-delivery">
      {shipments.length > 0 ? (
        <ul className="space-y-2 text-sm">
          {shipments.map((shipment) => (
            <li key={shipment.id} data-testid="shipment">
              <span className="font-semibold">{shipment.carrier}</span>{" "}
              <span className="font-mono">{shipment.trackingNumber}</span>
              {shipment.link ? (
                <>
                  {" · "}
                  <a href={shipment.link} className="font-semibold text-brand-700 underline" rel="noreferrer">
                    Tracking page
                  </a>
                </>
              ) : null}
              <span className="block text-slate-600">
                {shipment.lines.join(", ")} · <When iso={shipment.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {refunds.length > 0 ? (
        <ul className="mt-3 space-y-2 text-sm">
          {refunds.map((refund) => (
            <li key={refund.id} data-testid="refund">
              <span className="font-semibold">Refund {formatMoney(refund.amountCents, currency)}</span> (
              {refund.kind}) by {refund.createdBy} · <When iso={refund.createdAt} />
              {refund.reason ? <span className="block text-slate-600">Reason: {refund.reason}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}

type NoteView = { id: number; body: string; createdBy: string; createdAt: string };

/** The store's internal notes (admins only) and the note the customer reads on their order page. */
export function NotesPanel({
  notes,
  customerNote,
  errorsFor,
}: {
  notes: NoteView[];
  customerNote: string;
  errorsFor: (intent: string) => FieldErrors | undefined;
}) {
  return (
    <Panel title="Notes" testId="order-notes">
      <IntentForm intent="note" serverErrors={errorsFor("note")} testId="note-form">
        {(errors, busy) => (
          <>
            <TextAreaField
              label="Internal note"
              name="note"
              rows={3}
              maxLength={2000}
              error={errors.note}
              hint="Only admins see it; it is kept with the order."
            />
            <button type="submit" className={buttonClass("secondary")} disabled={busy}>
              {busy ? "Adding…" : "Add note"}
            </button>
          </>
        )}
      </IntentForm>
      {notes.length > 0 ? (
        <ol className="mt-4 space-y-3">
          {notes.map((note) => (
            <li key={note.id} className="border-l-2 border-slate-200 pl-3 text-sm" data-testid="order-note">
              <p className="whitespace-pre-wrap break-words">{note.body}</p>
              <p className="text-xs text-slate-600">
                {note.createdBy} · <When iso={note.createdAt} />
              </p>
            </li>
          ))}
        </ol>
      ) : null}
      <div className="mt-4 border-t border-slate-200 pt-4">
        <IntentForm
          intent="customer-note"
          serverErrors={errorsFor("customer-note")}
          testId="customer-note-form"
        >
          {(errors, busy) => (
            <>
              <TextAreaField
                label="Note for the customer"
                name="customerNote"
                rows={3}
                maxLength={1000}
                defaultValue={customerNote}
                error={errors.customerNote}
                hint="Shown on the customer's order page. Leave empty to show none."
              />
              <button type="submit" className={buttonClass("secondary")} disabled={busy}>
                {busy ? "Saving…" : "Save customer note"}
              </button>
            </>
          )}
        </IntentForm>
      </div>
    </Panel>
  );
}

/** A CSV download: a plain link the browser saves as a file (no client-side navigation). */
export function ExportLink({ to, label, testId }: { to: string; label: string; testId: string }) {
  return (
    <a
      href={to}
      download
      className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
      data-testid={testId}
    >
      {label}
    </a>
  );
}
