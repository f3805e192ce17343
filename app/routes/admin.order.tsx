import { data } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminOrderScreen } from "~/modules/admin/components/order-page";
import { refundFromForm, orderActionForm } from "~/modules/orders/action-schemas";
import { addOrderNote, adminOrder, setCustomerNote } from "~/modules/admin/orders.server";
import { addShipment } from "~/modules/orders/fulfilment.server";
import { cancelOrder, markOrderPaid, OrderActionError } from "~/modules/orders/lifecycle.server";
import { adminOrderView } from "~/modules/orders/order-view";
import { refundOrder } from "~/modules/orders/refunds.server";
import { approveHeldOrder, rejectHeldOrder } from "~/modules/orders/holds.server";
import { ordersContext } from "~/modules/orders/orders.server";
import { orderDocuments } from "~/modules/orders/invoices.server";
import { orderEmails } from "~/modules/admin/emails.server";
import { type ActionReply, parseActionForm } from "~/modules/admin/form-actions.server";
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
  return data(
    {
      order: adminOrderView({ ...view, documents: await orderDocuments(context.db, view.order.id) }),
      emails: await orderEmails(context.db, view.order.id),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Order #${loaderData.order.number} · Store admin` : "Order · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const DONE: Record<string, (number: number) => string> = {
  "mark-paid": (number) =>
    `Order #${number} is marked paid; the customer gets their receipt and keys by e-mail.`,
  ship: (number) =>
    `Shipment recorded for order #${number}; the customer gets the tracking number by e-mail.`,
  cancel: (number) => `Order #${number} is cancelled.`,
  refund: (number) => `The refund of order #${number} is recorded; the customer gets an e-mail.`,
  reject: (number) =>
    `Order #${number} is rejected and refunded in full; the customer gets an e-mail with the credit note.`,
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
  let done = DONE[form.intent];
  try {
    if (form.intent === "approve") {
      const approved = await approveHeldOrder(ctx, number, admin.email);
      done = () =>
        approved.keysMissing > 0
          ? `Order #${number} is approved. The pool lacked ${approved.keysMissing} licence key${approved.keysMissing > 1 ? "s" : ""}: the order waits for ${approved.keysMissing > 1 ? "them" : "it"} and the customer gets ${approved.keysMissing > 1 ? "them" : "it"} by e-mail when keys are added.`
          : `Order #${number} is approved; the customer gets their licence keys by e-mail.`;
    } else if (form.intent === "reject") await rejectHeldOrder(ctx, number, form, admin.email);
    else if (form.intent === "mark-paid") await markOrderPaid(ctx, number, admin.email);
    else if (form.intent === "ship") await addShipment(ctx, number, form, admin.email);
    else if (form.intent === "cancel") await cancelOrder(ctx, number, admin.email);
    else if (form.intent === "refund") await refundOrder(ctx, number, refundFromForm(form), admin.email);
    else if (form.intent === "note") await addOrderNote(ctx.db, number, form.note, admin.email);
    else await setCustomerNote(ctx.db, number, form.customerNote, admin.email);
  } catch (error) {
    if (error instanceof OrderActionError)
      return data<ActionReply>(
        error.field
          ? { ok: false, intent: form.intent, errors: { [error.field]: error.message } }
          : { ok: false, intent: form.intent, message: error.message },
        409,
      );
    throw error;
  }
  return data<ActionReply>({ ok: true, intent: form.intent, message: done!(number) });
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminOrderScreen
      order={loaderData.order}
      emails={loaderData.emails}
      reply={actionData as ActionReply | undefined}
    />
  );
}
