import { asc, eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { type OrderLine, orderLines, orders, type TaxAmount } from "~db/schema";

/** Whole cents of a percentage of an amount, halves up. */
const percentOf = (cents: number, basisPoints: number) => Math.floor((cents * basisPoints) / 10_000 + 0.5);

/**
 * Writes on an unpaid order the figures the discount and tax engine writes when an order is placed: a percentage off
 * every line, and each of the given taxes (name, basis points) on what is left of each line and on the shipping,
 * prices without tax. Returns what it wrote, line by line, for the test to compare with what is printed.
 */
export async function taxOrder(
  db: Database,
  orderId: number,
  {
    discountBasisPoints = 1000,
    taxes = [
      { name: "CGST", rateBasisPoints: 900 },
      { name: "SGST", rateBasisPoints: 900 },
    ],
    code = "SAVE10",
  }: {
    discountBasisPoints?: number;
    taxes?: Array<{ name: string; rateBasisPoints: number }>;
    code?: string;
  } = {},
) {
  const lines = await db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const written: Array<{ line: OrderLine; discount: number; net: number; tax: number; taxes: TaxAmount[] }> =
    [];
  for (const line of lines) {
    const discount = percentOf(line.lineTotalCents, discountBasisPoints);
    const net = line.lineTotalCents - discount;
    const lineTaxes = taxes.map((tax) => ({
      ...tax,
      taxableCents: net,
      taxCents: percentOf(net, tax.rateBasisPoints),
    }));
    const tax = lineTaxes.reduce((sum, entry) => sum + entry.taxCents, 0);
    await db
      .update(orderLines)
      .set({
        discountCents: discount,
        taxes: lineTaxes,
        taxCents: tax,
        taxRateBasisPoints: taxes.reduce((sum, entry) => sum + entry.rateBasisPoints, 0),
      })
      .where(eq(orderLines.id, line.id));
    written.push({ line, discount, net, tax, taxes: lineTaxes });
  }
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const shippingTaxes = taxes.map((tax) => ({
    ...tax,
    taxableCents: order!.shippingCents,
    taxCents: percentOf(order!.shippingCents, tax.rateBasisPoints),
  }));
  const shippingTax = shippingTaxes.reduce((sum, entry) => sum + entry.taxCents, 0);
  const breakdown = taxes.map((tax, index) => ({
    ...tax,
    taxableCents:
      written.reduce((sum, entry) => sum + entry.taxes[index]!.taxableCents, 0) + order!.shippingCents,
    taxCents:
      written.reduce((sum, entry) => sum + entry.taxes[index]!.taxCents, 0) + shippingTaxes[index]!.taxCents,
  }));
  const discount = written.reduce((sum, entry) => sum + entry.discount, 0);
  const tax = breakdown.reduce((sum, entry) => sum + entry.taxCents, 0);
  const total = order!.subtotalCents + order!.shippingCents - discount + tax;
  await db
    .update(orders)
    .set({
      discountCode: code,
      discountCents: discount,
      taxCents: tax,
      shippingTaxCents: shippingTax,
      taxBreakdown: breakdown,
      totalCents: total,
    })
    .where(eq(orders.id, orderId));
  return {
    lines: written,
    shippingCents: order!.shippingCents,
    shippingTax,
    breakdown,
    discount,
    tax,
    total,
    order: order!,
  };
}

/** A buyer in Lucknow (Uttar Pradesh) with a name in Devanagari: the invoices' fonts must print it. */
export const BUYER_IN_LUCKNOW = {
  name: "राम कुमार",
  line1: "12 MG Road",
  line2: "",
  city: "Lucknow",
  region: "UP",
  postalCode: "226001",
  country: "IN",
  phone: "",
};
