import { routePath } from "~/lib/route-path";

/** The brand words of the spec, in the spec's order: the first one the path contains is the selected brand. */
export const BRAND_WORDS = [
  "Avast",
  "McAfee",
  "Norton",
  "TotalAV",
  "AVG",
  "Bitdefender",
  "Kaspersky",
  "Avira",
  "PCMatic",
  "BullGuard",
  "TrendMicro",
  "Windows7",
  "Windows8",
  "Windowsxp",
  "hp",
  "epson",
  "canon",
  "netgear",
  "tplink",
  "asus",
  "dlink",
  "cisco",
] as const;

export type BrandWord = (typeof BRAND_WORDS)[number];

export function selectedBrandFor(pathname: string): BrandWord | null {
  const path = routePath(pathname) ?? pathname.toLowerCase();
  return BRAND_WORDS.find((word) => path.includes(word.toLowerCase())) ?? null;
}

/** What the storefront remembers of the product being looked at. */
export type SelectedProduct = { groupKey: string; id: string; name: string; route: string };

export const isSelectedProduct = (value: unknown): value is SelectedProduct =>
  typeof value === "object" &&
  value !== null &&
  ["groupKey", "id", "name", "route"].every(
    (key) => typeof (value as Record<string, unknown>)[key] === "string",
  );

export const isNullableString = (value: unknown): value is string | null =>
  value === null || typeof value === "string";

/**
 * Any path containing "admin" is the admin area: no public header, no storefront helpers, the admin footer. Read as
 * the router reads it, so the admin's pages get the admin's frame however their address is spelled.
 */
export const isAdminPath = (pathname: string) =>
  (routePath(pathname) ?? pathname.toLowerCase()).includes("admin");

export const isPaymentPath = (pathname: string) => routePath(pathname) === "/payment";
