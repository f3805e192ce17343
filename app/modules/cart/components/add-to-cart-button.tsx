import { useState } from "react";
import { useToast } from "~/ui/toast";
import { addToCart, MAX_QUANTITY, type ProductRef, quantityProblem, sameProduct } from "../cart";
import { updateCart, useCart } from "../cart-store";

/** Why this many cannot go into the cart, with what is in it already; null when they can. */
function addProblem(quantity: number, inCart: number, maxQuantity: number): string | null {
  const problem = quantityProblem(quantity);
  if (problem) return problem;
  if (inCart + quantity <= maxQuantity) return null;
  const limit =
    maxQuantity < MAX_QUANTITY
      ? `Only ${maxQuantity} can be ordered now`
      : `At most ${MAX_QUANTITY} of one product fit in an order`;
  return inCart > 0 ? `${limit}, and your cart has ${inCart} already` : limit;
}

export function AddToCartButton({
  product,
  maxQuantity = MAX_QUANTITY,
  withQuantity = true,
}: {
  product: ProductRef;
  /** The most one order may take now (from the server); 0: it cannot be ordered. */
  maxQuantity?: number;
  withQuantity?: boolean;
}) {
  const toast = useToast();
  const cart = useCart();
  // The quantity as typed: one the store cannot take is said beside the field, never changed behind the shopper.
  const [text, setText] = useState("1");
  const quantity = text.trim() === "" ? Number.NaN : Number(text);
  const inCart = cart.find((line) => sameProduct(line, product))?.quantity ?? 0;
  const problem = addProblem(quantity, Number.isFinite(inCart) ? inCart : 0, maxQuantity);
  if (maxQuantity === 0) {
    return (
      <button
        type="button"
        disabled
        className="inline-flex cursor-not-allowed items-center justify-center rounded-lg bg-slate-300 px-6 py-3 text-base font-semibold text-slate-700"
        data-testid="add-to-cart"
      >
        Unavailable
      </button>
    );
  }
  return (
    <div>
      <div className="flex flex-wrap items-end gap-3">
        {withQuantity ? (
          <div>
            <label htmlFor="add-quantity" className="block text-sm font-medium text-ink-800">
              Quantity
            </label>
            <input
              id="add-quantity"
              type="number"
              inputMode="numeric"
              min={1}
              max={maxQuantity}
              value={text}
              onChange={(event) => setText(event.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "add-quantity-problem" : undefined}
              className={`mt-1 w-20 rounded-lg border px-3 py-2.5 text-sm ${problem ? "border-red-500" : "border-slate-300"}`}
              data-testid="add-quantity"
            />
          </div>
        ) : null}
        <button
          type="button"
          disabled={problem !== null}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-6 py-3 text-base font-semibold text-white transition hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-brand-300"
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
      {problem ? (
        <p
          id="add-quantity-problem"
          className="mt-2 text-sm text-red-700"
          role="alert"
          data-testid="add-problem"
        >
          {problem}
        </p>
      ) : null}
    </div>
  );
}
