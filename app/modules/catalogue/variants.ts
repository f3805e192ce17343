import type { ProductVariant } from "~db/schema/catalogue";
import type { CurrencyChoice } from "~/lib/currency-context";
import { type CataloguePrice, unitPriceIn } from "~/lib/money";

/** A variant as the shop shows and sells it. */
export type VariantOption = Pick<
  ProductVariant,
  "id" | "sku" | "label" | "priceCents" | "originalPriceCents" | "inrPriceCents" | "termMonths"
>;

/** How long a variant's keys last, as a shopper reads it: "1 year", "18 months", "Perpetual". */
export function termText(months: number | null): string {
  if (months === null) return "Perpetual";
  if (months % 12 === 0) return months === 12 ? "1 year" : `${months / 12} years`;
  return months === 1 ? "1 month" : `${months} months`;
}

/** The variant a SKU names, in any case (SKUs are unique store-wide regardless of case), or undefined. */
export const variantWithSku = <T extends { sku: string }>(variants: T[], sku: string): T | undefined =>
  variants.find((variant) => variant.sku.toLowerCase() === sku.toLowerCase());

/** A product's name with the variant bought, as lines and messages say it: "Norton 360 (1 device, 1 year)". */
export const nameWithVariant = (name: string, variantLabel: string | null | undefined) =>
  variantLabel ? `${name} (${variantLabel})` : name;

/** The page of a product with a variant chosen: each variant has its own address (and price in its HTML). */
export const variantPath = (route: string, sku: string | null | undefined) =>
  sku ? `${route}?variant=${encodeURIComponent(sku)}` : route;

/**
 * What a card of a product sold in variants shows a shopper: the variant cheapest in their currency (the owner's own
 * rupee prices can order them otherwise than dollars do; the shop's order decides between equals), and whether
 * another costs more, when the card says "From" it. Null without variants on sale: the product's own price.
 */
export function cheapestVariant<T extends CataloguePrice>(
  variants: T[] | null,
  { currency, rate }: CurrencyChoice,
): { variant: T; several: boolean } | null {
  if (!variants?.length) return null;
  const prices = variants.map((variant) => unitPriceIn(variant, currency, rate));
  const lowest = Math.min(...prices);
  return { variant: variants[prices.indexOf(lowest)]!, several: prices.some((price) => price > lowest) };
}
