import { toDecimalString } from "~/lib/money";
import { absoluteUrl } from "~/modules/seo/seo.server";
import type { ProductDetail } from "./catalogue.server";

/** schema.org Product structured data for a product page; prices as the decimal text search engines expect. */
export function productJsonLd(product: ProductDetail, publicUrl: string): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: absoluteUrl(publicUrl, product.img),
    sku: `${product.groupKey}-${product.externalId}`,
    brand: { "@type": "Brand", name: product.brand.name },
    offers: {
      "@type": "Offer",
      price: toDecimalString(product.priceCents),
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
      url: absoluteUrl(publicUrl, product.route),
    },
  };
}
