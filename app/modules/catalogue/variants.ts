import type { ProductVariant } from "~db/schema/catalogue";

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
