import { data, Link } from "react-router";
import type { Address } from "~db/schema/orders";
import { PostalAddress } from "~/ui/postal-address";
import { formatMoney } from "~/lib/money";
import { OrderTotals } from "~/modules/orders/components/order-totals";
import { LineAdjustments } from "~/modules/orders/components/line-adjustments";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { ActionNotice, AdminPage, Panel } from "~/modules/admin/components/admin-page";
import {
  formatWhen,
  OrderStatusBadge,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  TestOrderBadge,
  When,
} from "~/modules/admin/components/orders-parts";
import { cancelForm, orderActionForm, refundFromForm } from "~/modules/orders/action-schemas";
import { addOrderNote, adminOrder, orderLifeView, setCustomerNote } from "~/modules/admin/orders.server";
import { addShipment } from "~/modules/orders/fulfilment.server";
import { allowedActions } from "~/modules/orders/lifecycle";
import { cancelOrder, markOrderPaid, OrderActionError } from "~/modules/orders/lifecycle.server";
import { refundOrder } from "~/modules/orders/refunds.server";
import {
  ConfirmBox,
  DeliveryPanel,
  LineStateBadge,
  NotesPanel,
  RefundForm,
  RevokedHints,
  ShipForm,
} from "~/modules/admin/components/order-life";
import { ordersContext } from "~/modules/orders/orders.server";
import { orderDocuments } from "~/modules/orders/invoices.server";
import { linePaidCents } from "~/modules/orders/invoice-document";
import { OrderDocuments } from "~/modules/orders/components/order-documents";
import { OrderEmails } from "~/modules/admin/components/emails-parts";
import { orderEmails } from "~/modules/admin/emails.server";
import { type ActionReply, parseActionForm } from "~/modules/admin/form-actions.server";
import { IntentForm } from "~/modules/admin/components/intent-form";
import { buttonClass } from "~/ui/button";
import type { Route } from "./+types/admin.order";

