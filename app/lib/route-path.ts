/**
 * A path the steps below give back unchanged: segments of lower-case letters, digits and `._~-` (nothing URL parsing
 * encodes or decoding changes), none of them `.` or `..` (which URL parsing resolves), no empty segment, no trailing
 * slash. (Ending in `.data` is checked apart.)
 */
const AS_WRITTEN = /^(?:\/|(?:\/(?!\.\.?(?:\/|$))[a-z0-9._~-]+)+)$/;

/**
 * The path React Router matches a request against, for every other decision about the request's path (who may
 * keep the page, which headers it gets, what frame it is drawn in, how large a body it takes).
 *
 * A decision made on the path as typed can be talked out of: `/%75ser/reset-password`, `/USER/login`, `/user/../admin`
 * and `/admin/` are all pages React Router renders as `/user/reset-password`, `/user/login` and `/admin`. So the
 * path is read the way the router reads it, step by step:
 * - as the request adapter does, through WHATWG URL parsing (dot segments resolved, `\` read as `/`);
 * - without the `.data` of a data request (`/_.data` for one whose path ends in a slash), as the server runtime does;
 * - each segment percent-decoded once, an encoded slash staying `%2F` inside its segment (React Router's decodePath),
 *   so `%2575` is the text `%75`, not a `u`;
 * - in lower case, since no route is case-sensitive (React Router's default; its matcher is a case-insensitive
 *   regular expression, under which no other letter matches an ASCII one, so only ASCII letters are folded);
 * - without trailing slashes, which every route accepts. Empty segments elsewhere (`//admin`) stay: the router does
 *   not match them to a route.
 *
 * The path is decoded: a `%` in it is the character itself (from `%25`). Undefined when the router could not read it the same way: a segment that does not decode (`%E0%A4%A`, where React
 * Router falls back to the undecoded path) or that decodes to a control character (`%00`). Such a request is refused.
 */
export function routePath(target: string): string | undefined {
  const end = target.search(/[?#]/);
  const raw = end < 0 ? target : target.slice(0, end);
  // The store's own links are read as they are written (every cached page's request asks this, twice).
  if (AS_WRITTEN.test(raw) && !raw.endsWith(".data")) return raw;
  if (!raw.startsWith("/")) return undefined;
  let pathname: string;
  try {
    // Concatenated, not resolved against a base: `//admin` is a path here, as it is to the adapter.
    pathname = new URL(`http://route${raw}`).pathname;
  } catch {
    return undefined;
  }
  pathname = pathname.endsWith("/_.data")
    ? pathname.slice(0, -"_.data".length)
    : pathname.replace(/\.data$/, "");
  let decoded: string;
  try {
    decoded = pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- the characters refused are the control characters
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return undefined;
  return decoded.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()).replace(/(?<=.)\/+$/, "");
}

/** The first segment of a route path (`admin` for `/admin/orders`), where the store's areas differ. */
export const areaOf = (path: string) => path.split("/", 2)[1] ?? "";
