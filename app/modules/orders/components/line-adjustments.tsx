import type { TaxAmount } from "~db/schema/orders";
import { type Currency, formatMoney } from "~/lib/money";
import { taxLabel } from "../totals";

/**
 * Under a line's amount: its discount and each of its taxes, on the checkout, the order page and the admin's order.
 * A tax's name may wrap on a phone; its amount stays whole. Test ids, when a prefix is given: `{prefix}-discount`,
 * `{prefix}-tax` (one per tax).
 */
export function LineAdjustments({
  line,
  pricesIncludeTax,
  prefix,
  currency,
}: {
  line: { discountCents: number; taxes: Array<Pick<TaxAmount, "name" | "rateBasisPoints" | "taxCents">> };
  pricesIncludeTax: boolean;
  prefix?: string;
  /** What the amounts are in (dollars when not said). */
  currency?: Currency;
}) {
  return (
    <>
      {line.discountCents > 0 ? (
        <span
          className="block whitespace-nowrap text-xs font-normal text-emerald-800"
          data-testid={prefix && `${prefix}-discount`}
        >
          −{formatMoney(line.discountCents, currency)} discount
        </span>
      ) : null}
      {line.taxes.map((tax) => (
        <span
          key={tax.name}
          className="block text-xs font-normal text-slate-600"
          data-testid={prefix && `${prefix}-tax`}
        >
          {taxLabel(tax, pricesIncludeTax)}{" "}
          <span className="whitespace-nowrap">{formatMoney(tax.taxCents, currency)}</span>
        </span>
      ))}
    </>
  );
}
