import { Link } from "react-router";
import type { Address } from "~db/schema/orders";
import { formatMoney } from "~/lib/money";
import { cancelForm, rejectForm } from "~/modules/orders/action-schemas";
import { OrderDocuments } from "~/modules/orders/components/order-documents";
import type { AdminOrderView } from "~/modules/orders/order-view";
import { buttonClass } from "~/ui/button";
import { TextField } from "~/ui/field";
import { PostalAddress } from "~/ui/postal-address";
import type { EmailRow } from "../emails.server";
import type { ActionReply } from "../form-actions.server";
import { ActionNotice, AdminPage, Panel } from "./admin-page";
import { useMayOpen } from "./admin-shell";
import { OrderEmails } from "./emails-parts";
import { IntentForm } from "./intent-form";
import { AdminOrderItems } from "./order-items";
import { ConfirmBox, DeliveryPanel, NotesPanel, RefundForm, ShipForm } from "./order-life";
import {
  formatWhen,
  OrderStatusBadge,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  TestOrderBadge,
  When,
} from "./orders-parts";

const LINK_BUTTON =
  "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50";

/**
 * The admin's order page: items, customer and addresses, parcels and refunds, history on the left; status and
 * payment, documents, the actions the order allows, its e-mails and notes on the right.
 */
export function AdminOrderScreen({
  order,
  emails,
  reply,
}: {
  order: AdminOrderView;
  emails: EmailRow[];
  reply?: ActionReply;
}) {
  const errorsFor = (intent: string) => (reply?.intent === intent ? reply.errors : undefined);
  return (
    <AdminPage
      title={`Order #${order.number}`}
      intro={`Placed ${formatWhen(order.placedAt)} by ${order.email}.`}
      actions={
        <>
          <Link to="/admin/orders" className={LINK_BUTTON}>
            All orders
          </Link>
          <Link to={`/admin/audit?entity=order&entityId=${order.number}`} className={LINK_BUTTON}>
            Audit entries
          </Link>
        </>
      }
    >
      <ActionNotice result={reply} />
      {order.isTest ? (
        <p
          className="mb-4 flex flex-wrap items-center gap-2 rounded-lg border border-violet-300 bg-violet-50 p-3 text-sm text-violet-900"
          data-testid="admin-order-test"
        >
          <TestOrderBadge />
          <span>
            A test order: placed while test payments were on, so no money moved. The dashboard's revenue
            leaves it out.
          </span>
        </p>
      ) : null}
      {/* Above the columns: on a phone too, a held order says so before anything else. */}
      <HoldPanel order={order} />
      <div
        className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]"
        data-testid="admin-order"
      >
        <div className="space-y-6">
          <AdminOrderItems order={order} />
          <CustomerPanel order={order} />
          <DeliveryPanel shipments={order.shipments} refunds={order.refunds} currency={order.currency} />
          <HistoryPanel order={order} />
        </div>

        <div className="space-y-6">
          <StatusPanel order={order} />
          {order.documents.length > 0 || order.invoiceDue ? (
            <Panel title="Invoice and credit notes" testId="order-documents-panel">
              <OrderDocuments
                documents={order.documents}
                currency={order.currency}
                invoiceDue={order.invoiceDue}
                pendingLabel="Invoice not issued yet (paid before invoices existed): downloading it issues it"
                href={(file) => `/admin/orders/${order.number}/documents/${file}`}
                className="-mt-2"
              />
            </Panel>
          ) : null}
          <ActionsPanel order={order} errorsFor={errorsFor} />
          <OrderEmails emails={emails} />
          <NotesPanel notes={order.notes} customerNote={order.customerNote} errorsFor={errorsFor} />
        </div>
      </div>
    </AdminPage>
  );
}

