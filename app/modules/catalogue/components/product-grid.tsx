import type { ProductCard as ProductCardData } from "../catalogue.server";
import { ProductCard } from "./product-card";

/** Product cards in a responsive grid: two across on phones, up to four on wide screens. */
export function ProductGrid({
  products,
  empty = "No products here at the moment.",
}: {
  products: ProductCardData[];
  empty?: React.ReactNode;
}) {
  if (products.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
        {empty}
      </p>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-4 sm:gap-6 md:grid-cols-3 lg:grid-cols-4" data-testid="product-grid">
      {products.map((product) => (
        <li key={product.id} className="grid">
          <ProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}
