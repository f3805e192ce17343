import { Link } from "react-router";
import { SearchForm } from "./search-form";

/** The 404 page: says so plainly, offers search and the ways back. */
export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="not-found">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Error 404</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight">Page not found</h1>
      <p className="mt-4 text-slate-600">
        The page you asked for does not exist or has moved. Try a search, or start again from one of our
        sections.
      </p>
      <SearchForm id="not-found-search" size="small" placeholder="Search products" className="mt-8" />
      <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm font-semibold text-brand-700">
        <li>
          <Link to="/">Home</Link>
        </li>
        <li>
          <Link to="/antivirus">Antivirus</Link>
        </li>
        <li>
          <Link to="/windows">Windows</Link>
        </li>
        <li>
          <Link to="/printer">Printers</Link>
        </li>
        <li>
          <Link to="/router">Routers</Link>
        </li>
        <li>
          <Link to="/categories">All categories</Link>
        </li>
      </ul>
    </section>
  );
}
