import { redirect } from "react-router";
import type { Route } from "./+types/user.guarded";

// The customer area needs a signed-in customer; sign-in sends them back to the page they asked for.
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  throw redirect(`/user/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

export default function Guarded() {
  return null;
}
