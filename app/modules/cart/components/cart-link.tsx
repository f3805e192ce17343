import { Link } from "react-router";
import { itemCount } from "../cart";
import { useCart } from "../cart-store";

/** The header's cart link with the number of items, on every page. */
export function CartLink() {
  const count = itemCount(useCart());
  return (
    <Link
      to="/cart"
      className="relative inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-ink-900 hover:bg-slate-50"
      data-testid="cart-link"
    >
      <svg
        aria-hidden="true"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="9" cy="21" r="1" />
        <circle cx="20" cy="21" r="1" />
        <path d="M1 1h4l2.7 13.4a2 2 0 0 0 2 1.6h9.7a2 2 0 0 0 2-1.6L23 6H6" />
      </svg>
      <span>Cart</span>
      <span
        className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white"
        data-testid="cart-count"
        aria-label={`${count} ${count === 1 ? "item" : "items"} in cart`}
      >
        {count}
      </span>
    </Link>
  );
}
