import { placeholderSvg, isPlaceholderKind } from "~/modules/content/placeholder";
import { placeholderPng } from "~/modules/content/placeholder-raster.server";
import type { Route } from "./+types/placeholder";

const headers = (type: string) => ({
  "Content-Type": type,
  "Cache-Control": "public, max-age=86400",
  "X-Content-Type-Options": "nosniff",
});

export async function loader({ params, context }: Route.LoaderArgs) {
  const name = params.name ?? "";
  const file = /^([a-z0-9][a-z0-9-]{0,120})\.(svg|png)$/.exec(name);
  if (!isPlaceholderKind(params.kind) || !file) return new Response("Not found", { status: 404 });
  if (file[2] === "svg") {
    return new Response(placeholderSvg(params.kind, name), {
      headers: headers("image/svg+xml; charset=utf-8"),
    });
  }
  const png = await placeholderPng(context.db, params.kind, file[1]!);
  if (!png) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(png), { headers: headers("image/png") });
}
