/** Product cards per page of a brand page, a listing or the search results. */
export const PAGE_SIZE = 24;

/** One page of a longer list, and where it sits in it. */
export type Paged<T> = { items: T[]; total: number; page: number; pageCount: number };

/**
 * The page a request asks for (`?page=`): absent means the first page; otherwise a whole number from 1, written
 * plainly (no sign, no leading zero), so that each page has one address. Anything else is no page: null (404).
 */
export function requestedPage(url: URL): number | null {
  const value = url.searchParams.get("page");
  if (value === null) return 1;
  return /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : null;
}

export const pageCountOf = (total: number, pageSize = PAGE_SIZE) => Math.max(1, Math.ceil(total / pageSize));

/** Rows to skip for a page. */
export const offsetOf = (page: number, pageSize = PAGE_SIZE) => (page - 1) * pageSize;

/**
 * The pages a pager links to: the first, the last, and the two either side of the current one, with null where
 * pages are left out between them.
 */
export function pagerPages(page: number, pageCount: number): Array<number | null> {
  const shown = new Set([1, pageCount, page - 2, page - 1, page, page + 1, page + 2]);
  const pages = [...shown].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const n of pages) {
    const last = out[out.length - 1];
    if (typeof last === "number" && n > last + 1) out.push(null);
    out.push(n);
  }
  return out;
}

/** The address of a page of the list at `url`: its other query parameters kept, `page` left out for the first. */
export function pageHref(url: { pathname: string; search: string }, page: number): string {
  const params = new URLSearchParams(url.search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}
