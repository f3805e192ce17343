import { createContext, useCallback, useContext } from "react";
import {
  type CataloguePrice,
  convertCents,
  type Currency,
  discountPercent,
  DEFAULT_CURRENCY,
  DEFAULT_INR_RATE,
  formatMoney,
  type InrRate,
  priceIn,
} from "./money";

/**
 * The shopper's currency and the store's rate, from the root loader (ADR 0039): catalogue prices (kept in dollars)
 * are shown in it, worked out exactly as the server prices a cart, so the price on a card is the price charged.
 */
export type CurrencyChoice = { currency: Currency; rate: InrRate };

export const DEFAULT_CHOICE: CurrencyChoice = { currency: DEFAULT_CURRENCY, rate: DEFAULT_INR_RATE };

const CurrencyContext = createContext<CurrencyChoice>(DEFAULT_CHOICE);

export const CurrencyProvider = CurrencyContext.Provider;
export const useCurrency = () => useContext(CurrencyContext);

/** A catalogue amount (dollar cents) as the shopper reads it in their currency: `price(4999)` -> "₹4,175.00". */
export function usePrice(): (usdCents: number) => string {
  const { currency, rate } = useCurrency();
  return useCallback(
    (usdCents: number) => formatMoney(convertCents(usdCents, currency, rate), currency),
    [currency, rate],
  );
}

/**
 * A catalogue price (a product's or a variant's) as the shopper pays it: the price and the one before the discount in
 * their currency (the owner's own rupee price when set), the discount in percent, and the two written out.
 */
export function useCataloguePrice() {
  const { currency, rate } = useCurrency();
  return useCallback(
    (item: CataloguePrice) => {
      const { priceCents, originalPriceCents } = priceIn(item, currency, rate);
      return {
        price: formatMoney(priceCents, currency),
        original: formatMoney(originalPriceCents, currency),
        saving: formatMoney(originalPriceCents - priceCents, currency),
        discount: discountPercent(priceCents, originalPriceCents),
      };
    },
    [currency, rate],
  );
}
