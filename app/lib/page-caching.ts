/**
 * Who may keep a page, shared by the app (which says it in Cache-Control) and the server's full-page cache (which
 * checks it again). See docs/decisions/0020-full-page-cache.md.
 */
import { areaOf, routePath } from "./route-path";

/** How long a shared cache (and the server's own) may keep a public page without asking again: a safety net only. */
export const PUBLIC_PAGE_MAX_AGE_SECONDS = 60;

/**
 * An anonymous visitor's public page: every visitor sees the same, so a CDN or proxy may keep it for a minute (and
 * serve it a little longer while it fetches a fresh one); browsers ask again every time (304 when unchanged).
 */
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PUBLIC_PAGE_MAX_AGE_SECONDS}, stale-while-revalidate=30`;

/** The areas (first segments) whose pages are someone's own (or lead to it), whoever asks: never public, never kept. */
// "reminders": an unsubscribe link carries a customer's signed token; "stock-alerts": an address's request and links.
const PERSONAL_AREAS = new Set(["admin", "user", "payment", "order", "api", "reminders", "stock-alerts"]);

/**
 * Whether a request's path is personal, judged on the path React Router renders (however it was spelled). A path
 * the router cannot read as it is written is refused by the server; here it counts as personal.
 */
export function isPersonalPath(pathname: string): boolean {
  const path = routePath(pathname);
  return path === undefined || PERSONAL_AREAS.has(areaOf(path));
}

/** Whether a Cache-Control value lets a shared cache keep the answer. */
export function isPublicCacheControl(value: string | null | undefined): boolean {
  return (
    typeof value === "string" && /(?:^|,)\s*public\s*(?:,|$)/i.test(value) && !/no-store|private/i.test(value)
  );
}
