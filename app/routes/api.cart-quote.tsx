import { data } from "react-router";
import { z } from "zod";
import { parseCartRequest } from "~/modules/cart/cart";
import { priceCart } from "~/modules/cart/pricing.server";
import { getSettings, shippingCost } from "~/modules/orders/settings.server";
import type { Route } from "./+types/api.cart-quote";

const quoteRequest = z.object({ lines: z.array(z.unknown(), "The cart must be a list of lines") });

/** POST {lines} -> the cart priced from the catalogue now, with shipping. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ error: "Use POST" }, { status: 405 });
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return data({ error: "The body must be JSON" }, { status: 400 });
  }
  const parsed = quoteRequest.safeParse(body);
  if (!parsed.success) return data({ error: 'The body must be {"lines": [...]}' }, { status: 400 });
  // An empty cart costs nothing; any line must be one the store can sell as it stands.
  const cart =
    parsed.data.lines.length === 0 ? { ok: true as const, lines: [] } : parseCartRequest(parsed.data.lines);
  if (!cart.ok) return data({ error: cart.message }, { status: 400 });
  const [priced, store] = await Promise.all([priceCart(context.db, cart.lines), getSettings(context.db)]);
  const shippingCents = shippingCost(store, priced.physicalSubtotalCents, priced.hasPhysical);
  return Response.json({
    ...priced,
    lines: priced.lines.map(({ productId: _productId, ...line }) => line),
    shippingCents,
    totalCents: priced.subtotalCents + shippingCents,
    freeShippingThresholdCents: store.freeShippingThresholdCents,
    waitingOrderHours: store.waitingOrderHours,
    lowStockThreshold: store.lowStockThreshold,
  });
}
