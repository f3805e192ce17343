import { useEffect, useState } from "react";
import type { PricedCart, PricedLine } from "./pricing.server";
import { type CartLine, isOrderable } from "./cart";

/** What the server says a cart costs now (see routes/api.cart-quote.tsx). */
export type CartQuote = Omit<PricedCart, "lines"> & {
  lines: Array<Omit<PricedLine, "productId">>;
  shippingCents: number;
  totalCents: number;
  freeShippingThresholdCents: number;
  /** Keys of a waiting order are sent within this many hours. */
  waitingOrderHours: number;
};

const EMPTY_QUOTE: CartQuote = {
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
};

/**
 * Prices the browser's cart on the server whenever it changes; the newest answer wins. A plain request rather
 * than a form submission, so nothing else on the page reloads. Lines whose quantity the store cannot accept are
 * left out (the page shows them for the shopper to fix) and make the cart not ready to order.
 */
export function useCartQuote(lines: CartLine[]): {
  quote: CartQuote | undefined;
  failed: boolean;
  /** Lines to fix before checking out: their quantity is not one the store accepts. */
  toFix: CartLine[];
} {
  const orderable = lines.filter(isOrderable);
  const toFix = lines.filter((line) => !isOrderable(line));
  const body = JSON.stringify({
    lines: orderable.map(({ groupKey, id, quantity, priceCents, name }) => ({
      groupKey,
      id,
      quantity,
      priceCents,
      name,
    })),
  });
  const [answer, setAnswer] = useState<{ body: string; quote?: CartQuote; failed?: boolean } | null>(null);
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
        if (!response.ok) throw new Error(`The cart could not be priced (${response.status})`);
        setAnswer({ body, quote: (await response.json()) as CartQuote });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setAnswer({ body, failed: true });
      });
    return () => controller.abort();
  }, [body, empty]);
  if (empty) return { quote: EMPTY_QUOTE, failed: false, toFix };
  // Until the answer for this very cart arrives, show the last one (or nothing yet).
  return { quote: answer?.quote, failed: answer?.body === body && answer.failed === true, toFix };
}
