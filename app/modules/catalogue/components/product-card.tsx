import { PageLink } from "~/ui/page-link";
import { useCataloguePrice, useCurrency } from "~/lib/currency-context";
import type { ProductCard as ProductCardData } from "../catalogue.server";
import { cheapestVariant } from "../variants";
import { ProductImage } from "./product-image";
import { RatingLine } from "./stars";

/** A counted printer or router says when it is out of stock or running low (the only counts a card gets). */
function StockNote({ product }: { product: ProductCardData }) {
  if (product.stock === null) return null;
  const text =
    product.stock > 0
      ? `Only ${product.stock} left`
      : product.waitingOrders
        ? "Out of stock: can be ordered"
        : "Out of stock";
  return (
    <p
      className={`text-sm font-semibold ${product.stock > 0 ? "text-amber-800" : "text-red-800"}`}
      data-testid="card-stock"
    >
      {text}
    </p>
  );
}

export function ProductCard({ product }: { product: ProductCardData }) {
  // A product sold in variants costs what its variants cost: the cheapest in the shopper's currency, "From" it when
  // others cost more.
  const from = cheapestVariant(product.variantPrices, useCurrency());
  const shown = useCataloguePrice()(from?.variant ?? product);
  const { discount } = shown;
  return (
    <article
      className="group flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md"
      data-testid="product-card"
    >
      <PageLink to={product.route} className="block aspect-square overflow-hidden bg-slate-100">
        <ProductImage
          product={product}
          size={600}
          loading="lazy"
          className="h-full w-full object-cover transition group-hover:scale-[1.02]"
        />
      </PageLink>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{product.brandName}</p>
        <h3 className="font-semibold leading-snug text-ink-900">
          <PageLink to={product.route} className="hover:text-brand-700">
            {product.name}
          </PageLink>
        </h3>
        {product.rating ? (
          <RatingLine
            average={product.rating.average}
            count={product.rating.count}
            testId="card-rating"
            starWidth={64}
          />
        ) : null}
        <StockNote product={product} />
        <div className="mt-auto flex flex-wrap items-baseline gap-x-2 gap-y-1 pt-2">
          <span className="text-lg font-bold text-ink-900" data-testid="card-price">
            {from?.several ? <span className="text-sm font-semibold">From </span> : null}
            {shown.price}
          </span>
          {discount > 0 ? (
            <>
              {/* Screen readers do not announce strikethrough: the struck price says what it is in words. */}
              <span className="sr-only">Was </span>
              <s className="text-sm text-slate-500">{shown.original}</s>
              <span className="rounded bg-brand-100 px-1.5 py-0.5 text-xs font-semibold text-brand-800">
                {`−${discount}%`}
              </span>
            </>
          ) : null}
        </div>
      </div>
    </article>
  );
}
