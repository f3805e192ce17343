import { useMemo } from "react";
import { storedValue, useStoredValue } from "~/lib/stored-value";
import { type CartLine, sanitizeCart } from "./cart";

const EMPTY: unknown[] = [];

/** The cart, in local storage under `cart`: saved on every change, the same in every tab. */
export const cartStore = storedValue<unknown[]>(
  "cart",
  EMPTY,
  (value): value is unknown[] => Array.isArray(value),
  "Stored cart is not an array; using an empty cart",
);

export function useCart(): CartLine[] {
  const raw = useStoredValue(cartStore, EMPTY);
  return useMemo(() => sanitizeCart(raw), [raw]);
}

export function updateCart(change: (lines: CartLine[]) => CartLine[]) {
  cartStore.set((raw) => change(sanitizeCart(raw)));
}

/** The discount code applied to the cart, kept with it in local storage under `cart-code` ('' for none). */
export const discountCodeStore = storedValue<string>(
  "cart-code",
  "",
  (value): value is string => typeof value === "string" && value.length <= 100,
  "Stored discount code is not a code; using none",
);

export function useDiscountCode(): string {
  return useStoredValue(discountCodeStore, "");
}
