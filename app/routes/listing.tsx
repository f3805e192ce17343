import { data } from "react-router";
import { productsWithTagPage } from "~/modules/catalogue/catalogue.server";
import { Pager } from "~/modules/catalogue/components/pager";
import { pageHref, requestedPage } from "~/modules/catalogue/pagination";
import { ProductGrid } from "~/modules/catalogue/components/product-grid";
import { listingPathSchema } from "~/modules/catalogue/schemas";
import { LISTINGS } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/listing";

// /best-sellers and /top-rated: the visible products with that category tag, a page at a time.
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const listing = listingPathSchema.safeParse(url.pathname);
  const page = requestedPage(url);
  if (!listing.success || page === null) throw data(null, { status: 404 });
  const found = await fromSnapshot(context, `listing:${url.pathname}:${page}`, async () => {
    const [products, seo] = await Promise.all([
      productsWithTagPage(context, LISTINGS[listing.data].tag, page),
      seoForPath(context, url.pathname, {
        page: { title: LISTINGS[listing.data].title, description: LISTINGS[listing.data].intro },
        canonicalPath: pageHref({ pathname: `/${listing.data}`, search: "" }, page),
      }),
    ]);
    return products ? { listing: listing.data, products, seo } : null;
  });
  // Past the last page: no such page.
  if (!found) throw data(null, { status: 404 });
  return found;
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function ListingPage({ loaderData }: Route.ComponentProps) {
  const { products } = loaderData;
  const listing = LISTINGS[loaderData.listing];
  return (
    <div data-testid="listing-page">
      <PageHeader title={listing.title} intro={listing.intro} />
      <div className="mx-auto max-w-7xl px-4 pt-8">
        {/* The heading of the list, so the cards' headings (h3) sit under one. */}
        <h2 className="text-sm text-slate-500" data-testid="result-count">
          {products.total === 1 ? "1 product" : `${products.total} products`}
        </h2>
        <div className="mt-4">
          <ProductGrid products={products.items} />
        </div>
        <Pager page={products.page} pageCount={products.pageCount} />
      </div>
    </div>
  );
}
