import { requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import type { Route } from "./+types/admin.products";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  return null;
}

export default function Page() {
  return <AdminPage title="Products">Not built yet.</AdminPage>;
}
