import { requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import type { Route } from "./+types/admin.seo";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function Page() {
  return <AdminPage title="Seo">Not built yet.</AdminPage>;
}
