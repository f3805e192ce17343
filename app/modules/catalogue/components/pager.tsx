import { useLocation } from "react-router";
import { PageLink } from "~/ui/page-link";
import { pageHref, pagerPages } from "../pagination";

const linkClass =
  "inline-flex min-w-10 items-center justify-center rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-ink-800 hover:border-brand-400 hover:text-brand-700";

/**
 * Links to the other pages of a list (previous, next, first, last and those near this one): plain links that
 * people and crawlers can follow, nothing when the list fits on one page.
 */
export function Pager({ page, pageCount }: { page: number; pageCount: number }) {
  const location = useLocation();
  if (pageCount <= 1) return null;
  const href = (n: number) => pageHref(location, n);
  return (
    <nav
      aria-label="Pages"
      className="mt-8 flex flex-wrap items-center justify-center gap-2"
      data-testid="pager"
    >
      {page > 1 ? (
        <PageLink to={href(page - 1)} rel="prev" className={linkClass} data-testid="pager-previous">
          ← Previous
        </PageLink>
      ) : null}
      {pagerPages(page, pageCount).map((n, index) =>
        n === null ? (
          <span key={`gap-${index}`} className="px-1 text-slate-500" aria-hidden="true">
            …
          </span>
        ) : n === page ? (
          <span
            key={n}
            aria-current="page"
            className="inline-flex min-w-10 items-center justify-center rounded-lg bg-ink-900 px-3 py-2 text-sm font-semibold text-white"
          >
            <span className="sr-only">Page </span>
            {n}
          </span>
        ) : (
          <PageLink key={n} to={href(n)} className={linkClass}>
            <span className="sr-only">Page </span>
            {n}
          </PageLink>
        ),
      )}
      {page < pageCount ? (
        <PageLink to={href(page + 1)} rel="next" className={linkClass} data-testid="pager-next">
          Next →
        </PageLink>
      ) : null}
      <p className="w-full text-center text-sm text-slate-500" data-testid="pager-status">
        Page {page} of {pageCount}
      </p>
    </nav>
  );
}
