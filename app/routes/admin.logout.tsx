import { redirect } from "react-router";
import { getViewer } from "~/modules/accounts/session.server";
import { signOut } from "~/modules/accounts/sign-in.server";
import type { Route } from "./+types/admin.logout";

// Signing out is a post (a link or an image elsewhere cannot sign an admin out).
export function loader() {
  return redirect("/admin");
}

/** Admin logout: ends the session, and tells the browser to drop its local storage (the admin and cached lists). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await getViewer(request, context);
  const headers = await signOut(context, request, viewer?.id ?? null);
  headers.set("Clear-Site-Data", '"storage"');
  return redirect("/admin", { headers });
}
