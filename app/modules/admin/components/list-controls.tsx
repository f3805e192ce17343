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
      <SearchButton />
    </Form>
  );
}

/** The submit button of an admin list's search form. */
export function SearchButton() {
  return (
    <button
      type="submit"
      className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
    >
      Search
    </button>
  );
}

/**
 * Links that narrow an admin list to one value of a parameter (`undefined`: all of them), keeping its search and
 * sort and starting again at page 1.
 */
export function FilterLinks({
  label,
  param,
  options,
  current,
}: {
  label: string;
  param: string;
  options: ReadonlyArray<readonly [value: string | undefined, label: string]>;
  current: string | undefined;
}) {
  const [params] = useSearchParams();
  return (
    <nav aria-label={label} className="mt-4">
      <ul className="flex flex-wrap gap-2 text-sm">
        {options.map(([value, text]) => {
          const active = value === current;
          return (
            <li key={text}>
              <Link
                to={withParams(params, { [param]: value, page: undefined })}
                aria-current={active ? "page" : undefined}
                className={`inline-block rounded-full border px-3 py-1 font-medium ${
                  active
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-slate-300 bg-white text-ink-900 hover:bg-slate-50"
                }`}
              >
                {text}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A rounded link of a row of them that switches an admin list's view (a status, an inbox); the current one filled. */
export function FilterPill({
  to,
  active,
  children,
}: {
  to: string;
  active: boolean;
  children: React.ReactNode;
}) {
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={`rounded-full px-3 py-1.5 text-sm font-semibold ${
        active ? "bg-ink-900 text-white" : "border border-slate-300 bg-white text-ink-900 hover:bg-slate-50"
      }`}
    >
      {children}
    </Link>
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
  label: React.ReactNode;
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

/** A column of an admin list: its heading and, for a column that sorts the list, the key it sorts by. */
export type ListColumn = { label: React.ReactNode; sort?: string; className?: string };

/** The cell that stands across an admin list's table when it has no rows. */
const emptyCellClass = `${cellClass} py-6 text-center text-slate-600`;

/**
 * An admin list's table and its page links: a heading per column (one with a sort key sorts the list), a row per
 * record drawn by `children`, or the `empty` message across the table when there is none.
 */
export function ListRows<Row>({
  caption,
  columns,
  query,
  total,
  rows,
  empty,
  emptyClassName = emptyCellClass,
  children,
}: {
  caption: string;
  columns: readonly ListColumn[];
  query: { sort?: string; dir?: "asc" | "desc"; page: number; pageSize: number };
  total: number;
  rows: readonly Row[];
  empty: React.ReactNode;
  /** The orders, users and audit lists draw their empty cell without the usual cell padding. */
  emptyClassName?: string;
  children: (row: Row) => React.ReactNode;
}) {
  return (
    <>
      <ListTable
        caption={caption}
        head={columns.map(({ label, sort, className }, index) =>
          sort && query.sort && query.dir ? (
            <SortHeader
              key={index}
              column={sort}
              label={label}
              sort={query.sort}
              dir={query.dir}
              className={className}
            />
          ) : (
            <HeadCell key={index} className={className}>
              {label}
            </HeadCell>
          ),
        )}
      >
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className={emptyClassName}>
              {empty}
            </td>
          </tr>
        ) : (
          rows.map(children)
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={total} />
    </>
  );
}

/**
 * The record an admin list opens beside itself (an e-mail, a message): its heading and Close link, its facts as
 * label and value, then what `children` add. `name` names the section's test id (`{name}-detail`) and heading id.
 */
export function OpenRecord({
  name,
  heading,
  headingClassName = "text-lg font-bold text-ink-900",
  closeTo,
  facts,
  children,
}: {
  name: string;
  heading: React.ReactNode;
  headingClassName?: string;
  closeTo: string;
  facts: Array<[label: string, value: React.ReactNode]>;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={`${name}-heading`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid={`${name}-detail`}
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={`${name}-heading`} className={headingClassName}>
          {heading}
        </h2>
        <Link to={closeTo} className="shrink-0 text-sm font-semibold text-slate-600 hover:underline">
          Close
        </Link>
      </div>
      <dl className="mt-4 grid grid-cols-[6rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  );
}
