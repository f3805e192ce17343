import { Link } from "react-router";
import { isStaffRole, ROLE_LABELS } from "~/modules/accounts/staff-roles";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { cellClass, ListRows, ListSearch } from "~/modules/admin/components/list-controls";
import { When } from "~/modules/admin/components/orders-parts";
import { UserFlags } from "~/modules/admin/components/users-parts";
import { listUsers, userListQuery } from "~/modules/admin/users.server";
import { loadAdminRows } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.users";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Every account (the spec's _user list), a page at a time: searched and sorted through the URL. */
export const loader = (args: Route.LoaderArgs) =>
  loadAdminRows(args, {
    query: userListQuery,
    load: listUsers,
    row: (row) => ({
      ...row,
      lastLogin: iso(row.lastLogin),
      lastLogout: iso(row.lastLogout),
      timestamp: iso(row.timestamp),
      createdAt: row.createdAt.toISOString(),
    }),
  });

export const meta: Route.MetaFunction = () => [
  { title: "Users · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage
      title="Users"
      intro="Customer and admin accounts, with their activity and orders. Times are UTC."
    >
      <ListSearch label="Search users" placeholder="Name or e-mail address" />
      <ListRows
        caption="Users"
        columns={[
          { label: "Name", sort: "name" },
          { label: "E-mail", sort: "email" },
          { label: "Role", sort: "role" },
          { label: "Status", sort: "status" },
          { label: "Last login / logout", sort: "lastLogin" },
          { label: "Orders", className: "text-right" },
          { label: "Joined", sort: "created" },
        ]}
        {...loaderData}
        empty="No users match."
        emptyClassName="px-3 py-6 text-center text-slate-600"
      >
        {(row) => (
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
              {isStaffRole(row.role) ? (
                <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-900">
                  {ROLE_LABELS[row.role]}
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
        )}
      </ListRows>
    </AdminPage>
  );
}
