import { data, redirect } from "react-router";
import { MAX_QUANTITY } from "~/modules/cart/cart";
import { AddToCartButton } from "~/modules/cart/components/add-to-cart-button";
import { availabilityOf } from "~/modules/catalogue/availability";
import { stockOf, variantStockOf } from "~/modules/catalogue/stock.server";
import { variantsOnSale } from "~/modules/catalogue/variants.server";
import { nameWithVariant, variantPath, variantWithSku } from "~/modules/catalogue/variants";
import { VariantPicker } from "~/modules/catalogue/components/variant-picker";
import { getSettings, pageMoney, storedSettings } from "~/modules/orders/settings.server";
import { brandProducts, resolveCataloguePath } from "~/modules/catalogue/catalogue.server";
import { BrandContent } from "~/modules/catalogue/components/brand-content";
import { NotifyMeForm } from "~/modules/catalogue/components/notify-me-form";
import { ProductDetails } from "~/modules/catalogue/components/product-details";
import { ProductGrid } from "~/modules/catalogue/components/product-grid";
import { Pager } from "~/modules/catalogue/components/pager";
import { pageHref, requestedPage } from "~/modules/catalogue/pagination";
import { productJsonLd } from "~/modules/catalogue/product-seo.server";
import { ProductReviews } from "~/modules/catalogue/components/product-reviews";
import { productReviewsPage } from "~/modules/catalogue/reviews.server";
import { cataloguePathSchema } from "~/modules/catalogue/schemas";
import { brandPath, SECTIONS } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import type { CurrencyChoice } from "~/lib/currency-context";
import type { Route } from "./+types/catalogue-page";

/** How many other products of the brand a product page shows. */
const RELATED_COUNT = 8;

// Every path no other route takes: a product at its own route, a brand page /{section}/{brand}, or the 404 page.
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const path = cataloguePathSchema.safeParse(url.pathname);
  if (!path.success) throw data(null, { status: 404 });
  const page = requestedPage(url);
  if (page === null) throw data(null, { status: 404 });
  const load = (sku: string | null) =>
    fromSnapshot(context, `catalogue:${path.data}:${page}:${sku ?? ""}`, () =>
      cataloguePageData(context, path.data, page, sku),
    );
  const [found, settings] = await Promise.all([load(null), storedSettings(context)]);
  if (!found) throw data(null, { status: 404 });
  // A stored route always starts with one slash, so the redirect stays on this store.
  if ("movedTo" in found) throw redirect(`${found.movedTo}${url.search}`, 301);
  const money = pageMoney(request, settings.values);
  const priced = (shown: PageData) => withOffers(shown, money, context.env.PUBLIC_URL);
  // The variant chosen on a product page (`?variant=SKU`): each has a page of its own, with its own price. A brand
  // page has no variants: whatever `?variant=` says changes nothing on it.
  const asked = url.searchParams.get("variant");
  if (asked === null || found.page.kind !== "product") return priced(found);
  const chosen = variantWithSku(found.variants, asked);
  // A variant the product does not sell (a link to one since removed, or made up): the product with its variants
  // to choose from, said plainly, and a 404 so that search engines drop the address. Kept under the product's own
  // entry, so made-up SKUs cannot push the store's pages out of the snapshot.
  if (!chosen) return data({ ...priced(found), unknownVariant: asked }, { status: 404 });
  // The first variant's page is the product's page; another's is kept under its SKU as the store spells it.
  if (chosen === found.variants[0]) return priced(found);
  const variantPage = await load(chosen.sku);
  // Gone between the two reads (the product moved or was removed a moment ago): as if asked a moment later.
  if (!variantPage || "movedTo" in variantPage) throw data(null, { status: 404 });
  return priced(variantPage);
}

type PageData = Exclude<Awaited<ReturnType<typeof cataloguePageData>>, null | { movedTo: string }>;

/**
 * A product page's structured data, its offers at the prices the page shows this shopper, in their currency. The
 * snapshot's data is the same for every visitor, so it is added to it here, for each request (the page cache keeps
 * a page per currency).
 */
function withOffers(shown: PageData, money: CurrencyChoice, publicUrl: string): PageData {
  if (shown.page.kind !== "product") return shown;
  const jsonLd = productJsonLd(shown.page.product, publicUrl, money, shown.variants, shown.reviews);
  return { ...shown, seo: { ...shown.seo, jsonLd } };
}

