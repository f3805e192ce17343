/**
 * Cross-site request forgery: a form on another site posting to ours with the visitor's cookies. Browsers say
 * where a request comes from (Sec-Fetch-Site, Origin); a post from anywhere but the store's own origin is refused.
 * A request that sends neither is not a browser's (curl, a payment provider's webhook), so it carries no cookies
 * a forgery could borrow.
 */
export function crossSiteReason(
  headers: { origin?: string | undefined; "sec-fetch-site"?: string | undefined },
  publicUrl: string,
): string | null {
  const site = headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return `Sec-Fetch-Site is ${site}`;
  const origin = headers.origin;
  if (origin === undefined) return null;
  if (origin === "null") return "the origin is hidden (null)";
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return "the Origin header is not a URL";
  }
  return parsed.origin === new URL(publicUrl).origin ? null : `the origin ${parsed.origin} is not this store`;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const isUnsafeMethod = (method: string) => !SAFE_METHODS.has(method.toUpperCase());
