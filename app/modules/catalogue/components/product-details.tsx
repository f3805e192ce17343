import { Link } from "react-router";
import { useCataloguePrice } from "~/lib/currency-context";
import type { CataloguePrice } from "~/lib/money";
import { type Availability, availabilityText } from "../availability";
import type { ProductDetail } from "../catalogue.server";
import { useShowProduct } from "../selection-provider";
import { brandPath, isPhysicalSection, SECTIONS } from "../sections";
import { Breadcrumbs } from "./breadcrumbs";
import { ResellerNotice } from "./reseller-notice";
import { Icon } from "~/ui/icon";
import { ProductImage } from "./product-image";

/**
 * A product page: breadcrumbs, image, name, price (with the original price and discount only when there is a real
 * one), the add-to-cart control the route passes in, the reseller notice, description and specifications.
 * Showing it makes it the shown product and its brand group the selected group. On a phone or tablet the name,
 * price and Add to cart come first, where they are seen without scrolling, then the image; on a wide screen the
 * image takes the left column, beside them.
 */
export function ProductDetails({
  product,
  price = product,
  availability,
  waitingHours,
  lowStockAt = 0,
  variantPicker = null,
  addToCart,
  notifyMe = null,
}: {
  product: ProductDetail;
  /** The price shown: the chosen variant's, for a product sold in variants. */
  price?: CataloguePrice;
  /** The choice of variants, above the price (none for a product sold as itself). */
  variantPicker?: React.ReactNode;
  /** Of one unit: in stock, after a wait, or not orderable now (from the server). */
  availability: Availability;
  waitingHours: number;
  /** Printers and routers with this many or fewer left say "Only N left". */
  lowStockAt?: number;
  addToCart: React.ReactNode;
  /** What an unavailable product offers instead: the back-in-stock form. */
  notifyMe?: React.ReactNode;
}) {
  const shown = useCataloguePrice()(price);
  useShowProduct({
    groupKey: product.groupKey,
    id: product.externalId,
    name: product.name,
    route: product.route,
  });
  const { brand } = product;
  const section = SECTIONS[brand.section];
  const { discount } = shown;
  const physical = isPhysicalSection(brand.section);
  const delivery = availabilityText(
    availability,
    1,
    physical ? "physical" : "software",
    waitingHours,
    lowStockAt,
  );
  const promises = physical
    ? ["Secure checkout", "Help from our support team"]
    : ["Secure checkout", "Help with installation and activation"];

  return (
    <article className="mx-auto max-w-7xl px-4 py-4 sm:py-8" data-testid="product-page">
      <Breadcrumbs
        items={[
          { label: section.label, to: section.path },
          { label: brand.name, to: brandPath(brand) },
          { label: product.name },
        ]}
      />

      {/* Wide, the image spans both rows of the left column; what the details take beyond it goes to their row. */}
      <div className="mt-4 grid gap-8 sm:mt-6 lg:grid-cols-2 lg:grid-rows-[auto_1fr] lg:gap-x-12 lg:gap-y-0">
        <div data-testid="product-buy-box" className="lg:col-start-2 lg:row-start-1">
          <Link
            to={brandPath(brand)}
            className="text-sm font-semibold uppercase tracking-wide text-brand-700 hover:underline"
            data-testid="product-brand"
          >
            {brand.name}
          </Link>
          <h1
            className="mt-2 text-3xl font-extrabold tracking-tight text-ink-900 sm:text-4xl"
            data-testid="product-name"
          >
            {product.name}
          </h1>

          {variantPicker}

          <div className="mt-3 flex flex-wrap items-baseline gap-x-3 gap-y-1 sm:mt-5">
            <p className="text-3xl font-bold text-ink-900" data-testid="product-price">
              <span className="sr-only">Price: </span>
              {shown.price}
            </p>
            {discount > 0 ? (
              <>
                <p className="text-lg text-slate-500">
                  <span className="sr-only">Was </span>
                  <s data-testid="product-original-price">{shown.original}</s>
                </p>
                <p
                  className="rounded-md bg-brand-100 px-2 py-0.5 text-sm font-semibold text-brand-800"
                  data-testid="product-discount"
                >
                  Save {discount}%
                </p>
              </>
            ) : null}
          </div>
          {discount > 0 ? <p className="mt-1 text-sm text-emerald-700">You save {shown.saving}</p> : null}

          <p
            className={`mt-4 text-sm font-semibold ${availability.status === "in-stock" ? "text-emerald-800" : availability.status === "waiting" ? "text-amber-800" : "text-red-800"}`}
            data-testid="product-availability"
            data-status={availability.status}
          >
            {delivery}
          </p>

          {availability.status === "unavailable" ? notifyMe : null}

          <div className="mt-5 sm:mt-6">{addToCart}</div>

          <ul className="mt-6 space-y-2 text-sm text-slate-700">
            {promises.map((promise) => (
              <li key={promise} className="flex gap-2">
                <Icon name="check" className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
                {promise}
              </li>
            ))}
          </ul>
        </div>

        {/* Below the wide layout the image is capped, so a tablet does not fill its screen with one picture. */}
        <div className="w-full max-w-xl justify-self-center overflow-hidden rounded-2xl border border-slate-200 bg-white lg:sticky lg:top-6 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:max-w-none lg:self-start">
          <ProductImage
            product={product}
            size={600}
            // The page's largest paint: asked for before anything else the page loads.
            fetchPriority="high"
            className="aspect-square w-full object-cover"
            data-testid="product-image"
          />
        </div>

        <div className="lg:col-start-2 lg:row-start-2">
          <ResellerNotice
            brandName={brand.name}
            owner={brand.owner}
            officialWebsite={brand.officialWebsite}
            className="lg:mt-6"
          />

          <section aria-labelledby="description-heading" className="mt-8">
            <h2 id="description-heading" className="text-xl font-bold text-ink-900">
              About this product
            </h2>
            <p className="mt-3 leading-relaxed text-slate-700" data-testid="product-description">
              {product.description}
            </p>
          </section>

          {product.specifications.length > 0 ? (
            <section aria-labelledby="specifications-heading" className="mt-8">
              <h2 id="specifications-heading" className="text-xl font-bold text-ink-900">
                Specifications
              </h2>
              <div className="mt-3 overflow-hidden rounded-xl border border-slate-200 bg-white">
                <table className="w-full text-left text-sm" data-testid="specifications">
                  <caption className="sr-only">Specifications of {product.name}</caption>
                  <tbody className="divide-y divide-slate-100">
                    {product.specifications.map((spec) => (
                      <tr key={spec.label} className="align-top">
                        <th
                          scope="row"
                          className="w-2/5 bg-slate-50 px-4 py-3 font-medium text-slate-600 sm:w-1/3"
                        >
                          {spec.label}
                        </th>
                        <td className="px-4 py-3 text-ink-900">{spec.value}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ) : null}
        </div>
      </div>
    </article>
  );
}
