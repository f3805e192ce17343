import { Link } from "react-router";
import { formatMoney } from "~/lib/money";
import type { BuyerOrderView } from "../order-view";
import { expiryText } from "../labels";
import { LineAdjustments } from "./line-adjustments";
import { LineDelivery } from "./order-life";
import { OrderTotals } from "./order-totals";

/** The buyer's items: each line with its price, taxes, licence keys and delivery, then the order's totals. */
export function OrderItems({ order }: { order: BuyerOrderView }) {
  return (
    <section className="mt-8 rounded-2xl border border-slate-200 bg-white" aria-labelledby="items-heading">
      <h2 id="items-heading" className="border-b border-slate-200 px-5 py-3 font-bold">
        Items
      </h2>
      <ul className="divide-y divide-slate-200">
        {order.lines.map((line) => (
          <li key={line.id} className="px-5 py-4" data-testid="order-line">
            <div className="flex justify-between gap-4">
              <span>
                {line.quantity} × <span className="font-semibold">{line.name}</span>{" "}
                <span className="text-sm text-slate-500">
                  at {formatMoney(line.unitPriceCents, order.currency)}
                </span>
              </span>
              {/* Up to half the line: room for a tax and its amount on one line beside a long name. */}
              <span className="max-w-[50%] shrink-0 text-right font-semibold">
                <span data-testid="order-line-total">{formatMoney(line.lineTotalCents, order.currency)}</span>
                <LineAdjustments
                  line={line}
                  pricesIncludeTax={order.pricesIncludeTax}
                  prefix="order-line"
                  currency={order.currency}
                />
              </span>
            </div>
            {line.kind === "software" && line.keys.length > 0 ? (
              <div className="mt-3">
                <p className="text-sm font-medium text-slate-600">
                  Licence key{line.keys.length > 1 ? "s" : ""}
                </p>
                <ul className="mt-1 space-y-1">
                  {line.keys.map((key) => (
                    <li key={key}>
                      <code
                        className="rounded bg-brand-50 px-2 py-1 font-mono text-sm text-ink-900"
                        data-testid="licence-key"
                      >
                        {key}
                      </code>
                    </li>
                  ))}
                </ul>
                {line.keysExpireAt ? (
                  <p className="mt-1 text-sm text-slate-600" data-testid="licence-key-expiry">
                    {expiryText(line.keysExpireAt)}
                  </p>
                ) : null}
              </div>
            ) : null}
            <LineDelivery line={line} orderStatus={order.status} />
            {line.reviewProductId !== null ? (
              <p className="mt-2 text-sm">
                <Link
                  to={`/user/reviews/${line.reviewProductId}`}
                  className="font-semibold text-brand-700 hover:underline"
                  data-testid="review-line"
                >
                  Review this product<span className="sr-only">: {line.name}</span>
                </Link>
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <div className="border-t border-slate-200 px-5 py-4">
        <OrderTotals prefix="order" totals={order} taxIdLabel="Your tax ID" className="space-y-1 text-sm" />
      </div>
    </section>
  );
}
