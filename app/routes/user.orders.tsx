import { data, Form, Link, useNavigation } from "react-router";
import { refundRows, type TotalsRow, totalsRows } from "~/modules/orders/totals";
import { readFormBody } from "~/lib/form-data.server";
import { formatMoney } from "~/lib/money";
import { AccountShell, Card, formatDate } from "~/modules/accounts/components/account-shell";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { claimableOrderCount, joinGuestOrders } from "~/modules/accounts/guest-orders.server";
import { ordersForUser } from "~/modules/orders/customer.server";
import { ORDER_STATUS_LABELS } from "~/modules/orders/labels";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [list, claimable, seo] = await Promise.all([
    ordersForUser(context, viewer.id),
    // Until the address is confirmed, nothing says whether guest orders were placed with it.
    viewer.emailVerified ? claimableOrderCount(context.db, viewer.email) : 0,
    seoForPath(context, new URL(request.url).pathname, {
      page: { title: "Your orders", description: "Your orders, their status and your licence keys." },
    }),
  ]);
  return data(
    {
      emailVerified: viewer.emailVerified,
      justVerified: new URL(request.url).searchParams.get("verified") === "1" && viewer.emailVerified,
      claimable,
      seo,
      orders: list.map(({ order, lines }) => ({
        number: order.number,
        status: order.status,
        placedAt: order.createdAt.toISOString(),
        currency: order.currency,
        subtotalCents: order.subtotalCents,
        shippingCents: order.shippingCents,
        discountCode: order.discountCode,
        discountCents: order.discountCents,
        taxes: order.taxBreakdown,
        taxCents: order.taxCents,
        pricesIncludeTax: order.pricesIncludeTax,
        totalCents: order.totalCents,
        refundedCents: order.refundedCents,
        awaitingKeys: order.awaitingKeys,
        lines: lines.map((line) => ({
          id: line.id,
          name: line.name,
          quantity: line.quantity,
          lineTotalCents: line.lineTotalCents,
          keys: line.keys,
        })),
      })),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const body = await readFormBody(request);
  const intent = body.ok ? body.values.intent : undefined;
  if (intent === "claim") {
    const result = await joinGuestOrders(context.db, viewer.id, "customer");
    if (!result.ok) return data({ message: "Confirm your e-mail address first." }, { status: 403 });
    const count = result.joined.length;
    return {
      message:
        count === 0
          ? "There were no guest orders left to add."
          : `Added ${count} order${count > 1 ? "s" : ""} to your account: #${result.joined.join(", #")}.`,
    };
  }
  return data({ message: "Choose what to do with the form's buttons." }, { status: 400 });
}

/** The order's own figures stand out from the rows that make them up. */
const ROW_STYLES: Partial<Record<TotalsRow["key"], string>> = {
  total: "font-bold",
  refunded: "text-rose-800",
  net: "font-bold",
};

export default function UserOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { orders, claimable } = loaderData;
  return (
    <AccountShell
      title="Your orders"
      intro="Every order with its licence keys, newest first."
      testId="user-orders"
    >
      <div className="space-y-6">
        {loaderData.justVerified ? (
          <p
            className="rounded-xl border border-green-300 bg-green-50 p-4 text-sm text-green-900"
            role="status"
          >
            Thank you: your e-mail address is confirmed.
          </p>
        ) : null}
        {actionData?.message ? (
          <p
            className="rounded-xl border border-slate-300 bg-white p-4 text-sm"
            role="status"
            data-testid="orders-notice"
          >
            {actionData.message}
          </p>
        ) : null}
        {claimable > 0 ? (
          <Card title="Orders placed as a guest" testId="claim-card">
            <p className="text-sm text-slate-700">
              {claimable} order{claimable > 1 ? "s" : ""} placed as a guest with your e-mail address{" "}
              {claimable > 1 ? "are" : "is"} not in your account yet. Guest orders placed before you confirmed
              the address joined your account then; those placed later join when you add them here.
            </p>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="claim" />
              <button
                type="submit"
                disabled={busy}
                className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
              >
                Add {claimable > 1 ? "them" : "it"} to my account
              </button>
            </Form>
          </Card>
        ) : null}

        {orders.length === 0 ? (
          <Card title="No orders yet">
            <p className="text-sm text-slate-600">
              When you order while signed in, your orders and licence keys appear here.{" "}
              <Link to="/best-sellers" className="font-semibold text-brand-700 hover:underline">
                Browse our best sellers
              </Link>
            </p>
          </Card>
        ) : (
          <ol className="space-y-4">
            {orders.map((order) => (
              <li
                key={order.number}
                className="rounded-2xl border border-slate-200 bg-white shadow-sm"
                data-testid="user-order"
                data-number={order.number}
              >
                <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-3">
                  <div>
                    <h2 className="font-bold">
                      <Link to={`/order/${order.number}`} className="hover:text-brand-700 hover:underline">
                        Order #{order.number}
                      </Link>
                    </h2>
                    <p className="text-xs text-slate-500">Placed {formatDate(order.placedAt, true)}</p>
                  </div>
                  <span
                    className="rounded-full bg-slate-100 px-3 py-1 text-xs font-semibold"
                    data-testid="user-order-status"
                  >
                    {ORDER_STATUS_LABELS[order.status] ?? order.status}
                  </span>
                </div>
                <ul className="divide-y divide-slate-100 px-5">
                  {order.lines.map((line) => (
                    <li key={line.id} className="py-3 text-sm">
                      <div className="flex justify-between gap-4">
                        <span>
                          {line.quantity} × <span className="font-semibold">{line.name}</span>
                        </span>
                        <span className="font-medium">
                          {formatMoney(line.lineTotalCents, order.currency)}
                        </span>
                      </div>
                      {line.keys.length > 0 ? (
                        <ul
                          className="mt-2 flex flex-wrap gap-2"
                          aria-label={`Licence keys for ${line.name}`}
                        >
                          {line.keys.map((key) => (
                            <li key={key}>
                              <code
                                className="break-all rounded bg-brand-50 px-2 py-1 font-mono text-xs text-ink-900"
                                data-testid="user-licence-key"
                              >
                                {key}
                              </code>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </li>
                  ))}
                </ul>
                {order.awaitingKeys > 0 ? (
                  <p className="px-5 pb-2 text-xs text-slate-600">
                    {order.awaitingKeys} licence key{order.awaitingKeys > 1 ? "s" : ""} on the way by e-mail.
                  </p>
                ) : null}
                <dl className="flex flex-wrap justify-end gap-x-6 gap-y-1 border-t border-slate-100 px-5 py-3 text-sm">
                  {[...totalsRows(order), ...refundRows(order)].map((row, index) => (
                    <div key={`${row.key}-${index}`} className={`flex gap-2 ${ROW_STYLES[row.key] ?? ""}`}>
                      <dt className={row.key in ROW_STYLES ? undefined : "text-slate-500"}>{row.label}</dt>
                      <dd data-testid={`user-order-${row.key}`}>{row.amount}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ol>
        )}
      </div>
    </AccountShell>
  );
}
