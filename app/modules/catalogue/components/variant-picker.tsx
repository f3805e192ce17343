import { Link } from "react-router";
import { useCataloguePrice } from "~/lib/currency-context";
import { termText, type VariantOption, variantPath } from "../variants";

/**
 * The ways a product is sold, as links to each one's own page (`?variant=SKU`): they work without JavaScript, and
 * each page carries its variant's price in its HTML. The chosen one is marked as the current page.
 */
export function VariantPicker({
  route,
  variants,
  selected,
  unknownSku,
}: {
  route: string;
  variants: VariantOption[];
  selected: VariantOption | null;
  /** The SKU the address asked for that the product does not sell, or null. */
  unknownSku: string | null;
}) {
  const price = useCataloguePrice();
  return (
    <div className="mt-4" data-testid="variant-picker">
      {unknownSku !== null ? (
        <p
          className="mb-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="unknown-variant"
        >
          {variants.length > 0
            ? `We do not sell the option "${unknownSku}" of this product (any more): choose one of those below.`
            : `We do not sell the option "${unknownSku}" of this product.`}
        </p>
      ) : null}
      {variants.length > 0 ? (
        <>
          <p id="variant-picker-heading" className="text-sm font-semibold text-ink-900">
            Choose an option
          </p>
          <ul aria-labelledby="variant-picker-heading" className="mt-2 grid gap-2 sm:grid-cols-2">
            {variants.map((variant) => {
              const current = variant.id === selected?.id;
              return (
                <li key={variant.id}>
                  <Link
                    to={variantPath(route, variant.sku)}
                    // Choosing another keeps the shopper where they are on the page.
                    preventScrollReset
                    replace
                    aria-current={current ? "true" : undefined}
                    className={`flex items-baseline justify-between gap-3 rounded-lg border px-3 py-2 text-sm ${
                      current
                        ? "border-brand-700 bg-brand-50 font-semibold text-ink-900 ring-1 ring-brand-700"
                        : "border-slate-300 bg-white text-slate-800 hover:border-brand-600"
                    }`}
                    data-testid="variant-option"
                    data-sku={variant.sku}
                  >
                    <span>
                      {variant.label}
                      <span className="block text-xs font-normal text-slate-600">
                        {termText(variant.termMonths)}
                      </span>
                    </span>
                    <span className="shrink-0">{price(variant).price}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </div>
  );
}
