import { data } from "react-router";
import { PageLink } from "~/ui/page-link";
import { brandTiles, sectionHighlights } from "~/modules/catalogue/catalogue.server";
import { BrandTile } from "~/modules/catalogue/components/brand-tile";
import { ProductGrid } from "~/modules/catalogue/components/product-grid";
import { sectionPathSchema } from "~/modules/catalogue/schemas";
import { SECTIONS } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/section";

// /antivirus, /windows, /printer, /router: the section's brands and its best products.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const section = sectionPathSchema.safeParse(pathname);
  if (!section.success) throw data(null, { status: 404 });
  return fromSnapshot(context, `section:${pathname}`, async () => {
    const [brands, highlights, seo] = await Promise.all([
      brandTiles(context, section.data),
      sectionHighlights(context, section.data),
      seoForPath(context, pathname, {
        page: { title: SECTIONS[section.data].title, description: SECTIONS[section.data].intro },
        canonicalPath: SECTIONS[section.data].path,
      }),
    ]);
    return { section: section.data, brands, highlights, seo };
  });
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function SectionPage({ loaderData }: Route.ComponentProps) {
  const { brands, highlights } = loaderData;
  const section = SECTIONS[loaderData.section];
  return (
    <div data-testid="section-page">
      <PageHeader title={section.title} intro={section.intro} />
      <div className="mx-auto max-w-7xl space-y-14 px-4 pt-10">
        <section aria-labelledby="brands-heading">
          <h2 id="brands-heading" className="text-2xl font-bold tracking-tight">
            Shop by brand
          </h2>
          <ul
            className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 sm:gap-6 lg:grid-cols-4"
            data-testid="brand-tiles"
          >
            {brands.map((brand) => (
              <li key={brand.key}>
                <BrandTile brand={brand} />
              </li>
            ))}
          </ul>
        </section>
        {highlights.length > 0 ? (
          <section aria-labelledby="highlights-heading">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="highlights-heading" className="text-2xl font-bold tracking-tight">
                Popular {section.label.toLowerCase()}
              </h2>
              <PageLink to="/best-sellers" className="text-sm font-semibold text-brand-700 hover:underline">
                All best sellers
              </PageLink>
            </div>
            <div className="mt-6">
              <ProductGrid products={highlights} />
            </div>
          </section>
        ) : null}
      </div>
    </div>
  );
}
