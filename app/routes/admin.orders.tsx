import { Link } from "react-router";
import { ORDER_STATUSES } from "~db/schema/orders";
import { formatMoney } from "~/lib/money";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { ExportLink } from "~/modules/admin/components/order-life";
import { cellClass, FilterLinks, ListRows, ListSearch } from "~/modules/admin/components/list-controls";
import {
  OrderStatusBadge,
  PAYMENT_METHOD_LABELS,
  TestOrderBadge,
  When,
} from "~/modules/admin/components/orders-parts";
import { listOrders, orderListQuery } from "~/modules/admin/orders.server";
import { ORDER_STATUS_LABELS } from "~/modules/orders/labels";
import { loadAdminRows } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.orders";

/** Every order, a page at a time: searched, sorted and filtered by status through the URL. */
export const loader = (args: Route.LoaderArgs) =>
  loadAdminRows(args, {
    query: orderListQuery,
    load: listOrders,
    row: (row) => ({ ...row, createdAt: row.createdAt.toISOString() }),
  });

export const meta: Route.MetaFunction = () => [
  { title: "Orders · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

/** All, or one status. */
const STATUS_FILTERS = [
  [undefined, "All"],
  ...ORDER_STATUSES.map((status) => [status, ORDER_STATUS_LABELS[status] ?? status] as const),
] as const;

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { query } = loaderData;
  return (
    <AdminPage
      title="Orders"
      intro="Every order, newest first (times in UTC). Open one to mark it paid, ship it or refund it."
      actions={
        <ExportLink
          to={`/admin/export/orders.csv?${new URLSearchParams({
            ...(query.q ? { q: query.q } : {}),
            ...(query.status ? { status: query.status } : {}),
            sort: query.sort,
            dir: query.dir,
          }).toString()}`}
          label="Download CSV"
          testId="orders-csv"
        />
      }
    >
      <ListSearch label="Search orders" placeholder="Order number or e-mail address" />
      <FilterLinks label="Order status" param="status" options={STATUS_FILTERS} current={query.status} />
      <ListRows
        caption={`Orders${query.status ? `: ${ORDER_STATUS_LABELS[query.status]}` : ""}`}
        columns={[
          { label: "Order", sort: "number" },
          { label: "Placed", sort: "created" },
          { label: "E-mail", sort: "email" },
          { label: "Payment" },
          { label: "Status", sort: "status" },
          { label: "Total", sort: "total", className: "text-right" },
          { label: "Tracking" },
        ]}
        {...loaderData}
        empty="No orders match."
        emptyClassName="px-3 py-6 text-center text-slate-600"
      >
        {(row) => (
          <tr key={row.number} data-testid="order-row" data-number={row.number} className="hover:bg-slate-50">
            <td className={cellClass}>
              <Link
                to={`/admin/orders/${row.number}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                #{row.number}
              </Link>
              {row.isTest ? <TestOrderBadge className="ml-2" /> : null}
            </td>
            <td className={cellClass}>
              <When iso={row.createdAt} form="short" />
            </td>
            <td className={`${cellClass} whitespace-nowrap`}>{row.email}</td>
            <td className={cellClass}>{PAYMENT_METHOD_LABELS[row.paymentMethod] ?? row.paymentMethod}</td>
            <td className={cellClass}>
              <OrderStatusBadge status={row.status} />
              {row.status === "cancelled" && row.cancelReason ? (
                <span className="mt-1 block text-xs text-slate-600" data-testid="cancel-reason">
                  {row.cancelReason}
                </span>
              ) : null}
              {row.awaitingKeys > 0 ? (
                <span className="mt-1 block text-xs text-amber-800">
                  {row.awaitingKeys} key{row.awaitingKeys > 1 ? "s" : ""} to send
                </span>
              ) : null}
            </td>
            <td className={`${cellClass} text-right font-medium tabular-nums`}>
              {formatMoney(row.totalCents, row.currency)}
            </td>
            <td className={`${cellClass} text-slate-700`}>{row.trackingNumber ?? "—"}</td>
          </tr>
        )}
      </ListRows>
    </AdminPage>
  );
}
