/**
 * /blog/{rest}?{query} and /blogs/{rest}?{query} -> BLOG_URL/{rest}?{query}.
 * The host is always BLOG_URL's: the rest of the path is re-encoded segment by segment and can never become
 * a new origin (no "//evil.example", no "/\\evil", no "http:").
 */
export function blogRedirectTarget(blogUrl: string, requested: URL): string {
  const base = new URL(blogUrl);
  const rest = requested.pathname.replace(/^\/blogs?(\/|$)/i, "");
  const segments = rest
    .split("/")
    .filter((segment) => segment !== "" && segment !== "." && segment !== "..")
    .map((segment) => encodeURIComponent(safeDecode(segment)));
  const basePath = base.pathname.replace(/\/+$/, "");
  const target = new URL(base.origin);
  target.pathname = `${basePath}/${segments.join("/")}`;
  target.search = requested.search;
  return target.toString();
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
