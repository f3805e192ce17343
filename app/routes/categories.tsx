import { PageLink } from "~/ui/page-link";
import { brandTiles } from "~/modules/catalogue/catalogue.server";
import { BrandLinkList } from "~/modules/catalogue/components/brand-tile";
import { SECTION_ORDER, SECTIONS } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/categories";

const PAGE = {
  title: "All categories",
  description: "Every section of the store and every brand we sell, with how many products each has.",
};

// /categories: every section with every brand and its product count, and the digital services.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  return fromSnapshot(context, `categories:${pathname}`, () => categoriesData(context, pathname));
}

async function categoriesData(context: Route.LoaderArgs["context"], pathname: string) {
  const [brands, seo] = await Promise.all([
    brandTiles(context),
    seoForPath(context, pathname, { page: PAGE, canonicalPath: "/categories" }),
  ]);
  const sections = SECTION_ORDER.map((section) => {
    const own = brands.filter((brand) => brand.section === section);
    return { section, brands: own, productCount: own.reduce((sum, brand) => sum + brand.productCount, 0) };
  });
  return { sections, seo };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function CategoriesPage({ loaderData }: Route.ComponentProps) {
  return (
    <div data-testid="categories-page">
      <PageHeader title={PAGE.title} intro={PAGE.description} />
      <div className="mx-auto grid max-w-7xl gap-6 px-4 pt-10 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.sections.map(({ section, brands, productCount }) => (
          <section
            key={section}
            aria-labelledby={`category-${section}`}
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            data-testid="category-section"
          >
            <div className="flex items-baseline justify-between gap-3">
              <h2 id={`category-${section}`} className="text-xl font-bold">
                <PageLink to={SECTIONS[section].path} className="hover:text-brand-700">
                  {SECTIONS[section].label}
                </PageLink>
              </h2>
              <span className="text-sm text-slate-500">{productCount} products</span>
            </div>
            <p className="mt-2 text-sm text-slate-600">{SECTIONS[section].intro}</p>
            <div className="mt-4">
              <BrandLinkList brands={brands} />
            </div>
          </section>
        ))}
        <section
          aria-labelledby="category-digital"
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          data-testid="category-section"
        >
          <h2 id="category-digital" className="text-xl font-bold">
            <PageLink to="/digital" className="hover:text-brand-700">
              Digital services
            </PageLink>
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            Marketing, web development, content writing and app development for small businesses, with
            packages and free quotes.
          </p>
          <PageLink
            to="/digital"
            className="mt-4 inline-block text-sm font-semibold text-brand-700 hover:underline"
            data-testid="digital-services-link"
          >
            Explore digital services →
          </PageLink>
        </section>
      </div>
    </div>
  );
}
