import { toDecimalString } from "~/lib/money";
import { absoluteUrl } from "~/modules/seo/seo.server";
import type { ProductDetail } from "./catalogue.server";
import type { ProductReviews } from "./reviews.server";
import { type VariantOption, variantPath } from "./variants";

/**
 * schema.org Product structured data for a product page; prices as the decimal text search engines expect. A
 * product sold in variants has an Offer per variant on sale, each with its SKU, name, price and page. Approved
 * reviews of verified buyers give an AggregateRating and a Review each (those on this page); sample reviews of the
 * demo store are not real opinions and are left out (ADR 0038), and a product without reviews claims none.
 */
export function productJsonLd(
  product: ProductDetail,
  publicUrl: string,
  variants: VariantOption[] = [],
  reviews: Pick<ProductReviews, "verified" | "items"> | null = null,
): Record<string, unknown> {
  const verified = reviews?.verified ?? null;
  const shown = reviews?.items.filter((review) => !review.sample) ?? [];
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
    ...(verified
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: verified.average.toFixed(1),
            reviewCount: verified.count,
            bestRating: 5,
            worstRating: 1,
          },
          review: shown.map((review) => ({
            "@type": "Review",
            author: { "@type": "Person", name: review.authorName },
            datePublished: review.createdAt.slice(0, 10),
            reviewBody: review.body,
            reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
          })),
        }
      : {}),
  };
}