/** What the page at `path` shows, the same for every visitor (kept in the public data snapshot). */
async function cataloguePageData(
  context: Route.LoaderArgs["context"],
  path: string,
  pageNumber: number,
  /** A SKU the product sells (the loader checked it), or null for the product's own page. */
  variantSku: string | null,
) {
  const page = await resolveCataloguePath(context, path, pageNumber);
  if (!page) return null;
  // A brand page has pages of products, a product page pages of its reviews; ?page=2 of anything else is no page.
  if (page.kind === "moved") {
    if (pageNumber !== 1) return null;
    return { movedTo: page.to };
  }
  if (page.kind === "product") {
    const { product } = page;
    const [{ hasVariants, variants }, reviews] = await Promise.all([
      variantsOnSale(context.db, product.id),
      productReviewsPage(context.db, product.id, pageNumber),
    ]);
    // Past the last page of reviews.
    if (!reviews) return null;
    const asked = variantSku === null ? undefined : variantWithSku(variants, variantSku);
    // Without a choice (or with one it does not sell), the first variant on sale is shown chosen.
    const selected = asked ?? variants[0] ?? null;
    const subject = {
      productId: product.id,
      section: product.brand.section,
      waitingOrders: product.waitingOrders,
    };
    // The first variant's page is the product's page; another's is its own, with its own title.
    const ownPage = asked && asked !== variants[0] ? asked : null;
    const [seo, sameBrand, stock, store] = await Promise.all([
      seoForPath(context, path, {
        product: { name: nameWithVariant(product.name, ownPage?.label), description: product.description },
        canonicalPath: pageHref(new URL(variantPath(product.route, ownPage?.sku), "http://x"), pageNumber),
        image: { path: product.img, alt: product.name },
        // Its JSON-LD is priced in the shopper's currency: the loader adds it (withOffers).
        type: "product",
      }),
      // A few more of the brand: one more than shown, in case the product itself is among them.
      brandProducts(context, product.groupKey, { limit: RELATED_COUNT + 1 }),
      selected
        ? variantStockOf(context.db, [{ ...subject, variantId: selected.id }]).then(
            (counts) => counts.get(selected.id)!,
          )
        : hasVariants
          ? // Every variant hidden: nothing of it is on sale.
            { inStock: 0, waitingOrders: false }
          : stockOf(context.db, [subject]).then((counts) => counts.get(product.id)!),
      getSettings(context.db),
    ]);
    return {
      page,
      related: sameBrand.filter((card) => card.id !== product.id).slice(0, RELATED_COUNT),
      seo,
      availability: availabilityOf(stock, 1, MAX_QUANTITY),
      variants,
      selected,
      reviews,
      // Set by the loader, outside the snapshot, for a SKU the product does not sell.
      unknownVariant: null as string | null,
      waitingOrderHours: store.waitingOrderHours,
      lowStockThreshold: store.lowStockThreshold,
    };
  }
  const seo = await seoForPath(context, path, {
    brand: { key: page.brand.key, title: page.content.title, whyChoose: page.content.whyChoose },
    image: { path: page.content.logo, alt: `${page.brand.name} logo` },
    canonicalPath: pageHref({ pathname: brandPath(page.brand), search: "" }, pageNumber),
  });
  return {
    page,
    related: [],
    seo,
    availability: null,
    variants: [],
    selected: null,
    reviews: null,
    unknownVariant: null,
    waitingOrderHours: 0,
    lowStockThreshold: 0,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function CataloguePage({ loaderData }: Route.ComponentProps) {
  const {
    page,
    related,
    availability,
    variants,
    selected,
    reviews,
    unknownVariant,
    waitingOrderHours,
    lowStockThreshold,
  } = loaderData;
  if (page.kind === "product" && availability) {
    const { product } = page;
    return (
      <>
        <ProductDetails
          key={product.id}
          product={product}
          price={selected ?? product}
          availability={availability}
          waitingHours={waitingOrderHours}
          lowStockAt={lowStockThreshold}
          variantPicker={
            variants.length > 0 || unknownVariant !== null ? (
              <VariantPicker
                route={product.route}
                variants={variants}
                selected={selected}
                unknownSku={unknownVariant}
              />
            ) : null
          }
          addToCart={
            <AddToCartButton
              // A new choice starts from a quantity of one.
              key={selected?.sku ?? ""}
              product={{
                groupKey: product.groupKey,
                id: product.externalId,
                ...(selected ? { variant: selected.sku } : {}),
                name: nameWithVariant(product.name, selected?.label),
                priceCents: selected?.priceCents ?? product.priceCents,
              }}
              maxQuantity={availability.maxQuantity}
            />
          }
          notifyMe={<NotifyMeForm productId={product.id} variantSku={selected?.sku ?? null} />}
        />
        {reviews ? <ProductReviews productId={product.id} reviews={reviews} /> : null}
        {related.length > 0 ? (
          <section
            aria-labelledby="related-heading"
            className="mx-auto max-w-7xl px-4 pt-8"
            data-testid="related-products"
          >
            <h2 id="related-heading" className="text-2xl font-bold tracking-tight text-ink-900">
              More from {product.brand.name}
            </h2>
            <div className="mt-6">
              <ProductGrid products={related} />
            </div>
          </section>
        ) : null}
      </>
    );
  }
  if (page.kind === "product") return null;
  const { brand, content, products } = page;
  const section = SECTIONS[brand.section];
  return (
    <BrandContent
      brand={brand}
      content={content}
      crumbs={[{ label: section.label, to: section.path }, { label: brand.name }]}
      products={
        <section aria-labelledby="brand-products-heading" data-testid="brand-products">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="brand-products-heading" className="text-2xl font-bold tracking-tight text-ink-900">
              Shop {brand.name}
            </h2>
            <p className="text-sm text-slate-500" data-testid="brand-product-count">
              {products.total === 1 ? "1 product" : `${products.total} products`}
            </p>
          </div>
          <div className="mt-6">
            <ProductGrid
              products={products.items}
              empty={`No ${brand.name} products are on sale right now.`}
            />
          </div>
          <Pager page={products.page} pageCount={products.pageCount} />
        </section>
      }
    />
  );
}
