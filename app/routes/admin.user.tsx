import { data, Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { isStaffRole, OWNER_ROLE, ROLE_LABELS, STAFF_ROLES } from "~/modules/accounts/staff-roles";
import { ActionNotice, AdminPage, Panel } from "~/modules/admin/components/admin-page";
import { AuditChanges } from "~/modules/admin/components/audit-changes";
import { OrderStatusBadge, When } from "~/modules/admin/components/orders-parts";
import { auditListQuery, listAudit } from "~/modules/admin/audit.server";
import { BAN_REASON_MAX, userActionForm, userBanForm, userRoleForm } from "~/modules/admin/users-schemas";
import {
  adminUser,
  banUser,
  isUserId,
  ordersOfUser,
  setUserRole,
  unbanUser,
} from "~/modules/admin/users.server";
import { SelectField, TextField } from "~/ui/field";
import type { ActionReply } from "~/lib/action-reply";
import { parseActionForm } from "~/modules/admin/form-actions.server";
import { IntentForm } from "~/modules/admin/components/intent-form";
import { buttonClass } from "~/ui/button";
import type { Route } from "./+types/admin.user";

const notFound = () =>
  data(
    { message: "There is no such user: the account may have been deleted." },
    { status: 404, headers: PRIVATE_HEADERS },
  );

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  if (!isUserId(params.id)) throw notFound();
  const found = await adminUser(context.db, params.id);
  if (!found) throw notFound();
  const [orderList, audit] = await Promise.all([
    ordersOfUser(context.db, found.id, 20),
    listAudit(context.db, auditListQuery.parse({ entity: "user", entityId: found.id, pageSize: "10" })),
  ]);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return data(
    {
      self: viewer.id === found.id,
      owner: viewer.role === OWNER_ROLE,
      user: {
        id: found.id,
        name: found.name,
        email: found.email,
        emailVerified: found.emailVerified,
        role: found.role ?? "user",
        banned: found.banned ?? false,
        banReason: found.banReason,
        status: found.status,
        lastLogin: iso(found.lastLogin),
        lastLogout: iso(found.lastLogout),
        timestamp: iso(found.timestamp),
        createdAt: found.createdAt.toISOString(),
      },
      orders: {
        total: orderList.total,
        rows: orderList.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      },
      audit: {
        total: audit.total,
        rows: audit.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
      },
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.user.email} · Store admin` : "User · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

type Reply = ActionReply;

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  if (!isUserId(params.id)) throw notFound();
  const parsed = await parseActionForm(request, userActionForm);
  if (!parsed.ok) return parsed.response;
  const form = parsed.form;
  // Roles, and anything done to a member of staff, are the owner's (ADR 0037): support bans customers only.
  if (form.intent === "role" || isStaffRole((await adminUser(context.db, params.id))?.role))
    await requireAdmin(request, context, { area: "owner" });
  const actor = { id: admin.id, email: admin.email };
  const result =
    form.intent === "role"
      ? await setUserRole(context.db, params.id, form.role, actor)
      : form.intent === "ban"
        ? await banUser(context.db, params.id, form.reason, actor)
        : await unbanUser(context.db, params.id, actor);
  if (!result.ok && result.status === 404) throw notFound();
  return data<Reply>(
    { ok: result.ok, intent: form.intent, message: result.message },
    result.ok ? 200 : result.status,
  );
}

export default function AdminUser({ loaderData, actionData }: Route.ComponentProps) {
  const { user, orders, audit, self, owner } = loaderData;
  const reply = actionData as Reply | undefined;
  const errorsFor = (intent: string) => (reply?.intent === intent ? reply.errors : undefined);
  return (
    <AdminPage
      title={user.name || user.email}
      intro={user.email}
      actions={
        <Link
          to="/admin/users"
          className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
        >
          All users
        </Link>
      }
    >
      <ActionNotice result={reply} />
      <div
        className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]"
        data-testid="admin-user"
      >
        <div className="space-y-6">
          <Panel title="Account">
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
              <dt className="text-slate-600">E-mail</dt>
              <dd className="break-all">{user.email}</dd>
              <dt className="text-slate-600">E-mail verified</dt>
              <dd>{user.emailVerified ? "Yes" : "No"}</dd>
              <dt className="text-slate-600">Role</dt>
              <dd data-testid="user-detail-role">
                {isStaffRole(user.role) ? ROLE_LABELS[user.role] : "Customer"}
              </dd>
              <dt className="text-slate-600">Status</dt>
              <dd>
                {user.status}
                {user.timestamp ? (
                  <span className="text-slate-600">
                    {" "}
                    since <When iso={user.timestamp} />
                  </span>
                ) : null}
              </dd>
              <dt className="text-slate-600">Last login</dt>
              <dd>
                <When iso={user.lastLogin} />
              </dd>
              <dt className="text-slate-600">Last logout</dt>
              <dd>
                <When iso={user.lastLogout} />
              </dd>
              <dt className="text-slate-600">Joined</dt>
              <dd>
                <When iso={user.createdAt} />
              </dd>
              <dt className="text-slate-600">Banned</dt>
              <dd data-testid="user-detail-banned">
                {user.banned ? `Yes: ${user.banReason ?? "no reason given"}` : "No"}
              </dd>
              <dt className="text-slate-600">User id</dt>
              <dd className="break-all font-mono text-xs">{user.id}</dd>
            </dl>
          </Panel>

          <Panel title={`Orders (${orders.total})`} testId="user-orders">
            {orders.rows.length === 0 ? (
              <p className="text-sm text-slate-600">No orders placed with this account.</p>
            ) : (
              <div className="overflow-x-auto">
                <table className="w-full text-sm">
                  <caption className="sr-only">Orders of {user.email}</caption>
                  <thead className="text-left text-slate-600">
                    <tr>
                      <th scope="col" className="py-2 pr-3 font-semibold">
                        Order
                      </th>
                      <th scope="col" className="px-3 py-2 font-semibold">
                        Placed
                      </th>
                      <th scope="col" className="px-3 py-2 font-semibold">
                        Status
                      </th>
                      <th scope="col" className="py-2 pl-3 text-right font-semibold">
                        Total
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {orders.rows.map((order) => (
                      <tr key={order.number} data-testid="user-order-row">
                        <td className="py-2 pr-3">
                          <Link
                            to={`/admin/orders/${order.number}`}
                            className="font-semibold text-brand-700 hover:underline"
                          >
                            #{order.number}
                          </Link>
                        </td>
                        <td className="px-3 py-2">
                          <When iso={order.createdAt} />
                        </td>
                        <td className="px-3 py-2">
                          <OrderStatusBadge status={order.status} />
                        </td>
                        <td className="py-2 pl-3 text-right tabular-nums">
                          {formatMoney(order.totalCents, order.currency)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <p className="mt-3 text-sm">
              <Link
                to={`/admin/orders?q=${encodeURIComponent(user.email)}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                All orders with this e-mail address
              </Link>{" "}
              <span className="text-slate-600">(guest orders included)</span>
            </p>
          </Panel>

          <Panel title="Recent changes by admins" testId="user-audit">
            {audit.rows.length === 0 ? (
              <p className="text-sm text-slate-600">No admin has changed this account.</p>
            ) : (
              <ol className="space-y-3">
                {audit.rows.map((entry) => (
                  <li key={entry.id} className="text-sm">
                    <p>
                      <span className="font-semibold">{entry.action}</span> by {entry.actor},{" "}
                      <When iso={entry.createdAt} />
                    </p>
                    <AuditChanges before={entry.before} after={entry.after} />
                  </li>
                ))}
              </ol>
            )}
            {audit.total > audit.rows.length ? (
              <p className="mt-3 text-sm">
                <Link
                  to={`/admin/audit?entity=user&entityId=${encodeURIComponent(user.id)}`}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  All {audit.total} entries
                </Link>
              </p>
            ) : null}
          </Panel>
        </div>

        <div className="space-y-6">
          <Panel title="Permissions" testId="role-card">
            {self ? (
              <p className="text-sm text-slate-700">
                This is your own account. You cannot change your own role: another owner can.
              </p>
            ) : !owner ? (
              <p className="text-sm text-slate-700">Only an owner changes roles.</p>
            ) : (
              <IntentForm
                intent="role"
                schema={userRoleForm}
                serverErrors={errorsFor("role")}
                testId="role-form"
              >
                {(errors, busy) => (
                  <>
                    <SelectField
                      label="Role"
                      name="role"
                      defaultValue={user.role}
                      error={errors.role}
                      hint="An owner can use every page of this admin area; staff only their role's pages."
                    >
                      <option value="user">Customer</option>
                      {STAFF_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                    </SelectField>
                    <button type="submit" className={buttonClass("primary")} disabled={busy}>
                      {busy ? "Saving…" : "Change role"}
                    </button>
                  </>
                )}
              </IntentForm>
            )}
          </Panel>

          <Panel title="Access" testId="ban-card">
            {self ? (
              <p className="text-sm text-slate-700">You cannot ban yourself.</p>
            ) : user.banned ? (
              <IntentForm
                intent="unban"
                schema={userActionForm}
                serverErrors={errorsFor("unban")}
                testId="unban-form"
              >
                {(_errors, busy) => (
                  <>
                    <p className="text-sm text-slate-700">
                      Banned: {user.banReason ?? "no reason given"}. They cannot sign in.
                    </p>
                    <button type="submit" className={buttonClass("primary")} disabled={busy}>
                      {busy ? "Saving…" : "Unban"}
                    </button>
                  </>
                )}
              </IntentForm>
            ) : (
              <IntentForm intent="ban" schema={userBanForm} serverErrors={errorsFor("ban")} testId="ban-form">
                {(errors, busy) => (
                  <>
                    <p className="text-sm text-slate-700">
                      A banned user is signed out everywhere at once and cannot sign in again until unbanned.
                      Their orders stay.
                    </p>
                    <TextField
                      label="Reason"
                      name="reason"
                      maxLength={BAN_REASON_MAX}
                      error={errors.reason}
                      hint="For the admins; kept in the audit log."
                    />
                    <button type="submit" className={buttonClass("danger")} disabled={busy}>
                      {busy ? "Banning…" : "Ban user"}
                    </button>
                  </>
                )}
              </IntentForm>
            )}
          </Panel>
        </div>
      </div>
    </AdminPage>
  );
}