/** The order number of the URL; anything but a plain positive number is a 404, like an order that does not exist. */
function orderNumber(params: { number?: string }): number {
  const text = params.number ?? "";
  const number = /^\d{1,9}$/.test(text) ? Number(text) : 0;
  if (number < 1)
    throw data({ message: "There is no such order." }, { status: 404, headers: PRIVATE_HEADERS });
  return number;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const number = orderNumber(params);
  const view = await adminOrder(context.db, number);
  if (!view)
    throw data({ message: `There is no order #${number}.` }, { status: 404, headers: PRIVATE_HEADERS });
  const { order, lines, events } = view;
  const life = orderLifeView(view);
  return data(
    {
      order: {
        number: order.number,
        email: order.email,
        userId: order.userId,
        status: order.status,
        paymentStatus: order.paymentStatus,
        paymentMethod: order.paymentMethod,
        paymentReference: order.paymentReference,
        isTest: order.isTest,
        cancelReason: order.cancelReason,
        subtotalCents: order.subtotalCents,
        shippingCents: order.shippingCents,
        totalCents: order.totalCents,
        discountCode: order.discountCode,
        discountCents: order.discountCents,
        taxes: order.taxBreakdown,
        taxCents: order.taxCents,
        pricesIncludeTax: order.pricesIncludeTax,
        buyerTaxId: order.buyerTaxId,
        billingAddress: order.billingAddress,
        shippingAddress: order.shippingAddress,
        awaitingKeys: order.awaitingKeys,
        trackingNumber: order.trackingNumber,
        refundedCents: order.refundedCents,
        customerNote: order.customerNote,
        createdAt: order.createdAt.toISOString(),
        updatedAt: order.updatedAt.toISOString(),
        paidAt: order.paidAt?.toISOString() ?? null,
      },
      lines: lines.map((line) => ({
        id: line.id,
        name: line.name,
        kind: line.kind,
        groupKey: line.groupKey,
        externalId: line.externalId,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
        lineTotalCents: line.lineTotalCents,
        discountCents: line.discountCents,
        taxes: line.taxes,
        paidCents: linePaidCents(line, order.pricesIncludeTax),
        keyHints: line.keyHints,
        revokedHints: line.revokedHints,
        state: life.states.get(line.id)!,
      })),
      events: events.map((event) => ({
        id: event.id,
        type: event.type,
        actor: event.actor,
        message: event.message,
        createdAt: event.createdAt.toISOString(),
      })),
      actions: allowedActions(order, lines),
      emails: await orderEmails(context.db, order.id),
      documents: await orderDocuments(context.db, order.id),
      shipments: life.shipments,
      refunds: life.refunds,
      notes: life.notes,
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Order #${loaderData.order.number} · Store admin` : "Order · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

type Reply = ActionReply;

const DONE: Record<string, (number: number) => string> = {
  "mark-paid": (number) =>
    `Order #${number} is marked paid; the customer gets their receipt and keys by e-mail.`,
  ship: (number) =>
    `Shipment recorded for order #${number}; the customer gets the tracking number by e-mail.`,
  cancel: (number) => `Order #${number} is cancelled.`,
  refund: (number) => `The refund of order #${number} is recorded; the customer gets an e-mail.`,
  note: (number) => `Note added to order #${number}.`,
  "customer-note": (number) => `The customer's note on order #${number} is saved.`,
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const number = orderNumber(params);
  const parsed = await parseActionForm(request, orderActionForm);
  if (!parsed.ok) return parsed.response;
  const form = parsed.form;
  if (!(await adminOrder(context.db, number)))
    throw data({ message: `There is no order #${number}.` }, { status: 404, headers: PRIVATE_HEADERS });
  const ctx = await ordersContext(context);
  try {
    if (form.intent === "mark-paid") await markOrderPaid(ctx, number, admin.email);
    else if (form.intent === "ship") await addShipment(ctx, number, form, admin.email);
    else if (form.intent === "cancel") await cancelOrder(ctx, number, admin.email);
    else if (form.intent === "refund") await refundOrder(ctx, number, refundFromForm(form), admin.email);
    else if (form.intent === "note") await addOrderNote(ctx.db, number, form.note, admin.email);
    else await setCustomerNote(ctx.db, number, form.customerNote, admin.email);
  } catch (error) {
    if (error instanceof OrderActionError)
      return data<Reply>(
        error.field
          ? { ok: false, intent: form.intent, errors: { [error.field]: error.message } }
          : { ok: false, intent: form.intent, message: error.message },
        409,
      );
    throw error;
  }
  return data<Reply>({ ok: true, intent: form.intent, message: DONE[form.intent]!(number) });
}

function AddressBlock({ title, address }: { title: string; address: Address | null }) {
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

/** "admin:ann@example.com" reads as the admin's address; the others as who they are. */
function actorLabel(actor: string) {
  if (actor.startsWith("admin:")) return actor.slice("admin:".length);
  return (
    { customer: "the customer", system: "the store", stripe: "Stripe", sandbox: "the test payment" }[actor] ??
    actor
  );
}

const EVENT_LABELS: Record<string, string> = {
  placed: "Placed",
  paid: "Paid",
  keys_delivered: "Keys delivered",
  keys_waiting: "Waiting for keys",
  shipped: "Shipped",
  fulfilled: "Complete",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
  refunded: "Refunded",
  payment_failed: "Payment failed",
  invoice_issued: "Invoice issued",
  credit_note_issued: "Credit note issued",
  stock_released: "Back in stock",
  code_released: "Discount code given back",
  keys_resent: "Keys e-mailed again",
  link_renewed: "New order link sent",
  claimed: "Added to an account",
  "customer-deleted": "Customer's account deleted",
};

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, lines, events, actions, emails, shipments, refunds, notes, documents } = loaderData;
  const reply = actionData as Reply | undefined;
  const errorsFor = (intent: string) => (reply?.intent === intent ? reply.errors : undefined);
  const anyAction = Object.values(actions).some(Boolean);
  return (
    <AdminPage
      title={`Order #${order.number}`}
      intro={`Placed ${formatWhen(order.createdAt)} by ${order.email}.`}
      actions={
        <>
          <Link
            to="/admin/orders"
            className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
          >
            All orders
          </Link>
          <Link
            to={`/admin/audit?entity=order&entityId=${order.number}`}
            className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
          >
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
      <div
        className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]"
        data-testid="admin-order"
      >
        <div className="space-y-6">
          <Panel title="Items">
            <div className="overflow-x-auto" data-testid="admin-order-items">
              <table className="w-full text-sm">
                <caption className="sr-only">Items of order #{order.number}</caption>
                <thead className="text-left text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-2 sm:pr-3 font-semibold">
                      Product
                    </th>
                    {/* On a phone the unit price and quantity go under the product's name (see below). */}
                    <th
                      scope="col"
                      className="hidden whitespace-nowrap px-2 py-2 text-right font-semibold sm:table-cell sm:px-3"
                    >
                      Unit price
                    </th>
                    <th
                      scope="col"
                      className="hidden px-2 py-2 text-right font-semibold sm:table-cell sm:px-3"
                    >
                      Qty
                    </th>
                    <th scope="col" className="py-2 pl-2 text-right font-semibold sm:pl-3">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {lines.map((line) => (
                    <tr key={line.id} data-testid="admin-order-line">
                      <td className="py-2 pr-2 sm:pr-3 align-top">
                        {/* The space lets the badge go under a long name on a phone. */}
                        <span className="font-semibold text-ink-900">{line.name}</span>{" "}
                        <span className="ml-1 whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                          {line.kind === "software" ? "Licence key" : "Physical item"}
                        </span>{" "}
                        <LineStateBadge state={line.state} />
                        <span className="mt-1 block text-xs text-slate-600 sm:hidden">
                          {line.quantity} × {formatMoney(line.unitPriceCents)}
                        </span>
                        <RevokedHints line={line} />
                        {line.kind === "software" ? (
                          line.keyHints.length > 0 ? (
                            <ul
                              className="mt-1 flex flex-wrap gap-1.5"
                              aria-label={`Licence keys of ${line.name} (last characters only)`}
                            >
                              {line.keyHints.map((hint) => (
                                <li key={hint}>
                                  <code
                                    className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs"
                                    data-testid="key-hint"
                                  >
                                    {hint}
                                  </code>
                                </li>
                              ))}
                            </ul>
                          ) : line.revokedHints.length > 0 ? null : (
                            <p className="mt-1 text-xs text-slate-500">No key allocated yet</p>
                          )
                        ) : null}
                      </td>
                      <td className="hidden px-2 py-2 text-right align-top tabular-nums sm:table-cell sm:px-3">
                        {formatMoney(line.unitPriceCents)}
                      </td>
                      <td className="hidden px-2 py-2 text-right align-top tabular-nums sm:table-cell sm:px-3">
                        {line.quantity}
                      </td>
                      {/* Each tax on one line: a column as narrow as its widest word stacked them. */}
                      <td
                        className="whitespace-nowrap py-2 pl-2 text-right align-top font-medium tabular-nums sm:pl-3"
                        data-testid="admin-order-line-total"
                      >
                        {formatMoney(line.lineTotalCents)}
                        <LineAdjustments
                          line={line}
                          pricesIncludeTax={order.pricesIncludeTax}
                          prefix="admin-order-line"
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="ml-auto mt-3 max-w-xs border-t border-slate-100 pt-3">
              <OrderTotals prefix="admin-order" totals={order} className="space-y-1 text-sm" />
              {order.buyerTaxId ? (
                <p className="mt-2 text-sm text-slate-600" data-testid="admin-order-buyer-tax-id">
                  Buyer's tax ID: {order.buyerTaxId}
                </p>
              ) : null}
            </div>
            {order.awaitingKeys > 0 ? (
              <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
                {order.awaitingKeys} licence key{order.awaitingKeys > 1 ? "s" : ""} still to send: the pool is
                empty.{" "}
                <Link to="/admin/keys" className="font-semibold underline">
                  Add keys
                </Link>{" "}
                and they go out at once.
              </p>
            ) : null}
          </Panel>

          <Panel title="Customer and addresses">
            <p className="text-sm">
              <span className="text-slate-600">E-mail: </span>
              <span className="font-medium" data-testid="admin-order-email">
                {order.email}
              </span>
              {order.userId ? (
                <>
                  {" · "}
                  <Link
                    to={`/admin/users/${order.userId}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    Customer account
                  </Link>
                </>
              ) : events.some((event) => event.type === "customer-deleted") ? (
                <span className="text-slate-600" data-testid="admin-order-account">
                  {" "}
                  · account deleted by the customer
                </span>
              ) : (
                <span className="text-slate-600" data-testid="admin-order-account">
                  {" "}
                  · placed as a guest
                </span>
              )}
            </p>
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <AddressBlock title="Billing address" address={order.billingAddress} />
              <AddressBlock title="Shipping address" address={order.shippingAddress} />
            </div>
          </Panel>

          <DeliveryPanel shipments={shipments} refunds={refunds} />

          <Panel title="History" testId="order-history">
            <ol className="space-y-3">
              {events.map((event) => (
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
                    <span className="font-semibold text-ink-900">
                      {EVENT_LABELS[event.type] ?? event.type}
                    </span>
                    {event.message ? <span className="text-slate-700">: {event.message}</span> : null}
                    <span className="block text-xs text-slate-600">
                      by <span data-testid="order-event-actor">{actorLabel(event.actor)}</span>
                    </span>
                  </span>
                </li>
              ))}
            </ol>
          </Panel>
        </div>

        <div className="space-y-6">
          <Panel title="Status and payment" testId="order-status-card">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-slate-600">Status</dt>
              <dd className="flex flex-wrap items-center gap-1.5">
                <OrderStatusBadge status={order.status} />
                {order.isTest ? <TestOrderBadge /> : null}
              </dd>
              {order.status === "cancelled" && order.cancelReason ? (
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
                ) : lines.some((line) => line.kind === "physical") ? (
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

          {documents.length > 0 || order.paidAt ? (
            <Panel title="Invoice and credit notes" testId="order-documents-panel">
              <OrderDocuments
                documents={documents}
                invoiceDue={order.paidAt !== null}
                pendingLabel="Invoice not issued yet (paid before invoices existed): downloading it issues it"
                href={(file) => `/admin/orders/${order.number}/documents/${file}`}
                className="-mt-2"
              />
            </Panel>
          ) : null}

          <Panel title="Actions" testId="order-actions">
            {anyAction ? null : <p className="text-sm text-slate-600">Nothing left to do for this order.</p>}
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
                        The bank transfer of {formatMoney(order.totalCents)} has arrived: licence keys are
                        allocated and e-mailed to the customer with the receipt.
                      </p>
                      <button type="submit" className={buttonClass("primary")} disabled={busy}>
                        {busy ? "Marking paid…" : "Mark as paid"}
                      </button>
                    </>
                  )}
                </IntentForm>
              ) : null}
              {actions.ship ? <ShipForm lines={lines} serverErrors={errorsFor("ship")} /> : null}
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
                <RefundForm order={order} lines={lines} serverErrors={errorsFor("refund")} />
              ) : null}
            </div>
          </Panel>
          <OrderEmails emails={emails} />

          <NotesPanel notes={notes} customerNote={order.customerNote} errorsFor={errorsFor} />
        </div>
      </div>
    </AdminPage>
  );
}
