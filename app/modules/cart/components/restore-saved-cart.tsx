import { useEffect } from "react";
import { Link, useNavigate } from "react-router";
import { PageHeader } from "~/ui/page-header";
import { addToCart, type CartLine } from "../cart";
import { updateCart } from "../cart-store";

/**
 * Puts a saved cart's lines back in the browser's cart (a line already there keeps its quantity), then opens the
 * cart. Without JavaScript, or with nothing saved, the page says what to do.
 */
export function RestoreSavedCart({ lines }: { lines: CartLine[] }) {
  const navigate = useNavigate();
  useEffect(() => {
    if (lines.length === 0) return;
    updateCart((cart) =>
      lines.reduce(
        (next, line) =>
          next.some(
            (kept) => kept.groupKey === line.groupKey && kept.id === line.id && kept.variant === line.variant,
          )
            ? next
            : addToCart(next, line, line.quantity),
        cart,
      ),
    );
    void navigate("/cart", { replace: true });
  }, [lines, navigate]);
  return (
    <div>
      <PageHeader title="Your saved cart" />
      <section className="mx-auto max-w-md px-4 py-10" data-testid="saved-cart">
        <p className="text-slate-700" role="status">
          {lines.length > 0
            ? "Putting the items you left back in your cart…"
            : "Your saved cart is empty: it was ordered, emptied, or has nothing we still sell."}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/cart" className="font-semibold text-brand-700 hover:underline">
            Open your cart
          </Link>
        </p>
      </section>
    </div>
  );
}
