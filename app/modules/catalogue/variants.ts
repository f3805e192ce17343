/** The variant a SKU names, in any case (SKUs are unique store-wide regardless of case), or undefined. */
export const variantWithSku = <T extends { sku: string }>(variants: T[], sku: string): T | undefined =>
  variants.find((variant) => variant.sku.toLowerCase() === sku.toLowerCase());

/** A product's name with the variant bought, as lines and messages say it: "Norton 360 (1 device, 1 year)". */
export const nameWithVariant = (name: string, variantLabel: string | null | undefined) =>
  variantLabel ? `${name} (${variantLabel})` : name;

/** The page of a product with a variant chosen: each variant has its own address (and price in its HTML). */
export const variantPath = (route: string, sku: string | null | undefined) =>
  sku ? `${route}?variant=${encodeURIComponent(sku)}` : route;
