import { useEffect } from "react";
import { useCurrency } from "~/lib/currency-context";
import { useCurrentUser } from "~/modules/accounts/components/account-provider";
import { isOrderable } from "../cart";
import { useCart } from "../cart-store";

/** What was last told, per account: the same cart is not posted again on every page. */
const TOLD = "cart-saved";
const lastTold = () => {
  try {
    return localStorage.getItem(TOLD);
  } catch {
    return null;
  }
};

/**
 * For a signed-in customer, tells the store what is in the cart a moment after it changes (an empty cart deletes
 * the saved one), and the currency they shop in: what the saved-cart reminder lists, and how it prices it. A visitor's cart stays in the browser alone.
 */
export function SavedCartSync() {
  const uid = useCurrentUser()?.uid;
  const lines = useCart();
  const { currency } = useCurrency();
  const body = JSON.stringify({
    currency,
    lines: lines
      .filter(isOrderable)
      .map(({ groupKey, id, variant, quantity }) => ({ groupKey, id, variant, quantity })),
  });
  useEffect(() => {
    if (!uid) return;
    const told = `${uid}:${body}`;
    if (lastTold() === told) return;
    const timer = setTimeout(() => {
      fetch("/api/cart/saved", { method: "POST", headers: { "content-type": "application/json" }, body })
        .then((response) => response.ok && localStorage.setItem(TOLD, told))
        .catch(() => undefined);
    }, 1500);
    return () => clearTimeout(timer);
  }, [uid, body]);
  return null;
}
