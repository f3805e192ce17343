import { data, Link, useSearchParams } from "react-router";
import { ORDER_STATUSES } from "~db/schema/orders";
import { formatMoney } from "~/lib/money";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { ExportLink } from "~/modules/admin/components/order-life";
import {
  cellClass,
  HeadCell,
  ListSearch,
  ListTable,
  Pagination,
  SortHeader,
} from "~/modules/admin/components/list-controls";
import {
  OrderStatusBadge,
  PAYMENT_METHOD_LABELS,
  TestOrderBadge,
  When,
} from "~/modules/admin/components/orders-parts";
import { listOrders, orderListQuery } from "~/modules/admin/orders.server";
import { ORDER_STATUS_LABELS } from "~/modules/orders/labels";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.orders";

/** Every order, a page at a time: searched, sorted and filtered by status through the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = await loadAdminList(
    { request, context },
    { query: orderListQuery, load: listOrders },
  );
  return data(
    {
      query,
      total: page.total,
      rows: page.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Orders · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

/** All, or one status: links that keep the search and sort and start again at page 1. */
function StatusFilter({ current }: { current: string | undefined }) {
  const [params] = useSearchParams();
  const to = (status: string | undefined) => {
    const next = new URLSearchParams(params);
    next.delete("page");
    if (status) next.set("status", status);
    else next.delete("status");
    const text = next.toString();
    return text ? `?${text}` : "?";
  };
  const options: Array<[string | undefined, string]> = [
    [undefined, "All"],
    ...ORDER_STATUSES.map((status): [string, string] => [status, ORDER_STATUS_LABELS[status] ?? status]),
  ];
  return (
    <nav aria-label="Order status" className="mt-4">
      <ul className="flex flex-wrap gap-2 text-sm">
        {options.map(([status, label]) => {
          const active = status === current;
          return (
            <li key={label}>
              <Link
                to={to(status)}
                aria-current={active ? "page" : undefined}
                className={`inline-block rounded-full border px-3 py-1 font-medium ${
                  active
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-slate-300 bg-white text-ink-900 hover:bg-slate-50"
                }`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { query, rows, total } = loaderData;
  const sortProps = { sort: query.sort, dir: query.dir };
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
      <StatusFilter current={query.status} />
      <ListTable
        caption={`Orders${query.status ? `: ${ORDER_STATUS_LABELS[query.status]}` : ""}`}
        head={
          <>
            <SortHeader column="number" label="Order" {...sortProps} />
            <SortHeader column="created" label="Placed" {...sortProps} />
            <SortHeader column="email" label="E-mail" {...sortProps} />
            <HeadCell>Payment</HeadCell>
            <SortHeader column="status" label="Status" {...sortProps} />
            <SortHeader column="total" label="Total" {...sortProps} className="text-right" />
            <HeadCell>Tracking</HeadCell>
          </>
        }
      >
        {rows.length === 0 ? (
          <tr>
            <td colSpan={7} className="px-3 py-6 text-center text-slate-600">
              No orders match.
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr
              key={row.number}
              data-testid="order-row"
              data-number={row.number}
              className="hover:bg-slate-50"
            >
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
                {formatMoney(row.totalCents)}
              </td>
              <td className={`${cellClass} text-slate-700`}>{row.trackingNumber ?? "—"}</td>
            </tr>
          ))
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={total} />
    </AdminPage>
  );
}
