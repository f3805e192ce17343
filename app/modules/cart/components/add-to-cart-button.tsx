// Temporary stub: the cart engineer's real AddToCartButton replaces this file at merge.
export function AddToCartButton({ product }: { product: { groupKey: string; id: string; name: string } }) {
  return (
    <button
      type="button"
      data-testid="add-to-cart"
      data-product-group={product.groupKey}
      data-product-id={product.id}
      className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white transition hover:bg-brand-700"
    >
      Add to cart
    </button>
  );
}
