import { data } from "react-router";
import { z } from "zod";
import { clientAddress } from "~/lib/client-address";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { regionCodeOf } from "~/lib/regions";
import { parseCartRequest } from "~/modules/cart/cart";
import { discountCodeSchema } from "~/modules/cart/discount-code";
import { priceForCheckout, type TaxPlace } from "~/modules/orders/checkout-pricing.server";
import { limitCodeGuesses } from "~/modules/orders/code-guesses.server";
import { getSettings, inrRateOf } from "~/modules/orders/settings.server";
import { currencyOfCookieHeader } from "~/lib/currency";
import { convertCents, CURRENCIES } from "~/lib/money";
import type { Route } from "./+types/api.cart-quote";

const place = z
  .object({
    country: z.string().max(2, "A country is a two-letter code"),
    region: z.string().max(100, "A state or region is at most 100 characters").optional().default(""),
  })
  .optional();

const quoteRequest = z.object({
  lines: z.array(z.unknown(), "The cart must be a list of lines"),
  code: z.preprocess((value) => value ?? "", discountCodeSchema),
  /** The checkout's addresses as typed: billing, and shipping when it differs. */
  billing: place,
  shipping: place,
  /** What to price it in; the shopper's cookie decides when it is not given. */
  currency: z.enum(CURRENCIES, "The currency must be USD or INR").optional(),
});

/**
 * POST {lines, code?, billing?, shipping?, currency?} -> the cart priced (in the currency asked for, else the
 * shopper's cookie's) from the catalogue now, with shipping, the discount
 * code and the taxes of the address it is taxed at (printers and routers: where they ship; else the billing one).
 * A client that has sent too many codes that are not valid gets 429 with Retry-After, and the reason as both `error`
 * and `codeProblem` (what the discount code field shows).
 */
export async function action({ request, context }: Route.ActionArgs) {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return data({ error: "The body must be JSON" }, { status: 400 });
  }
  const parsed = quoteRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    const message =
      field === "code" || field === "billing" || field === "shipping" || field === "currency"
        ? issue!.message
        : 'The body must be {"lines": [...]}';
    return data({ error: message }, { status: 400 });
  }
  // An empty cart costs nothing; any line must be one the store can sell as it stands.
  const cart =
    parsed.data.lines.length === 0 ? { ok: true as const, lines: [] } : parseCartRequest(parsed.data.lines);
  if (!cart.ok) return data({ error: cart.message }, { status: 400 });
  const taxPlace = (typed: { country: string; region: string } | undefined): TaxPlace | null =>
    typed ? { country: typed.country, region: regionCodeOf(typed.country, typed.region) ?? "" } : null;
  // Which address taxes the cart depends on what is in it: priced once with each, when both are given.
  const billing = taxPlace(parsed.data.billing);
  const shipping = taxPlace(parsed.data.shipping);
  const code = parsed.data.code;
  const currency = parsed.data.currency ?? currencyOfCookieHeader(request.headers.get("Cookie"));
  const [checked, store] = await Promise.all([
    limitCodeGuesses(
      context.db,
      clientAddress(request),
      code,
      async () => {
        const first = await priceForCheckout(context.db, cart.lines, { code, place: billing, currency });
        return first.hasPhysical && shipping
          ? await priceForCheckout(context.db, cart.lines, { code, place: shipping, currency })
          : first;
      },
      (priced) => priced.codeNotValid,
    ),
    getSettings(context.db),
  ]);
  if (!checked.ok)
    return Response.json(
      { error: checked.message, codeProblem: checked.message },
      { status: 429, headers: retryAfterHeaders(checked.retryAfterSeconds) },
    );
  const { promotion: _promotion, codeNotValid: _codeNotValid, ...quote } = checked.result;
  return Response.json({
    ...quote,
    lines: quote.lines.map(({ productId: _productId, ...line }) => line),
    freeShippingThresholdCents: convertCents(store.freeShippingThresholdCents, currency, inrRateOf(store)),
    waitingOrderHours: store.waitingOrderHours,
    lowStockThreshold: store.lowStockThreshold,
  });
}
