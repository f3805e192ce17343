import { data } from "react-router";
import { productsWithTag } from "~/modules/catalogue/catalogue.server";
import { ProductGrid } from "~/modules/catalogue/components/product-grid";
import { listingPathSchema } from "~/modules/catalogue/schemas";
import { LISTINGS } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/listing";

// /best-sellers and /top-rated: every visible product with that category tag.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const listing = listingPathSchema.safeParse(pathname);
  if (!listing.success) throw data(null, { status: 404 });
  const [products, seo] = await Promise.all([
    fromSnapshot(context, `listing:${listing.data}`, () =>
      productsWithTag(context, LISTINGS[listing.data].tag),
    ),
    seoForPath(context, pathname, {
      page: { title: LISTINGS[listing.data].title, description: LISTINGS[listing.data].intro },
      canonicalPath: `/${listing.data}`,
    }),
  ]);
  return { listing: listing.data, products, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function ListingPage({ loaderData }: Route.ComponentProps) {
  const { products } = loaderData;
  const listing = LISTINGS[loaderData.listing];
  return (
    <div data-testid="listing-page">
      <PageHeader title={listing.title} intro={listing.intro} />
      <div className="mx-auto max-w-7xl px-4 pt-8">
        <p className="text-sm text-slate-500" data-testid="result-count">
          {products.length === 1 ? "1 product" : `${products.length} products`}
        </p>
        <div className="mt-4">
          <ProductGrid products={products} />
        </div>
      </div>
    </div>
  );
}
