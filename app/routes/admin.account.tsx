import { data } from "react-router";
import { AccountSettings, PasswordForm } from "~/modules/accounts/components/account-settings";
import { listDeviceSessions, selfServiceAction } from "~/modules/accounts/self-service.server";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import type { Route } from "./+types/admin.account";

/** The signed-in admin's own account; an admin on admin:create's temporary password is sent here first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context, { temporaryPassword: true });
  const sessions = await listDeviceSessions(context.db, viewer.id, viewer.sessionId);
  return data(
    { name: viewer.name, email: viewer.email, temporary: viewer.mustChangePassword, sessions },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Your account · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context, { temporaryPassword: true });
  const result = await selfServiceAction(context, request, viewer, {
    callbackURL: "/admin/account",
    allowDelete: false,
    afterPassword: "/admin",
  });
  return result;
}

export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.temporary) {
    return (
      <div data-testid="admin-new-password">
        <h1 className="mb-4 text-2xl font-extrabold text-ink-900">Set your password</h1>
        <PasswordForm reply={actionData} temporary />
      </div>
    );
  }
  return (
    <AdminPage title="Your account">
      <AccountSettings
        name={loaderData.name}
        email={loaderData.email}
        sessions={loaderData.sessions}
        reply={actionData}
        allowDelete={false}
      />
    </AdminPage>
  );
}
