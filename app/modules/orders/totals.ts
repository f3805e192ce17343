import type { TaxAmount } from "~db/schema/orders";
import { type Currency, formatMoney } from "~/lib/money";
import { formatRate } from "./invoice-document";

/**
 * The totals of a cart, a checkout or an order as every page, e-mail and export prints them: subtotal, the discount
 * code's amount, shipping, each tax by name and rate, and the total. One list, so they read the same everywhere.
 */
export type TotalsSource = {
  subtotalCents: number;
  shippingCents: number;
  discountCode: string;
  discountCents: number;
  taxes: TaxAmount[];
  taxCents: number;
  pricesIncludeTax: boolean;
  totalCents: number;
  /** What the amounts are in (dollars when not said). */
  currency?: Currency;
};

export type TotalsRow = {
  key: "subtotal" | "discount" | "shipping" | "tax" | "total" | "refunded" | "net";
  label: string;
  amount: string;
  cents: number;
};

/** "CGST 9%" — with prices including tax, "Includes CGST 9%". */
export const taxLabel = (tax: Pick<TaxAmount, "name" | "rateBasisPoints">, pricesIncludeTax: boolean) =>
  `${pricesIncludeTax ? "Includes " : ""}${tax.name} ${formatRate(tax.rateBasisPoints)}`;

export function totalsRows(order: TotalsSource, { shippingFree = "Free" } = {}): TotalsRow[] {
  const rows: TotalsRow[] = [
    {
      key: "subtotal",
      label: "Subtotal",
      amount: formatMoney(order.subtotalCents, order.currency),
      cents: order.subtotalCents,
    },
  ];
  if (order.discountCents > 0)
    rows.push({
      key: "discount",
      label: order.discountCode ? `Discount (${order.discountCode})` : "Discount",
      amount: `−${formatMoney(order.discountCents, order.currency)}`,
      cents: -order.discountCents,
    });
  rows.push({
    key: "shipping",
    label: "Shipping",
    amount: order.shippingCents === 0 ? shippingFree : formatMoney(order.shippingCents, order.currency),
    cents: order.shippingCents,
  });
  for (const tax of order.taxes)
    rows.push({
      key: "tax",
      label: taxLabel(tax, order.pricesIncludeTax),
      amount: formatMoney(tax.taxCents, order.currency),
      cents: tax.taxCents,
    });
  rows.push({
    key: "total",
    label: "Total",
    amount: formatMoney(order.totalCents, order.currency),
    cents: order.totalCents,
  });
  return rows;
}

/**
 * Under an order's total once anything was refunded: what was given back, and the total less it (what the order
 * comes to now). Nothing while nothing was refunded.
 */
export function refundRows(order: {
  totalCents: number;
  refundedCents: number;
  currency?: Currency;
}): TotalsRow[] {
  if (order.refundedCents <= 0) return [];
  const netCents = order.totalCents - order.refundedCents;
  return [
    {
      key: "refunded",
      label: "Refunded",
      amount: `−${formatMoney(order.refundedCents, order.currency)}`,
      cents: -order.refundedCents,
    },
    {
      key: "net",
      label: "Net after refunds",
      amount: formatMoney(netCents, order.currency),
      cents: netCents,
    },
  ];
}

/** A line's discount and tax in words, for e-mails: "less $10.00 discount, CGST 9% $8.10"; '' for neither. */
export function lineExtras(
  line: { discountCents: number; taxes: TaxAmount[] },
  pricesIncludeTax: boolean,
  currency?: Currency,
): string {
  const parts: string[] = [];
  if (line.discountCents > 0) parts.push(`less ${formatMoney(line.discountCents, currency)} discount`);
  for (const tax of line.taxes)
    if (tax.taxCents > 0)
      parts.push(`${taxLabel(tax, pricesIncludeTax)} ${formatMoney(tax.taxCents, currency)}`);
  return parts.join(", ");
}
