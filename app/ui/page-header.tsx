import { Link } from "react-router";

export type Crumb = { to: string; label: string };

/** The title block of a page, with breadcrumbs back up the catalogue. */
export function PageHeader({
  title,
  intro,
  crumbs = [],
}: {
  title: string;
  intro?: string;
  crumbs?: Crumb[];
}) {
  return (
    <div className="border-b border-slate-200 bg-white">
      <div className="mx-auto max-w-7xl px-4 py-8">
        {crumbs.length > 0 ? (
          <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-500">
            <ol className="flex flex-wrap items-center gap-1">
              <li>
                <Link to="/" className="hover:text-brand-700">
                  Home
                </Link>
              </li>
              {crumbs.map((crumb) => (
                <li key={crumb.to} className="flex items-center gap-1">
                  <span aria-hidden="true">/</span>
                  <Link to={crumb.to} className="hover:text-brand-700">
                    {crumb.label}
                  </Link>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <h1 className="text-3xl font-extrabold tracking-tight text-ink-900 sm:text-4xl">{title}</h1>
        {intro ? <p className="mt-3 max-w-3xl text-lg text-slate-600">{intro}</p> : null}
      </div>
    </div>
  );
}
