import { useEffect, useState } from "react";
import type { TaxAmount } from "~db/schema/orders";
import type { PricedCart, PricedLine } from "./pricing.server";
import type { LineResult } from "./pricing-math";
import { type CartLine, isOrderable } from "./cart";

/** What the server says a cart costs now (see routes/api.cart-quote.tsx). */
export type CartQuote = Omit<PricedCart, "lines"> & {
  lines: Array<Omit<PricedLine, "productId"> & LineResult & { discountEligible: boolean }>;
  shippingCents: number;
  totalCents: number;
  /** The code applied, or null; why the code asked for was refused, or null. */
  discount: { code: string } | null;
  codeProblem: string | null;
  discountCents: number;
  shippingDiscountCents: number;
  taxes: TaxAmount[];
  taxCents: number;
  pricesIncludeTax: boolean;
  /** Where no tax is charged, or what the address still needs; '' when taxes are shown. */
  taxNote: string;
  /** The country the printers and routers would ship to when the store does not ship there, else null. */
  noShippingTo: string | null;
  freeShippingThresholdCents: number;
  /** Keys of a waiting order are sent within this many hours. */
  waitingOrderHours: number;
  /** Printers and routers with this many or fewer left say "Only N left". */
  lowStockThreshold: number;
};

const EMPTY_QUOTE: CartQuote = {
  currency: "USD",
  lines: [],
  unavailable: [],
  subtotalCents: 0,
  physicalSubtotalCents: 0,
  itemCount: 0,
  hasPhysical: false,
  overStock: false,
  shippingCents: 0,
  totalCents: 0,
  freeShippingThresholdCents: 0,
  waitingOrderHours: 0,
  lowStockThreshold: 0,
  discount: null,
  codeProblem: null,
  discountCents: 0,
  shippingDiscountCents: 0,
  taxes: [],
  taxCents: 0,
  pricesIncludeTax: false,
  taxNote: "",
  noShippingTo: null,
};

/** The address a cart is taxed at, as far as the checkout form has it. */
export type QuotePlace = { country: string; region: string };

/**
 * Prices the browser's cart on the server whenever it changes; the newest answer wins. A plain request rather
 * than a form submission, so nothing else on the page reloads. Lines whose quantity the store cannot accept are
 * left out (the page shows them for the shopper to fix) and make the cart not ready to order. When pricing fails,
 * `problem` says why in words: the store's own answer when it refused the request, or that it could not be reached.
 */
export function useCartQuote(
  lines: CartLine[],
  extra: { code?: string; billing?: QuotePlace; shipping?: QuotePlace } = {},
): {
  quote: CartQuote | undefined;
  /** Whether `quote` is the answer for the cart and code as they are now, not the last one while a new one comes. */
  current: boolean;
  failed: boolean;
  /** Lines to fix before checking out: their quantity is not one the store accepts. */
  toFix: CartLine[];
  problem: string | null;
  /**
   * Why the store would not look at the discount code at all (too many tried): for the code's field, which then
   * drops the code so that the cart is priced without it.
   */
  codeProblem: string | null;
} {
  const orderable = lines.filter(isOrderable);
  const toFix = lines.filter((line) => !isOrderable(line));
  const body = JSON.stringify({
    lines: orderable.map(({ groupKey, id, variant, quantity, priceCents, name }) => ({
      groupKey,
      id,
      variant,
      quantity,
      priceCents,
      name,
    })),
    code: extra.code || undefined,
    billing: extra.billing,
    shipping: extra.shipping,
  });
  const [answer, setAnswer] = useState<{
    body: string;
    quote?: CartQuote;
    problem?: string;
    codeProblem?: string;
  } | null>(null);
  const empty = orderable.length === 0;
  useEffect(() => {
    if (empty) return;
    const controller = new AbortController();
    fetch("/api/cart/quote", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      signal: controller.signal,
    })
      .then(async (response) => {
        if (response.status === 429) {
          const said = (await response
            .clone()
            .json()
            .catch(() => ({}))) as { codeProblem?: unknown };
          if (typeof said.codeProblem === "string") return setAnswer({ body, codeProblem: said.codeProblem });
        }
        if (!response.ok) {
          const problem = await refusal(response);
          console.error(`The cart could not be priced (${response.status}): ${problem}`);
          setAnswer({ body, problem });
          return;
        }
        setAnswer({ body, quote: (await response.json()) as CartQuote });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setAnswer({ body, problem: UNREACHABLE });
      });
    return () => controller.abort();
  }, [body, empty]);
  if (empty)
    return { quote: EMPTY_QUOTE, current: true, failed: false, toFix, problem: null, codeProblem: null };
  // Until the answer for this very cart arrives, show the last one (or nothing yet).
  const current = answer?.body === body;
  const problem = current ? (answer.problem ?? null) : null;
  return {
    quote: answer?.quote,
    current: current && answer.quote !== undefined,
    failed: problem !== null,
    toFix,
    problem,
    codeProblem: current ? (answer.codeProblem ?? null) : null,
  };
}

const UNREACHABLE =
  "We could not reach the store to check today's prices. Check your connection and reload the page.";

/** What the store said when it refused to price the cart, for the shopper. */
async function refusal(response: Response): Promise<string> {
  if (response.status >= 500) {
    return "The store could not check today's prices (a problem on our side). Please reload the page in a moment.";
  }
  const text = (await response.text().catch(() => "")).trim();
  let said = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    said = typeof parsed.error === "string" ? parsed.error : "";
  } catch {
    // Not JSON: the server's words as plain text.
  }
  return said && said.length <= 500
    ? `We could not check today's prices: ${said}`
    : `We could not check today's prices (the store answered ${response.status}). Please reload the page.`;
}
