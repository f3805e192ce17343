import { Form, Link } from "react-router";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { AuditChanges } from "~/modules/admin/components/audit-changes";
import { cellClass, ListRows } from "~/modules/admin/components/list-controls";
import { When } from "~/modules/admin/components/orders-parts";
import { auditListQuery, listAudit } from "~/modules/admin/audit.server";
import { loadAdminRows } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.audit";

/** Every admin write, newest first, filtered through the URL. */
export const loader = (args: Route.LoaderArgs) =>
  loadAdminRows(args, {
    query: auditListQuery,
    load: listAudit,
    row: (row) => ({ ...row, createdAt: row.createdAt.toISOString() }),
  });

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

/** The filters that narrow the log to one admin, one kind of action or one kind of record. */
const FILTER_FIELDS = [
  { name: "actor", label: "Who", placeholder: "admin e-mail" },
  { name: "action", label: "Action", placeholder: "e.g. order.refund" },
  { name: "entity", label: "Entity", placeholder: "order, user, product…" },
] as const;

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
      {FILTER_FIELDS.map(({ name, label, placeholder }) => (
        <label key={name} className="text-sm font-medium text-ink-900">
          {label}
          <input
            name={name}
            defaultValue={query[name]}
            maxLength={200}
            placeholder={placeholder}
            className={field}
          />
        </label>
      ))}
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
  const { query } = loaderData;
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
      <ListRows
        caption="Audit log, newest first"
        columns={[
          { label: "When" },
          { label: "Who" },
          { label: "Action" },
          { label: "Record" },
          { label: "Changes", className: "w-[40%]" },
        ]}
        {...loaderData}
        empty="No entries match."
        emptyClassName="px-3 py-6 text-center text-slate-600"
      >
        {(row) => {
          const path = recordPath(row.entity, row.entityId);
          return (
            <tr key={row.id} data-testid="audit-row" data-action={row.action}>
              <td className={cellClass}>
                <When iso={row.createdAt} form="short" />
              </td>
              <td className={`${cellClass} min-w-48 break-all`}>
                <Link to={filterLink({ actor: row.actor })} className="hover:text-brand-700 hover:underline">
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
        }}
      </ListRows>
    </AdminPage>
  );
}
