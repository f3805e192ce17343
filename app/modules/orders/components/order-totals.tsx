import { refundRows, type TotalsRow, totalsRows, type TotalsSource } from "../totals";

const ROW_STYLES: Partial<Record<TotalsRow["key"], string>> = {
  total: "border-t border-slate-200 pt-2 text-base font-bold",
  discount: "text-emerald-800",
  refunded: "text-rose-800",
  net: "font-semibold",
};

/**
 * The totals of a cart, a checkout or an order: subtotal, discount, shipping, each tax and the total (see
 * totals.ts), then for a placed order with refunds what was refunded and the net after them, with a note under them
 * (where no tax is charged, say) and the buyer's tax ID. Test ids: `{prefix}-subtotal`, `{prefix}-discount`,
 * `{prefix}-shipping`, `{prefix}-tax` (one per tax), `{prefix}-total`, `{prefix}-refunded`, `{prefix}-net`,
 * `{prefix}-tax-note`, `{prefix}-buyer-tax-id`.
 */
export function OrderTotals({
  totals,
  prefix,
  shippingFree,
  note,
  taxIdLabel,
  className = "mt-4 space-y-2 text-sm",
}: {
  /** An order's refundedCents adds the refunded and net rows (when anything was refunded). */
  totals: TotalsSource & { refundedCents?: number; buyerTaxId?: string };
  prefix: string;
  shippingFree?: string;
  note?: string;
  /** Under a placed order's totals, the buyer's tax ID (when they gave one) after this label. */
  taxIdLabel?: string;
  className?: string;
}) {
  return (
    <>
      <dl className={className}>
        {[
          ...totalsRows(totals, { shippingFree }),
          ...(totals.refundedCents === undefined
            ? []
            : refundRows({ totalCents: totals.totalCents, refundedCents: totals.refundedCents })),
        ].map((row, index) => (
          <div
            key={`${row.key}-${index}`}
            className={`flex justify-between gap-3 ${ROW_STYLES[row.key] ?? ""}`}
          >
            <dt>{row.label}</dt>
            <dd className="tabular-nums" data-testid={`${prefix}-${row.key}`}>
              {row.amount}
            </dd>
          </div>
        ))}
      </dl>
      {taxIdLabel && totals.buyerTaxId ? (
        <p className="mt-2 text-sm text-slate-600" data-testid={`${prefix}-buyer-tax-id`}>
          {taxIdLabel}: {totals.buyerTaxId}
        </p>
      ) : null}
      {note ? (
        <p className="mt-2 text-xs text-slate-600" data-testid={`${prefix}-tax-note`}>
          {note}
        </p>
      ) : null}
    </>
  );
}
