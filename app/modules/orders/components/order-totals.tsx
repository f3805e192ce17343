import { totalsRows, type TotalsSource } from "../totals";

/**
 * The totals of a cart, a checkout or an order: subtotal, discount, shipping, each tax and the total (see
 * totals.ts), with a note under them (where no tax is charged, say). Test ids: `{prefix}-subtotal`,
 * `{prefix}-discount`, `{prefix}-shipping`, `{prefix}-tax` (one per tax), `{prefix}-total`.
 */
export function OrderTotals({
  totals,
  prefix,
  shippingFree,
  note,
  className = "mt-4 space-y-2 text-sm",
}: {
  totals: TotalsSource;
  prefix: string;
  shippingFree?: string;
  note?: string;
  className?: string;
}) {
  return (
    <>
      <dl className={className}>
        {totalsRows(totals, { shippingFree }).map((row, index) => (
          <div
            key={`${row.key}-${index}`}
            className={
              row.key === "total"
                ? "flex justify-between gap-3 border-t border-slate-200 pt-2 text-base font-bold"
                : row.key === "discount"
                  ? "flex justify-between gap-3 text-emerald-800"
                  : "flex justify-between gap-3"
            }
          >
            <dt>{row.label}</dt>
            <dd className="tabular-nums" data-testid={`${prefix}-${row.key}`}>
              {row.amount}
            </dd>
          </div>
        ))}
      </dl>
      {note ? (
        <p className="mt-2 text-xs text-slate-600" data-testid={`${prefix}-tax-note`}>
          {note}
        </p>
      ) : null}
    </>
  );
}
