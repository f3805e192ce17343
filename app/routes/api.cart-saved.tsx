import { data } from "react-router";
import { requireUserApi } from "~/modules/accounts/session.server";
import { saveCart } from "~/modules/orders/saved-carts.server";
import type { Route } from "./+types/api.cart-saved";

/**
 * A signed-in customer's browser tells the store what is in its cart (`{ "lines": [...] }`; an empty list deletes
 * it), for the saved-cart reminder. Only the customer's own cart: the session says whose. A guest gets a 401.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ ok: false, message: "POST only" }, { status: 405 });
  const viewer = await requireUserApi(request, context);
  let lines: unknown;
  try {
    lines = ((await request.json()) as { lines?: unknown } | null)?.lines;
  } catch {
    lines = undefined;
  }
  const saved = await saveCart(context.db, viewer.id, lines);
  if (!saved.ok) return data(saved, { status: 400, headers: { "Cache-Control": "no-store" } });
  return data(saved, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return data({ ok: false, message: "POST the cart's lines" }, { status: 405, headers: { Allow: "POST" } });
}
