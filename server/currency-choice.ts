import type { RequestHandler } from "express";
import { currencyCookie } from "~/lib/currency";
import { CURRENCY_COOKIE, isCurrency } from "~/lib/money";
import { refuse } from "./refusal";

/**
 * `?currency=INR|USD` on any page (ADR 0039): the choice is kept in the `currency` cookie and the shopper is sent
 * back to the same address without the parameter, so that the page itself (kept by the page cache per currency)
 * has one address. A currency the store does not sell in is refused with a 400 that says which it does; the
 * choice already kept is left as it was.
 */
export function chooseCurrency(): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url.includes(`${CURRENCY_COOKIE}=`))
      return next();
    const url = new URL(req.originalUrl, "http://store.invalid");
    const asked = url.searchParams.getAll(CURRENCY_COOKIE);
    if (asked.length === 0 || url.pathname.startsWith("/api/")) return next();
    const [currency] = asked;
    if (asked.length > 1 || !isCurrency(currency)) {
      res.set("Cache-Control", "no-store");
      return refuse(req, res, 400, "The currency must be USD (US dollars) or INR (Indian rupees).");
    }
    url.searchParams.delete(CURRENCY_COOKIE);
    res
      .status(303)
      .set("Cache-Control", "no-store")
      .append("Set-Cookie", currencyCookie(currency, req.secure))
      .location(`${url.pathname}${url.search}`)
      .end();
  };
}
