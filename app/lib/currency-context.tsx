import { createContext, useCallback, useContext } from "react";
import {
  convertCents,
  type Currency,
  DEFAULT_CURRENCY,
  DEFAULT_INR_RATE,
  formatMoney,
  type InrRate,
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

/** The difference of two catalogue amounts as the shopper reads it (each worked out first, as the prices shown). */
export function usePriceDifference(): (usdCents: number, lessUsdCents: number) => string {
  const { currency, rate } = useCurrency();
  return useCallback(
    (usdCents: number, lessUsdCents: number) =>
      formatMoney(
        convertCents(usdCents, currency, rate) - convertCents(lessUsdCents, currency, rate),
        currency,
      ),
    [currency, rate],
  );
}
