import { data } from "react-router";
import { currencyOfCookieHeader } from "~/lib/currency";
import { CURRENCIES, isCurrency } from "~/lib/money";
import { requireUserApi } from "~/modules/accounts/session.server";
import { saveCart } from "~/modules/orders/saved-carts.server";
import type { Route } from "./+types/api.cart-saved";

/**
 * A signed-in customer's browser tells the store what is in its cart (`{ "lines": [...], "currency": "INR" }`; an
 * empty list deletes it; without a currency, the cookie's), for the saved-cart reminder. Only the customer's own
 * cart: the session says whose. A guest gets a 401.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ ok: false, message: "POST only" }, { status: 405 });
  const viewer = await requireUserApi(request, context);
  let body: { lines?: unknown; currency?: unknown } | null;
  try {
    body = (await request.json()) as typeof body;
  } catch {
    body = null;
  }
  const currency =
    body?.currency === undefined ? currencyOfCookieHeader(request.headers.get("Cookie")) : body.currency;
  const saved = isCurrency(currency)
    ? await saveCart(context.db, viewer.id, body?.lines, currency)
    : ({ ok: false, message: `The currency must be one of ${CURRENCIES.join(", ")}.` } as const);
  if (!saved.ok) return data(saved, { status: 400, headers: { "Cache-Control": "no-store" } });
  return data(saved, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return data({ ok: false, message: "POST the cart's lines" }, { status: 405, headers: { Allow: "POST" } });
}
