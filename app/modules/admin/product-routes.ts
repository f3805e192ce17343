import { SECTION_ORDER } from "~/modules/catalogue/sections";

/**
 * First path segments the store's own pages take (see app/routes.ts): a product given such an address would never
 * be shown, because the page's route wins over the catalogue's catch-all.
 */
export const RESERVED_FIRST_SEGMENTS = [
  "home",
  "about",
  "disclaimer",
  "termsandconditions",
  "privacypolicy",
  "returnandrefundpolicy",
  "shipping-policy",
  "contact",
  "digital",
  "best-sellers",
  "top-rated",
  "categories",
  "search",
  "support",
  "blog",
  "blogs",
  "user",
  "api",
  "cart",
  "payment",
  "order",
  "admin",
  "sitemap.xml",
  "sitemaps",
  "robots.txt",
  "placeholder",
  "reminders",
  "stock-alerts",
] as const;

/** Whole paths announced for later pages (routes.ts aliases them to the future-page module). */
export const RESERVED_PATHS = ["/antivirus/future-brand", "/some/future-page"] as const;

/**
 * Why a product cannot live at this address because a page of the store itself is there, or null when nothing
 * but other products (checked against the database) could take it. Brand pages are checked by the caller.
 */
export function reservedRouteReason(route: string): string | null {
  const segments = route.toLowerCase().split("/").filter(Boolean);
  const first = segments[0] ?? "";
  if ((RESERVED_FIRST_SEGMENTS as readonly string[]).includes(first)) {
    return `Addresses under /${first} belong to the store's own pages`;
  }
  if (segments.length === 1 && (SECTION_ORDER as readonly string[]).includes(first)) {
    return `/${first} is the ${first} section page`;
  }
  if ((RESERVED_PATHS as readonly string[]).includes(`/${segments.join("/")}`)) {
    return "This address is kept for a page announced for later";
  }
  return null;
}

/** The brand page a two-segment address like /antivirus/norton is (a product there would hide it), or null. */
export function brandPageReason(
  route: string,
  brands: ReadonlyArray<{ section: string; slug: string; name: string }>,
): string | null {
  const segments = route.toLowerCase().split("/").filter(Boolean);
  if (segments.length !== 2) return null;
  const brand = brands.find((group) => group.section === segments[0] && group.slug === segments[1]);
  return brand ? `This address is the ${brand.name} brand page` : null;
}
