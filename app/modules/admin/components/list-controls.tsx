import { Form, Link, useSearchParams } from "react-router";

/** A copy of the current search with some values changed (an empty value removes the key). */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, string | number | undefined>,
): string {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  const text = next.toString();
  return text ? `?${text}` : "?";
}

/** The search box of an admin list: a GET form, so a search is a URL to share or reload. */
export function ListSearch({ label, placeholder }: { label: string; placeholder?: string }) {
  const [params] = useSearchParams();
  const kept = [...params.entries()].filter(([key]) => key !== "q" && key !== "page");
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
      {kept.map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <label className="flex flex-col text-sm font-medium text-ink-900">
        {label}
        <input
          type="search"
          name="q"
          defaultValue={params.get("q") ?? ""}
          placeholder={placeholder}
          maxLength={200}
          className="mt-1 w-72 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
      </label>
      <button
        type="submit"
        className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
      >
        Search
      </button>
    </Form>
  );
}

/** A column heading that sorts the list by its column; a second click turns the direction. */
export function SortHeader({
  column,
  label,
  sort,
  dir,
  className = "",
}: {
  column: string;
  label: string;
  sort: string;
  dir: "asc" | "desc";
  className?: string;
}) {
  const [params] = useSearchParams();
  const active = sort === column;
  const nextDir = active && dir === "asc" ? "desc" : "asc";
  return (
    <th
      scope="col"
      className={`px-3 py-2 text-left font-semibold ${className}`}
      aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : "none"}
    >
      <Link
        to={withParams(params, { sort: column, dir: nextDir, page: undefined })}
        className="hover:text-brand-700"
      >
        {label}
        {active ? <span aria-hidden="true">{dir === "asc" ? " ▲" : " ▼"}</span> : null}
      </Link>
    </th>
  );
}

/** Previous and next pages of an admin list, with where the page sits in the whole. */
export function Pagination({ page, pageSize, total }: { page: number; pageSize: number; total: number }) {
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const link =
    "rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50";
  return (
    <nav
      aria-label="Pages"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
    >
      <p data-testid="list-range">
        {total === 0 ? "Nothing found" : `Showing ${first}–${last} of ${total.toLocaleString("en-US")}`}
      </p>
      <div className="flex items-center gap-2">
        {page > 1 ? (
          <Link className={link} to={withParams(params, { page: page - 1 })} rel="prev">
            Previous
          </Link>
        ) : null}
        <span>
          Page {Math.min(page, pages)} of {pages}
        </span>
        {page < pages ? (
          <Link className={link} to={withParams(params, { page: page + 1 })} rel="next">
            Next
          </Link>
        ) : null}
      </div>
    </nav>
  );
}

/**
 * The table frame every admin list uses. Its cells are positioned, so screen-reader-only text in a cell stays inside
 * the table's own scroll box instead of widening the page on a phone.
 */
export function ListTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white [&_td]:relative [&_th]:relative">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>{head}</tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** A plain heading cell for columns that do not sort. */
export function HeadCell({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return (
    <th scope="col" className={`px-3 py-2 text-left font-semibold ${className}`}>
      {children}
    </th>
  );
}

export const cellClass = "px-3 py-2 align-top";
