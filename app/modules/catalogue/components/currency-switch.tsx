import { useLocation } from "react-router";
import { useCurrency } from "~/lib/currency-context";
import { CURRENCIES, CURRENCY_COOKIE, CURRENCY_NAMES } from "~/lib/money";

const SYMBOLS = { USD: "$", INR: "₹" } as const;

/**
 * The header's currency switch: plain links to this page with `?currency=…`, which the server answers by keeping
 * the choice in a cookie and sending the shopper back here (no JavaScript needed; a whole page load, since every
 * price on it changes). The current one is marked.
 */
export function CurrencySwitch({ className = "" }: { className?: string }) {
  const { currency } = useCurrency();
  const { pathname, search } = useLocation();
  const hrefFor = (code: string) => {
    const params = new URLSearchParams(search);
    params.set(CURRENCY_COOKIE, code);
    return `${pathname}?${params.toString()}`;
  };
  return (
    <nav aria-label="Currency" className={className} data-testid="currency-switch">
      <ul className="flex items-center gap-1">
        {CURRENCIES.map((code) => (
          <li key={code}>
            <a
              href={hrefFor(code)}
              aria-current={code === currency ? "true" : undefined}
              title={`Prices in ${CURRENCY_NAMES[code]}`}
              className={
                code === currency
                  ? "rounded px-2 py-0.5 font-semibold text-white ring-1 ring-slate-400"
                  : "rounded px-2 py-0.5 text-slate-200 underline-offset-2 hover:text-white hover:underline"
              }
              data-testid={`currency-${code}`}
              rel="nofollow"
            >
              <span aria-hidden="true">{SYMBOLS[code]} </span>
              {code}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
