import { data, Form, Link } from "react-router";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { AuditChanges } from "~/modules/admin/components/audit-changes";
import { cellClass, HeadCell, ListTable, Pagination } from "~/modules/admin/components/list-controls";
import { When } from "~/modules/admin/components/orders-parts";
import { auditListQuery, listAudit } from "~/modules/admin/audit.server";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.audit";

/** Every admin write, newest first, filtered through the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = await loadAdminList(
    { request, context },
    { query: auditListQuery, load: listAudit },
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
  { title: "Audit log · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

/** The admin page of a record, where there is one. */
function recordPath(entity: string, id: string): string | null {
  const encoded = encodeURIComponent(id);
  if (entity === "order" && /^\d+$/.test(id)) return `/admin/orders/${id}`;
  if (entity === "user") return `/admin/users/${encoded}`;
  if (entity === "product" && /^\d+$/.test(id)) return `/admin/products/${id}`;
  return null;
}

const filterLink = (params: Record<string, string>) =>
  `/admin/audit?${new URLSearchParams(params).toString()}`;

function Filters({ query }: { query: Route.ComponentProps["loaderData"]["query"] }) {
  const field = "mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm";
  const filtered = Boolean(query.q || query.actor || query.action || query.entity || query.entityId);
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter the audit log"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
    >
      <label className="text-sm font-medium text-ink-900">
        Search everything
        <input type="search" name="q" defaultValue={query.q} maxLength={200} className={field} />
      </label>
      <label className="text-sm font-medium text-ink-900">
        Who
        <input
          name="actor"
          defaultValue={query.actor}
          maxLength={200}
          placeholder="admin e-mail"
          className={field}
        />
      </label>
      <label className="text-sm font-medium text-ink-900">
        Action
        <input
          name="action"
          defaultValue={query.action}
          maxLength={200}
          placeholder="e.g. order.refund"
          className={field}
        />
      </label>
      <label className="text-sm font-medium text-ink-900">
        Entity
        <input
          name="entity"
          defaultValue={query.entity}
          maxLength={200}
          placeholder="order, user, product…"
          className={field}
        />
      </label>
      {query.entityId ? <input type="hidden" name="entityId" value={query.entityId} /> : null}
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Filter
        </button>
        {filtered ? (
          <Link
            to="/admin/audit"
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
          >
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { query, rows, total } = loaderData;
  return (
    <AdminPage
      title="Audit log"
      intro="Every change made in the admin area, newest first: who, what, when (UTC), before and after."
    >
      <Filters query={query} />
      {query.entityId ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="audit-record-filter">
          Showing {query.entity || "the record"} <span className="font-mono">{query.entityId}</span> only.{" "}
          <Link
            to={filterLink({ ...(query.entity ? { entity: query.entity } : {}) })}
            className="font-semibold text-brand-700 hover:underline"
          >
            Show every {query.entity || "record"}
          </Link>
        </p>
      ) : null}
      <ListTable
        caption="Audit log, newest first"
        head={
          <>
            <HeadCell>When</HeadCell>
            <HeadCell>Who</HeadCell>
            <HeadCell>Action</HeadCell>
            <HeadCell>Record</HeadCell>
            <HeadCell className="w-[40%]">Changes</HeadCell>
          </>
        }
      >
        {rows.length === 0 ? (
          <tr>
            <td colSpan={5} className="px-3 py-6 text-center text-slate-600">
              No entries match.
            </td>
          </tr>
        ) : (
          rows.map((row) => {
            const path = recordPath(row.entity, row.entityId);
            return (
              <tr key={row.id} data-testid="audit-row" data-action={row.action}>
                <td className={cellClass}>
                  <When iso={row.createdAt} form="short" />
                </td>
                <td className={`${cellClass} min-w-48 break-all`}>
                  <Link
                    to={filterLink({ actor: row.actor })}
                    className="hover:text-brand-700 hover:underline"
                  >
                    {row.actor}
                  </Link>
                </td>
                <td className={cellClass}>
                  <code className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs">
                    {row.action}
                  </code>
                </td>
                <td className={`${cellClass} break-all`}>
                  {row.entity}{" "}
                  {path ? (
                    <Link to={path} className="font-mono text-brand-700 hover:underline">
                      {row.entityId}
                    </Link>
                  ) : (
                    <span className="font-mono">{row.entityId}</span>
                  )}
                  <Link
                    to={filterLink({ entity: row.entity, entityId: row.entityId })}
                    className="mt-1 flex min-h-6 w-fit items-center text-xs text-slate-600 hover:text-brand-700 hover:underline"
                  >
                    History
                    <span className="sr-only">
                      {" "}
                      of {row.entity} {row.entityId}
                    </span>
                  </Link>
                </td>
                <td className={cellClass}>
                  <AuditChanges before={row.before} after={row.after} />
                </td>
              </tr>
            );
          })
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={total} />
    </AdminPage>
  );
}