function CustomerPanel({ order }: { order: AdminOrderView }) {
  // The customers' pages are another role's (support) for the orders role: the account is named, not linked.
  const mayOpenCustomer = useMayOpen("/admin/users/:id");
  return (
    <Panel title="Customer and addresses">
      <p className="text-sm">
        <span className="text-slate-600">E-mail: </span>
        <span className="font-medium" data-testid="admin-order-email">
          {order.email}
        </span>
        {order.userId ? (
          <>
            {" · "}
            {mayOpenCustomer ? (
              <Link
                to={`/admin/users/${order.userId}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                Customer account
              </Link>
            ) : (
              <span className="text-slate-600">signed in to their account</span>
            )}
          </>
        ) : (
          <span className="text-slate-600" data-testid="admin-order-account">
            {" "}
            · {order.accountDeleted ? "account deleted by the customer" : "placed as a guest"}
          </span>
        )}
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <AddressEntry title="Billing address" address={order.billingAddress} />
        <AddressEntry title="Shipping address" address={order.shippingAddress} />
      </div>
    </Panel>
  );
}

function AddressEntry({ title, address }: { title: string; address: Address | null }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-ink-900">{title}</h3>
      {address ? (
        <PostalAddress
          address={address}
          name={address.name}
          phone={address.phone}
          className="mt-1 text-sm not-italic text-slate-700"
        />
      ) : (
        <p className="mt-1 text-sm text-slate-500">None (nothing to ship)</p>
      )}
    </div>
  );
}

function HistoryPanel({ order }: { order: AdminOrderView }) {
  return (
    <Panel title="History" testId="order-history">
      <ol className="space-y-3">
        {order.history.map((event) => (
          <li
            key={event.id}
            className="flex flex-col gap-0.5 border-l-2 border-slate-200 pl-3 text-sm sm:flex-row sm:gap-3"
            data-testid="order-event"
            data-type={event.type}
          >
            <span className="shrink-0 text-slate-600 sm:w-44">
              <When iso={event.createdAt} />
            </span>
            <span>
              <span className="font-semibold text-ink-900">{event.label}</span>
              {event.message ? <span className="text-slate-700">: {event.message}</span> : null}
              <span className="block text-xs text-slate-600">
                by <span data-testid="order-event-actor">{event.by}</span>
              </span>
            </span>
          </li>
        ))}
      </ol>
    </Panel>
  );
}

/** Why the order was held (ADR 0035), and what became of it; nothing for an order never held. */
function HoldPanel({ order }: { order: AdminOrderView }) {
  if (order.holdReasons.length === 0) return null;
  const decided =
    order.holdDecision === "approved"
      ? "Approved: delivered as usual."
      : order.holdDecision === "rejected"
        ? "Rejected: refunded in full."
        : "Nothing is delivered until you approve it. Rejecting it refunds it in full.";
  return (
    <div className="mb-6">
      <Panel title={order.status === "held" ? "On hold" : "Was on hold"} testId="order-hold">
        <ul className="list-disc space-y-1 break-words pl-5 text-sm" aria-label="Why the order was held">
          {order.holdReasons.map((reason) => (
            <li key={reason.rule} data-testid="hold-reason" data-rule={reason.rule}>
              {reason.message}
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-700" data-testid="hold-decision">
          {decided}
        </p>
      </Panel>
    </div>
  );
}

function StatusPanel({ order }: { order: AdminOrderView }) {
  return (
    <Panel title="Status and payment" testId="order-status-card">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-600">Status</dt>
        <dd className="flex flex-wrap items-center gap-1.5">
          <OrderStatusBadge status={order.status} />
          {order.isTest ? <TestOrderBadge /> : null}
        </dd>
        {order.cancelReason ? (
          <>
            <dt className="text-slate-600">Why</dt>
            <dd data-testid="cancel-reason">{order.cancelReason}</dd>
          </>
        ) : null}
        <dt className="text-slate-600">Payment</dt>
        <dd data-testid="admin-payment">
          {PAYMENT_METHOD_LABELS[order.paymentMethod] ?? order.paymentMethod}:{" "}
          {PAYMENT_STATUS_LABELS[order.paymentStatus] ?? order.paymentStatus}
        </dd>
        {order.paidAt ? (
          <>
            <dt className="text-slate-600">Paid</dt>
            <dd>
              <When iso={order.paidAt} />
            </dd>
          </>
        ) : null}
        {order.paymentReference ? (
          <>
            <dt className="text-slate-600">Reference</dt>
            <dd className="break-all font-mono text-xs">{order.paymentReference}</dd>
          </>
        ) : null}
        <dt className="text-slate-600">Tracking</dt>
        <dd data-testid="admin-tracking">
          {order.trackingNumber ? (
            <span className="font-mono">{order.trackingNumber}</span>
          ) : order.ships ? (
            "Not shipped yet"
          ) : (
            "Nothing to ship"
          )}
        </dd>
        <dt className="text-slate-600">Updated</dt>
        <dd>
          <When iso={order.updatedAt} />
        </dd>
      </dl>
    </Panel>
  );
}

/** The actions the order's state allows (lifecycle.ts), each a form of its own. */
function ActionsPanel({
  order,
  errorsFor,
}: {
  order: AdminOrderView;
  errorsFor: (intent: string) => ActionReply["errors"];
}) {
  const { actions } = order;
  return (
    <Panel title="Actions" testId="order-actions">
      {Object.values(actions).some(Boolean) ? null : (
        <p className="text-sm text-slate-600">Nothing left to do for this order.</p>
      )}
      <div className="flex flex-col gap-4 [&>*:not(:first-child)]:border-t [&>*:not(:first-child)]:border-slate-200 [&>*:not(:first-child)]:pt-4">
        {actions.markPaid ? (
          <IntentForm
            title="Payment received"
            intent="mark-paid"
            serverErrors={errorsFor("mark-paid")}
            testId="mark-paid-form"
          >
            {(_errors, busy) => (
              <>
                <p className="text-sm text-slate-700">
                  The bank transfer of {formatMoney(order.totalCents, order.currency)} has arrived: licence
                  keys are allocated and e-mailed to the customer with the receipt.
                </p>
                <button type="submit" className={buttonClass("primary")} disabled={busy}>
                  {busy ? "Marking paid…" : "Mark as paid"}
                </button>
              </>
            )}
          </IntentForm>
        ) : null}
        {actions.approve ? (
          <IntentForm
            title="Approve"
            intent="approve"
            serverErrors={errorsFor("approve")}
            testId="approve-form"
          >
            {(_errors, busy) => (
              <>
                <p className="text-sm text-slate-700">
                  The order checks out: its licence keys are taken from the pool now and e-mailed to the
                  customer. Keys the pool lacks follow when they are added.
                </p>
                <button type="submit" className={buttonClass("primary")} disabled={busy}>
                  {busy ? "Approving…" : "Approve and deliver"}
                </button>
              </>
            )}
          </IntentForm>
        ) : null}
        {actions.reject ? (
          <IntentForm
            title="Reject"
            intent="reject"
            schema={rejectForm}
            serverErrors={errorsFor("reject")}
            testId="reject-form"
          >
            {(errors, busy) => (
              <>
                <p className="text-sm text-slate-700">
                  Refunds the whole {formatMoney(order.totalCents, order.currency)} the way it was paid and
                  cancels the delivery; printers and routers go back in stock. It cannot be undone.
                </p>
                <TextField
                  label="Reason (optional, told to the customer)"
                  name="reason"
                  maxLength={500}
                  error={errors.reason}
                />
                <ConfirmBox label={`Yes, reject and refund order #${order.number}`} error={errors.confirm} />
                <button type="submit" className={buttonClass("danger")} disabled={busy}>
                  {busy ? "Rejecting…" : "Reject and refund"}
                </button>
              </>
            )}
          </IntentForm>
        ) : null}
        {actions.ship ? <ShipForm lines={order.lines} serverErrors={errorsFor("ship")} /> : null}
        {actions.cancel ? (
          <IntentForm
            title="Cancel"
            intent="cancel"
            schema={cancelForm}
            serverErrors={errorsFor("cancel")}
            testId="cancel-form"
          >
            {(errors, busy) => (
              <>
                <p className="text-sm text-slate-700">
                  Cancel an order that will not be paid. It cannot be undone.
                </p>
                <ConfirmBox label={`Yes, cancel order #${order.number}`} error={errors.confirm} />
                <button type="submit" className={buttonClass("danger")} disabled={busy}>
                  {busy ? "Cancelling…" : "Cancel order"}
                </button>
              </>
            )}
          </IntentForm>
        ) : null}
        {actions.refund ? (
          <RefundForm order={order} lines={order.lines} serverErrors={errorsFor("refund")} />
        ) : null}
      </div>
    </Panel>
  );
}
