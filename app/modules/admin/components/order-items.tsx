import { Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { LineAdjustments } from "~/modules/orders/components/line-adjustments";
import { OrderTotals } from "~/modules/orders/components/order-totals";
import type { LineMargin } from "~/modules/orders/margins";
import type { AdminOrderView } from "~/modules/orders/order-view";
import { Panel } from "./admin-page";
import { KeyHints, LineStateBadge } from "./order-life";

const uncostedText = (keys: number) =>
  `not known: ${keys} ${keys === 1 ? "key was" : "keys were"} imported without a cost`;

/** What a line's keys cost and what it earned, for the owner only. */
function MarginNote({ margin, testId }: { margin: LineMargin | null; testId: string }) {
  if (!margin) return null;
  return (
    <span className="mt-1 block text-xs text-slate-600" data-testid={testId}>
      {margin.known
        ? `Keys cost ${formatMoney(margin.costCents)} · margin ${formatMoney(margin.marginCents)}`
        : `Margin ${uncostedText(margin.uncostedKeys)}`}
    </span>
  );
}

/** The admin's items of an order: each line with its state and key hints, the totals, and keys still to send. */
export function AdminOrderItems({ order }: { order: AdminOrderView }) {
  return (
    <Panel title="Items">
      <div className="overflow-x-auto" data-testid="admin-order-items">
        <table className="w-full text-sm">
          <caption className="sr-only">Items of order #{order.number}</caption>
          <thead className="text-left text-slate-600">
            <tr>
              <th scope="col" className="py-2 pr-2 sm:pr-3 font-semibold">
                Product
              </th>
              {/* On a phone the unit price and quantity go under the product's name (see below). */}
              <th
                scope="col"
                className="hidden whitespace-nowrap px-2 py-2 text-right font-semibold sm:table-cell sm:px-3"
              >
                Unit price
              </th>
              <th scope="col" className="hidden px-2 py-2 text-right font-semibold sm:table-cell sm:px-3">
                Qty
              </th>
              <th scope="col" className="py-2 pl-2 text-right font-semibold sm:pl-3">
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {order.lines.map((line) => (
              <tr key={line.id} data-testid="admin-order-line">
                <td className="py-2 pr-2 sm:pr-3 align-top">
                  {/* The space lets the badge go under a long name on a phone. */}
                  <span className="font-semibold text-ink-900">{line.name}</span>{" "}
                  <span className="ml-1 whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                    {line.kind === "software" ? "Licence key" : "Physical item"}
                  </span>{" "}
                  <LineStateBadge state={line.state} />
                  <span className="mt-1 block text-xs text-slate-600 sm:hidden">
                    {line.quantity} × {formatMoney(line.unitPriceCents, order.currency)}
                  </span>
                  <KeyHints line={line} />
                  <MarginNote margin={line.margin} testId="admin-order-line-margin" />
                </td>
                <td className="hidden px-2 py-2 text-right align-top tabular-nums sm:table-cell sm:px-3">
                  {formatMoney(line.unitPriceCents, order.currency)}
                </td>
                <td className="hidden px-2 py-2 text-right align-top tabular-nums sm:table-cell sm:px-3">
                  {line.quantity}
                </td>
                {/* Each tax on one line: a column as narrow as its widest word stacked them. */}
                <td
                  className="whitespace-nowrap py-2 pl-2 text-right align-top font-medium tabular-nums sm:pl-3"
                  data-testid="admin-order-line-total"
                >
                  {formatMoney(line.lineTotalCents, order.currency)}
                  <LineAdjustments
                    line={line}
                    pricesIncludeTax={order.pricesIncludeTax}
                    prefix="admin-order-line"
                    currency={order.currency}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="ml-auto mt-3 max-w-xs border-t border-slate-100 pt-3">
        <OrderTotals
          prefix="admin-order"
          totals={order}
          taxIdLabel="Buyer's tax ID"
          className="space-y-1 text-sm"
        />
        {order.margin ? (
          <p className="mt-2 border-t border-slate-100 pt-2 text-sm" data-testid="admin-order-margin">
            <span className="font-semibold text-ink-900">Margin on licence keys: </span>
            {order.margin.known
              ? `${formatMoney(order.margin.marginCents, order.currency)} (keys cost ${formatMoney(order.margin.costCents, order.currency)})`
              : uncostedText(order.margin.uncostedKeys)}
          </p>
        ) : null}
      </div>
      {order.awaitingKeys > 0 ? (
        <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {order.awaitingKeys} licence key{order.awaitingKeys > 1 ? "s" : ""} still to send: the pool is
          empty.{" "}
          <Link to="/admin/keys" className="font-semibold underline">
            Add keys
          </Link>{" "}
          and they go out at once.
        </p>
      ) : null}
    </Panel>
  );
}
