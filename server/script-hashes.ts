import { createHash } from "node:crypto";

/** An inline script (no src) and its text; React escapes attribute values, so `>` ends the tag. */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * A page rendered with this request's CSP nonce, made the same for every visitor so it can be kept and shared: the
 * nonce attributes go, and the policy allows each inline script by its SHA-256 instead (the scripts React Router
 * writes, whose text is the page's own data). Null when the nonce shows anywhere else in the page, which then
 * cannot be shared. Without a policy (development) there is nothing to change.
 */
export function hashInlineScripts(
  html: string,
  nonce: string,
  policy: string | undefined,
): { html: string; policy: string | undefined } | null {
  if (policy === undefined) return { html, policy };
  if (!nonce) return null;
  const shared = html.split(` nonce="${nonce}"`).join("");
  if (shared.includes(nonce)) return null;
  const hashes = new Set<string>();
  for (const [, attributes, text] of shared.matchAll(SCRIPT)) {
    if (/\ssrc\s*=/i.test(attributes!)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text!, "utf8").digest("base64")}'`);
  }
  const nonceSource = `'nonce-${nonce}'`;
  if (!policy.includes(nonceSource)) return null;
  return {
    html: shared,
    policy: policy.replaceAll(nonceSource, [...hashes].join(" ")).replace(/ {2,}/g, " "),
  };
}
