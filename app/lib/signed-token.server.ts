import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Tokens for links that act without a sign-in (unsubscribe, confirm an address): a subject (an account, an address,
 * a request's id) and the server's signature of it for one purpose, so a token made for one link does nothing at
 * another. Not secret: anyone holding the link may use it, as the e-mail it came in meant.
 */

const signature = (secret: string, purpose: string, subject: string) =>
  createHmac("sha256", secret).update(`${purpose}:${subject}`).digest("base64url").slice(0, 32);

/** The token for `subject`, signed for `purpose`. */
export function signToken(secret: string, purpose: string, subject: string): string {
  return `${Buffer.from(subject).toString("base64url")}.${signature(secret, purpose, subject)}`;
}

/** The subject of a token the server signed for `purpose`; null for anything else. */
export function readSignedToken(
  secret: string,
  purpose: string,
  token: string | null | undefined,
): string | null {
  if (!token || token.length > 600) return null;
  const [encoded, given, ...rest] = token.split(".");
  if (!encoded || !given || rest.length > 0) return null;
  const subject = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = Buffer.from(signature(secret, purpose, subject));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return subject;
}
