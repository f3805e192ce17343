import { useState } from "react";
import { useToast } from "~/ui/toast";
import { addToCart, MAX_QUANTITY, type ProductRef } from "../cart";
import { updateCart } from "../cart-store";

export function AddToCartButton({
  product,
  withQuantity = true,
}: {
  product: ProductRef;
  withQuantity?: boolean;
}) {
  const toast = useToast();
  const [quantity, setQuantity] = useState(1);
  return (
    <div className="flex flex-wrap items-end gap-3">
      {withQuantity ? (
        <div>
          <label htmlFor="add-quantity" className="block text-sm font-medium text-ink-800">
            Quantity
          </label>
          <input
            id="add-quantity"
            type="number"
            min={1}
            max={MAX_QUANTITY}
            value={quantity}
            onChange={(event) =>
              setQuantity(Math.max(1, Math.min(MAX_QUANTITY, Math.trunc(Number(event.target.value)) || 1)))
            }
            className="mt-1 w-20 rounded-lg border border-slate-300 px-3 py-2.5 text-sm"
            data-testid="add-quantity"
          />
        </div>
      ) : null}
      <button
        type="button"
        className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-6 py-3 text-base font-semibold text-white transition hover:bg-brand-800"
        data-testid="add-to-cart"
        onClick={() => {
          updateCart((lines) => addToCart(lines, product, quantity));
          toast({
            kind: "success",
            message: `${product.name} added to your cart.`,
            action: { label: "View cart", to: "/cart" },
          });
        }}
      >
        Add to cart
      </button>
    </div>
  );
}
