import type { ActionReply } from "~/lib/action-reply";
import {
  nameOfRole,
  ROLE_LABELS,
  ROLE_NAME_LIST,
  ROLE_NAMES,
  type StaffRole,
} from "~/modules/accounts/staff-roles";
import { buttonClass } from "~/ui/button";
import { SelectField, TextField } from "~/ui/field";
import { staffInviteForm, staffRemoveForm, staffRoleForm } from "../staff-schemas";
import { ActionNotice, AdminPage, Panel } from "./admin-page";
import { IntentForm } from "./intent-form";
import { When } from "./orders-parts";

type StaffRow = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  lastLogin: string | null;
  invited: boolean;
};

/** What each role may use, as the staff page explains it (the table itself is in staff-roles.ts). */
const ROLE_HINTS: Record<StaffRole, string> = {
  admin: "Everything, staff and settings included.",
  orders: "Orders, shipping, refunds, invoices and customers' messages.",
  content: "Catalogue, brand content, pages, SEO, banners, blogs and files.",
  support: "Customers, messages and e-mails.",
};

function RoleOptions() {
  return ROLE_NAME_LIST.map((name) => (
    <option key={name} value={name}>
      {ROLE_LABELS[ROLE_NAMES[name]]}
    </option>
  ));
}

function StaffCard({ row, self, reply }: { row: StaffRow; self: boolean; reply?: ActionReply }) {
  const errors = reply?.intent === "role" ? reply.errors : undefined;
  return (
    <li
      className="rounded-xl border border-slate-200 bg-white p-4"
      data-testid="staff-row"
      data-email={row.email}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="min-w-0 break-all font-semibold text-ink-900">{row.email}</p>
        <span
          className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-900"
          data-testid="staff-role"
        >
          {ROLE_LABELS[row.role]}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        {row.name}
        {" · "}
        {row.invited ? (
          "Has not chosen a password yet"
        ) : row.lastLogin ? (
          <>
            Last signed in <When iso={row.lastLogin} />
          </>
        ) : (
          "Never signed in"
        )}
      </p>
      {self ? (
        <p className="mt-3 text-sm text-slate-700">This is you: another owner changes your role.</p>
      ) : (
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <IntentForm intent="role" schema={staffRoleForm} serverErrors={errors} testId="staff-role-form">
            {(fieldErrors, busy) => (
              <div className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="id" value={row.id} />
                <SelectField
                  label="Role"
                  name="role"
                  defaultValue={nameOfRole(row.role)}
                  error={fieldErrors.role}
                >
                  <RoleOptions />
                </SelectField>
                <button type="submit" className={buttonClass("secondary")} disabled={busy}>
                  {busy ? "Saving…" : "Change role"}
                </button>
              </div>
            )}
          </IntentForm>
          <IntentForm intent="remove" schema={staffRemoveForm} testId="staff-remove-form">
            {(_errors, busy) => (
              <>
                <input type="hidden" name="id" value={row.id} />
                <button type="submit" className={buttonClass("danger")} disabled={busy}>
                  {busy ? "Removing…" : "Remove from staff"}
                </button>
              </>
            )}
          </IntentForm>
        </div>
      )}
    </li>
  );
}

export function StaffScreen({
  staff,
  self,
  reply,
}: {
  staff: StaffRow[];
  self: string;
  reply?: ActionReply;
}) {
  const inviteErrors = reply?.intent === "invite" ? reply.errors : undefined;
  return (
    <AdminPage
      title="Staff"
      intro="Who may use the admin area, and which parts. Each role sees only its own pages; every change is in the audit log."
    >
      <ActionNotice result={reply} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <ul className="space-y-3" data-testid="staff-list" aria-label="Staff">
          {staff.map((row) => (
            <StaffCard key={row.id} row={row} self={row.id === self} reply={reply} />
          ))}
        </ul>
        <div className="space-y-6">
          <Panel title="Invite a member of staff" testId="staff-invite">
            {/* A new form after each invitation sent, so the next one starts empty. */}
            <IntentForm
              key={reply?.ok && reply.intent === "invite" ? reply.message : "invite"}
              intent="invite"
              schema={staffInviteForm}
              serverErrors={inviteErrors}
              testId="staff-invite-form"
            >
              {(errors, busy) => (
                <>
                  <TextField
                    label="E-mail address"
                    name="email"
                    type="email"
                    autoComplete="off"
                    defaultValue={reply?.intent === "invite" ? reply.values?.email : undefined}
                    error={errors.email}
                  />
                  <SelectField label="Role" name="role" defaultValue="orders" error={errors.role}>
                    <RoleOptions />
                  </SelectField>
                  <button type="submit" className={buttonClass("primary")} disabled={busy}>
                    {busy ? "Inviting…" : "Send invitation"}
                  </button>
                </>
              )}
            </IntentForm>
            <p className="mt-3 text-sm text-slate-600">
              A new address gets an e-mail with a link to choose a password. An existing customer account is
              moved to the staff and keeps its password.
            </p>
          </Panel>
          <Panel title="Roles">
            <dl className="space-y-2 text-sm">
              {(Object.keys(ROLE_HINTS) as StaffRole[]).map((role) => (
                <div key={role}>
                  <dt className="font-semibold text-ink-900">{ROLE_LABELS[role]}</dt>
                  <dd className="text-slate-600">{ROLE_HINTS[role]}</dd>
                </div>
              ))}
            </dl>
          </Panel>
        </div>
      </div>
    </AdminPage>
  );
}
