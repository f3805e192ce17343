/**
 * The shopper's currency (ADR 0039): kept in the `currency` cookie, set by `?currency=INR|USD` on any page. Pure
 * code: the app, the server's page cache and the browser read the choice the same way.
 */
import { CURRENCY_COOKIE, type Currency, DEFAULT_CURRENCY, isCurrency } from "./money";

/** The currency a Cookie header chooses: dollars when it chooses none, or one the store does not sell in. */
export function currencyOfCookieHeader(header: string | null | undefined): Currency {
  if (!header) return DEFAULT_CURRENCY;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== CURRENCY_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return isCurrency(value) ? value : DEFAULT_CURRENCY;
  }
  return DEFAULT_CURRENCY;
}

/** The Set-Cookie value that keeps a choice for a year, for the whole store. */
export const currencyCookie = (currency: Currency, secure: boolean) =>
  `${CURRENCY_COOKIE}=${currency}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
