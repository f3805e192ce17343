import { hash } from "node:crypto";

const OPEN = Buffer.from("<script");
const CLOSE = Buffer.from("</script>");
const TAG_END = ">".charCodeAt(0);
/** What may follow `<script` in a script tag's name: white space, `>` or `/` (not `<scripts`). */
const AFTER_NAME = new Set([..." \t\n\f\r>/"].map((char) => char.charCodeAt(0)));

/**
 * A page rendered with this request's CSP nonce, made the same for every visitor so it can be kept and shared: the
 * nonce attributes go, and the policy allows each inline script by its SHA-256 instead (the scripts React Router
 * writes, whose text is the page's own data). Null when the nonce shows anywhere else in the page, which then
 * cannot be shared. Without a policy (development) there is nothing to change.
 *
 * It reads the page's bytes as they are sent (React writes tag names in lower case): a page of 100 KB is not
 * decoded and encoded again for it. A script it does not see is not allowed, never the other way round.
 */
export function hashInlineScripts(
  html: Buffer,
  nonce: string,
  policy: string | undefined,
): { html: Buffer; policy: string | undefined } | null {
  if (policy === undefined) return { html, policy };
  if (!nonce) return null;
  const nonceSource = `'nonce-${nonce}'`;
  if (!policy.includes(nonceSource)) return null;
  const shared = withoutNonceAttributes(html, nonce);
  if (!shared) return null;
  const hashes = new Set<string>();
  for (let at = shared.indexOf(OPEN); at >= 0; ) {
    const nameEnd = at + OPEN.length;
    if (!AFTER_NAME.has(shared[nameEnd]!)) {
      at = shared.indexOf(OPEN, nameEnd);
      continue;
    }
    const tagEnd = shared.indexOf(TAG_END, nameEnd);
    const close = tagEnd < 0 ? -1 : shared.indexOf(CLOSE, tagEnd + 1);
    if (close < 0) break;
    if (!/\ssrc\s*=/i.test(shared.toString("latin1", nameEnd, tagEnd))) {
      const text = shared.subarray(tagEnd + 1, close);
      hashes.add(`'sha256-${hash("sha256", text, "base64")}'`);
    }
    at = shared.indexOf(OPEN, close + CLOSE.length);
  }
  return {
    html: shared,
    policy: policy.replaceAll(nonceSource, [...hashes].join(" ")).replace(/ {2,}/g, " "),
  };
}

/**
 * The page without its ` nonce="…"` attributes, in one pass over it: null when the nonce shows anywhere else. A new
 * buffer where there were attributes to take out, else the page itself.
 */
function withoutNonceAttributes(html: Buffer, nonce: string): Buffer | null {
  const attribute = Buffer.from(` nonce="${nonce}"`);
  const value = Buffer.from(nonce);
  const valueAt = attribute.indexOf(value);
  const kept: Buffer[] = [];
  let from = 0;
  for (let at = html.indexOf(value); at >= 0; at = html.indexOf(value, at + value.length)) {
    const [start, end] = [at - valueAt, at - valueAt + attribute.length];
    if (start < from || end > html.length || html.compare(attribute, 0, attribute.length, start, end) !== 0) {
      return null;
    }
    kept.push(html.subarray(from, start));
    from = end;
  }
  if (kept.length === 0) return html;
  kept.push(html.subarray(from));
  return Buffer.concat(kept);
}
