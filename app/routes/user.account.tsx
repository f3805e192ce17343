import { data } from "react-router";
import { AccountSettings } from "~/modules/accounts/components/account-settings";
import { AccountShell } from "~/modules/accounts/components/account-shell";
import { listDeviceSessions, selfServiceAction } from "~/modules/accounts/self-service.server";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.account";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [sessions, seo] = await Promise.all([
    listDeviceSessions(context.db, viewer.id, viewer.sessionId),
    seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "Account settings",
        description: "Your name, e-mail address, password and sessions.",
      },
    }),
  ]);
  return data({ name: viewer.name, email: viewer.email, sessions, seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const result = await selfServiceAction(context, request, viewer, {
    callbackURL: "/user/account",
    allowDelete: true,
    afterDelete: "/",
  });
  return result;
}

export default function AccountSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountShell
      title="Account settings"
      intro="Your name, e-mail address, password and where you are signed in."
      testId="account-settings"
    >
      <AccountSettings
        name={loaderData.name}
        email={loaderData.email}
        sessions={loaderData.sessions}
        reply={actionData}
        allowDelete
      />
    </AccountShell>
  );
}
