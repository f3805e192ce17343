import { useEffect } from "react";
import { useFetcher } from "react-router";
import type { LineKind } from "~db/schema/orders";
import type { CartLine } from "./cart";

/** What the server says a cart costs now (see routes/api.cart-quote.tsx). */
export type CartQuote = {
  lines: Array<{
    groupKey: string;
    id: string;
    name: string;
    img: string;
    route: string;
    brandName: string;
    kind: LineKind;
    unitPriceCents: number;
    quantity: number;
    lineTotalCents: number;
    previousPriceCents?: number;
  }>;
  unavailable: Array<{ groupKey: string; id: string; name: string; quantity: number }>;
  subtotalCents: number;
  itemCount: number;
  hasPhysical: boolean;
  shippingCents: number;
  totalCents: number;
  freeShippingThresholdCents: number;
};

/** Prices the browser's cart on the server whenever it changes. */
export function useCartQuote(lines: CartLine[]): { quote: CartQuote | undefined; loading: boolean } {
  const fetcher = useFetcher<CartQuote>({ key: "cart-quote" });
  const body = JSON.stringify({
    lines: lines.map(({ groupKey, id, quantity, priceCents, name }) => ({
      groupKey,
      id,
      quantity,
      priceCents,
      name,
    })),
  });
  const { submit } = fetcher;
  useEffect(() => {
    void submit(body, { method: "post", action: "/api/cart/quote", encType: "application/json" });
  }, [body, submit]);
  return { quote: fetcher.data, loading: fetcher.state !== "idle" || fetcher.data === undefined };
}
