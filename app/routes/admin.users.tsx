import { data, Link } from "react-router";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  cellClass,
  HeadCell,
  ListSearch,
  ListTable,
  Pagination,
  SortHeader,
} from "~/modules/admin/components/list-controls";
import { When } from "~/modules/admin/components/orders-parts";
import { UserFlags } from "~/modules/admin/components/users-parts";
import { listUsers, userListQuery } from "~/modules/admin/users.server";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.users";

/** Every account (the spec's _user list), a page at a time: searched and sorted through the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = await loadAdminList(
    { request, context },
    { query: userListQuery, load: listUsers },
  );
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return data(
    {
      query,
      total: page.total,
      rows: page.rows.map((row) => ({
        ...row,
        lastLogin: iso(row.lastLogin),
        lastLogout: iso(row.lastLogout),
        timestamp: iso(row.timestamp),
        createdAt: row.createdAt.toISOString(),
      })),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Users · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { query, rows, total } = loaderData;
  const sortProps = { sort: query.sort, dir: query.dir };
  return (
    <AdminPage
      title="Users"
      intro="Customer and admin accounts, with their activity and orders. Times are UTC."
    >
      <ListSearch label="Search users" placeholder="Name or e-mail address" />
      <ListTable
        caption="Users"
        head={
          <>
            <SortHeader column="name" label="Name" {...sortProps} />
            <SortHeader column="email" label="E-mail" {...sortProps} />
            <SortHeader column="role" label="Role" {...sortProps} />
            <SortHeader column="status" label="Status" {...sortProps} />
            <SortHeader column="lastLogin" label="Last login / logout" {...sortProps} />
            <HeadCell className="text-right">Orders</HeadCell>
            <SortHeader column="created" label="Joined" {...sortProps} />
          </>
        }
      >
        {rows.length === 0 ? (
          <tr>
            <td colSpan={7} className="px-3 py-6 text-center text-slate-600">
              No users match.
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={row.id} data-testid="user-row" data-email={row.email} className="hover:bg-slate-50">
              <td className={cellClass}>
                <Link to={`/admin/users/${row.id}`} className="font-semibold text-brand-700 hover:underline">
                  {row.name || "(no name)"}
                </Link>
              </td>
              <td className={cellClass}>
                <span className="whitespace-nowrap">{row.email}</span>
                <UserFlags emailVerified={row.emailVerified} banned={row.banned ?? false} />
              </td>
              <td className={cellClass} data-testid="user-role">
                {row.role === "admin" ? (
                  <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-900">
                    Admin
                  </span>
                ) : (
                  "Customer"
                )}
              </td>
              <td className={cellClass}>
                <span className={row.status === "Active" ? "font-medium text-emerald-800" : "text-slate-600"}>
                  {row.status}
                </span>
              </td>
              <td className={cellClass}>
                <span className="block">
                  <span className="text-slate-600">in </span>
                  <When iso={row.lastLogin} form="short" />
                </span>
                <span className="block">
                  <span className="text-slate-600">out </span>
                  <When iso={row.lastLogout} form="short" />
                </span>
              </td>
              <td className={`${cellClass} text-right tabular-nums`} data-testid="user-order-count">
                {row.orders}
              </td>
              <td className={cellClass}>
                <When iso={row.createdAt} form="date" />
              </td>
            </tr>
          ))
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={total} />
    </AdminPage>
  );
}
