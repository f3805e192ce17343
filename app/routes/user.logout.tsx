import { redirect } from "react-router";
import { getViewer } from "~/modules/accounts/session.server";
import { signOut } from "~/modules/accounts/sign-in.server";
import type { Route } from "./+types/user.logout";

// Signing out is a post (a link or an image elsewhere cannot sign anyone out).
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await getViewer(request, context);
  const headers = await signOut(context, request, viewer?.id ?? null);
  return redirect("/user/login", { headers });
}
