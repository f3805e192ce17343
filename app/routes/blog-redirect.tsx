import { redirect } from "react-router";
import { blogRedirectTarget } from "~/modules/content/blog";
import type { Route } from "./+types/blog-redirect";

// The blog lives on its own site: send the whole browser there, keeping the rest of the path and the query.
export function loader({ request, context }: Route.LoaderArgs) {
  return redirect(blogRedirectTarget(context.env.BLOG_URL, new URL(request.url)), 302);
}
