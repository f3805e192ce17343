import type { CurrencyChoice } from "~/lib/currency-context";
import { toDecimalString, unitPriceIn } from "~/lib/money";
import { absoluteUrl } from "~/modules/seo/seo.server";
import type { ProductDetail } from "./catalogue.server";
import type { ProductReviews } from "./reviews.server";
import { type VariantOption, variantPath } from "./variants";

/**
 * schema.org Product structured data for a product page; prices as the decimal text search engines expect. Its
 * offers are what the page shows its shopper, in their currency (the owner's own rupee price, else the rate's), as
 * search engines want the price in the data to be the price on the page; the page cache keeps a page per currency
 * (ADR 0039), and a crawler without the cookie reads dollars. A product sold in variants has an Offer per variant on
 * sale, each with its SKU, name, price and page. Approved reviews of verified buyers give an AggregateRating and a
 * Review each (those on this page); sample reviews of the demo store are not real opinions and are left out (ADR
 * 0038), and a product without reviews claims none.
 */
export function productJsonLd(
  product: ProductDetail,
  publicUrl: string,
  { currency, rate }: CurrencyChoice,
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
            price: toDecimalString(unitPriceIn(product, currency, rate)),
            priceCurrency: currency,
            availability: "https://schema.org/InStock",
            url: absoluteUrl(publicUrl, product.route),
          }
        : variants.map((variant) => ({
            "@type": "Offer",
            sku: variant.sku,
            name: variant.label,
            price: toDecimalString(unitPriceIn(variant, currency, rate)),
            priceCurrency: currency,
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
