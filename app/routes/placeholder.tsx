import { placeholderSvg, isPlaceholderKind } from "~/modules/content/placeholder";
import type { Route } from "./+types/placeholder";

export function loader({ params }: Route.LoaderArgs) {
  const name = params.name ?? "";
  if (!isPlaceholderKind(params.kind) || !/^[a-z0-9][a-z0-9-]{0,120}\.svg$/.test(name)) {
    return new Response("Not found", { status: 404 });
  }
  return new Response(placeholderSvg(params.kind, name), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
