import { data } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { roleFromName } from "~/modules/accounts/staff-roles";
import { StaffScreen } from "~/modules/admin/components/staff-screen";
import { parseActionForm } from "~/modules/admin/form-actions.server";
import { staffActionForm } from "~/modules/admin/staff-schemas";
import { changeStaffRole, inviteStaff, listStaff, removeStaff } from "~/modules/admin/staff.server";
import type { Route } from "./+types/admin.staff";

/** /admin/staff: the owner invites staff, changes their roles and takes them off the staff (ADR 0037). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const staff = await listStaff(context.db);
  return data(
    {
      self: viewer.id,
      staff: staff.map((row) => ({ ...row, lastLogin: row.lastLogin?.toISOString() ?? null })),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Staff · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const parsed = await parseActionForm(request, staffActionForm);
  if (!parsed.ok) return parsed.response;
  const form = parsed.form;
  const owner = { id: viewer.id, email: viewer.email };
  const result =
    form.intent === "invite"
      ? await inviteStaff(context, { email: form.email, role: roleFromName(form.role)! }, owner)
      : form.intent === "role"
        ? await changeStaffRole(context.db, form.id, roleFromName(form.role)!, owner)
        : await removeStaff(context.db, form.id, owner);
  return data<ActionReply>(
    {
      ok: result.ok,
      intent: form.intent,
      message: result.message,
      ...(form.intent === "invite" && !result.ok ? { values: { email: form.email, role: form.role } } : {}),
    },
    { status: result.ok ? 200 : result.status, headers: PRIVATE_HEADERS },
  );
}

export default function AdminStaff({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <StaffScreen
      staff={loaderData.staff}
      self={loaderData.self}
      reply={actionData as ActionReply | undefined}
    />
  );
}
