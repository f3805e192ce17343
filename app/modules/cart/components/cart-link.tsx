import { Link } from "react-router";
import { itemCount } from "../cart";
import { useCart } from "../cart-store";
import { Icon } from "~/ui/icon";

/** The header's cart link with the number of items, on every page. */
export function CartLink() {
  const count = itemCount(useCart());
  return (
    <Link
      to="/cart"
      className="relative inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-ink-900 hover:bg-slate-50"
      data-testid="cart-link"
      // The count alone would be read as a bare number; a span may not carry a label of its own.
      aria-label={`Cart, ${count} ${count === 1 ? "item" : "items"}`}
    >
      <Icon name="cart" size={20} />
      <span>Cart</span>
      <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white" data-testid="cart-count">
        {count}
      </span>
    </Link>
  );
}
