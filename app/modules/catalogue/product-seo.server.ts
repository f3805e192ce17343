import { toDecimalString } from "~/lib/money";
import { absoluteUrl } from "~/modules/seo/seo.server";
import type { ProductDetail } from "./catalogue.server";
import { type VariantOption, variantPath } from "./variants";

/**
 * schema.org Product structured data for a product page; prices as the decimal text search engines expect. A
 * product sold in variants has an Offer per variant on sale, each with its SKU, name, price and page.
 */
export function productJsonLd(
  product: ProductDetail,
  publicUrl: string,
  variants: VariantOption[] = [],
): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: absoluteUrl(publicUrl, product.img),
    sku: `${product.groupKey}-${product.externalId}`,
    brand: { "@type": "Brand", name: product.brand.name },
    offers:
      variants.length === 0
        ? {
            "@type": "Offer",
            price: toDecimalString(product.priceCents),
            priceCurrency: "USD",
            availability: "https://schema.org/InStock",
            url: absoluteUrl(publicUrl, product.route),
          }
        : variants.map((variant) => ({
            "@type": "Offer",
            sku: variant.sku,
            name: variant.label,
            price: toDecimalString(variant.priceCents),
            priceCurrency: "USD",
            availability: "https://schema.org/InStock",
            url: absoluteUrl(publicUrl, variantPath(product.route, variant.sku)),
          })),
  };
}
