import { data, Link } from "react-router";
import { ProductGrid } from "~/modules/catalogue/components/product-grid";
import { searchParamsSchema } from "~/modules/catalogue/schemas";
import { normalizeSearchQuery, SEARCH_MAX_LENGTH } from "~/modules/catalogue/search";
import { SearchForm } from "~/modules/catalogue/components/search-form";
import { searchPage } from "~/modules/catalogue/search.server";
import { Pager } from "~/modules/catalogue/components/pager";
import { requestedPage } from "~/modules/catalogue/pagination";
import { SECTION_ORDER, SECTIONS } from "~/modules/catalogue/sections";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import type { Route } from "./+types/search";

// /search?q=: products by full-text and typo-tolerant search.
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { q } = searchParamsSchema.parse({ q: url.searchParams.get("q") });
  const { query, truncated } = normalizeSearchQuery(q);
  const page = requestedPage(url);
  if (page === null) throw data(null, { status: 404 });
  const [results, seo] = await Promise.all([
    fromSnapshot(context, `search:${page}:${query}`, () => searchPage(context, query, page)),
    seoForPath(context, url.pathname, {
      page: {
        title: query ? `Search results for “${query}”` : "Search",
        description: "Search the store's antivirus software, Windows licences, printers and routers.",
      },
      canonicalPath: "/search",
    }),
  ]);
  if (!results) throw data(null, { status: 404 });
  return { query, truncated, results, seo };
}

// Result pages are not for search engines to index.
export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData?.seo),
  { name: "robots", content: "noindex, follow" },
];

const SUGGESTIONS = [
  ...SECTION_ORDER.map((section) => ({ to: SECTIONS[section].path, label: SECTIONS[section].label })),
  { to: "/best-sellers", label: "Best sellers" },
  { to: "/categories", label: "All categories" },
];

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, truncated, results } = loaderData;
  return (
    <div data-testid="search-page">
      <div className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-8">
          <h1 className="text-3xl font-extrabold tracking-tight text-ink-900 sm:text-4xl">
            {query ? (
              <>
                Results for <span className="text-brand-700">“{query}”</span>
              </>
            ) : (
              "Search the store"
            )}
          </h1>
          <SearchForm
            id="search-page-input"
            size="large"
            query={query}
            placeholder="Product or brand name, e.g. Norton 360"
            className="mt-5"
            testId="search-input"
          />
          {truncated ? (
            <p className="mt-2 text-sm text-slate-500" data-testid="search-truncated">
              Your search was shortened to its first {SEARCH_MAX_LENGTH} characters.
            </p>
          ) : null}
        </div>
      </div>

      <div className="mx-auto max-w-7xl px-4 pt-8">
        {!query ? (
          <Suggestions title="What are you looking for?">
            Type a product or brand name above, or browse a section.
          </Suggestions>
        ) : results.total === 0 ? (
          <Suggestions title={`No products match “${query}”`} testId="no-results">
            Check the spelling, try fewer words or just the brand name (for example “Norton” or “HP”), or
            browse a section.
          </Suggestions>
        ) : (
          <>
            {/* The heading of the results, so the cards' headings (h3) sit under one. */}
            <h2 className="text-sm text-slate-500" data-testid="result-count" aria-live="polite">
              {results.total === 1 ? "1 product found" : `${results.total} products found`}
            </h2>
            <div className="mt-4" data-testid="search-results">
              <ProductGrid products={results.items} />
            </div>
            <Pager page={results.page} pageCount={results.pageCount} />
          </>
        )}
      </div>
    </div>
  );
}

function Suggestions({
  title,
  testId,
  children,
}: {
  title: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm"
      data-testid={testId}
    >
      <h2 className="text-xl font-bold text-ink-900">{title}</h2>
      <p className="mt-2 text-slate-600">{children}</p>
      <ul className="mt-6 flex flex-wrap justify-center gap-2">
        {SUGGESTIONS.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="inline-block rounded-full border border-slate-300 px-4 py-1.5 text-sm font-semibold text-ink-800 hover:border-brand-400 hover:text-brand-700"
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
