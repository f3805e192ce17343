/**
 * CSV exports for the admin: orders with the list's filters, key pools as hints (never a key), and the invoices and
 * credit notes of a range of days for the accountant.
 */
import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import {
  type Address,
  brandGroups,
  invoices,
  licenceKeys,
  orderLines,
  orders,
  products,
  productVariants,
  type TaxAmount,
} from "~db/schema";
import { toDecimalString } from "~/lib/money";
import { documentNumber, formatRate, sumTaxes } from "~/modules/orders/invoice-document";
import { type DateRange, issuedWithin } from "./invoice-list.server";
import { type OrderListQuery, orderListWhere, orderSortColumn } from "./orders.server";

/** The most rows one export holds; a larger store narrows the export with the list's filters. */
export const EXPORT_MAX_ROWS = 100_000;

/**
 * One CSV field: quoted when needed, and a text a spreadsheet would run as a formula (=, +, -, @, tab, return
 * first) starts with an apostrophe, so an e-mail address or a name typed by a customer cannot run in the owner's
 * spreadsheet. A plain negative amount ("-12.50", a credit) is a number to a spreadsheet, never a formula: it is left
 * as it is.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text))
    text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell as csvField wrote it, read back: the apostrophe put before a formula character comes off again. */
export const csvUnguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

export const csvLine = (fields: Array<string | number | null | undefined>) =>
  `${fields.map(csvField).join(",")}\r\n`;

/**
 * The orders export. `net_after_refunds` is the total less refunds, named apart from the invoices export's `net`
 * (before tax); `test_order` says "yes" for an order placed while test payments were on (no money moved).
 */
export const ORDER_CSV_COLUMNS = [
  "number",
  "created_at",
  "email",
  "status",
  "payment_method",
  "payment_status",
  "test_order",
  "items",
  // What every amount of the row is in: USD or INR (ADR 0039).
  "currency",
  "subtotal",
  "discount_code",
  "discount",
  "shipping",
  "tax",
  "total",
  "refunded",
  "net_after_refunds",
  "awaiting_keys",
  "tracking_number",
  "paid_at",
] as const;

/** Every order the list's search and status filter find, in the list's order. */
export async function ordersCsv(db: Database, query: OrderListQuery): Promise<string> {
  const column = orderSortColumn(query);
  const items = db
    .select({ orderId: orderLines.orderId, n: sql<number>`sum(${orderLines.quantity})`.as("n") })
    .from(orderLines)
    .groupBy(orderLines.orderId)
    .as("items");
  const rows = await db
    .select({
      number: orders.number,
      createdAt: orders.createdAt,
      email: orders.email,
      status: orders.status,
      paymentMethod: orders.paymentMethod,
      paymentStatus: orders.paymentStatus,
      isTest: orders.isTest,
      items: sql<number>`coalesce(${items.n}, 0)`.mapWith(Number),
      currency: orders.currency,
      subtotalCents: orders.subtotalCents,
      discountCode: orders.discountCode,
      discountCents: orders.discountCents,
      shippingCents: orders.shippingCents,
      taxCents: orders.taxCents,
      totalCents: orders.totalCents,
      refundedCents: orders.refundedCents,
      awaitingKeys: orders.awaitingKeys,
      trackingNumber: orders.trackingNumber,
      paidAt: orders.paidAt,
    })
    .from(orders)
    .leftJoin(items, eq(items.orderId, orders.id))
    .where(orderListWhere(query))
    .orderBy(query.dir === "asc" ? asc(column) : desc(column), desc(orders.id))
    .limit(EXPORT_MAX_ROWS);
  return (
    csvLine([...ORDER_CSV_COLUMNS]) +
    rows
      .map((row) =>
        csvLine([
          row.number,
          row.createdAt.toISOString(),
          row.email,
          row.status,
          row.paymentMethod,
          row.paymentStatus,
          row.isTest ? "yes" : "no",
          row.items,
          row.currency,
          toDecimalString(row.subtotalCents),
          row.discountCode,
          toDecimalString(row.discountCents),
          toDecimalString(row.shippingCents),
          toDecimalString(row.taxCents),
          toDecimalString(row.totalCents),
          toDecimalString(row.refundedCents),
          toDecimalString(row.totalCents - row.refundedCents),
          row.awaitingKeys,
          row.trackingNumber,
          row.paidAt?.toISOString() ?? "",
        ]),
      )
      .join("")
  );
}

export const KEY_CSV_COLUMNS = [
  "group",
  "product_id",
  "product",
  "route",
  "key_id",
  "key_hint",
  "state",
  "order_number",
  "added_at",
  "assigned_at",
  // Added after the first ten, so a sheet that reads the older columns by position still finds them.
  "variant_sku",
  "supplier",
  "cost",
  "batch",
] as const;

/**
 * Every licence key of the software pools (or of one product), by hint only: the key itself never leaves the
 * database unencrypted in an export. A key of a variant's pool names its SKU (empty: the product's own pool); an
 * unknown cost is left empty, never written as zero.
 */
export async function keyPoolsCsv(db: Database, productId?: number): Promise<string> {
  const rows = await db
    .select({
      group: brandGroups.name,
      productId: products.externalId,
      product: products.name,
      route: products.route,
      keyId: licenceKeys.id,
      hint: licenceKeys.keyHint,
      orderLineId: licenceKeys.orderLineId,
      revokedAt: licenceKeys.revokedAt,
      orderNumber: orders.number,
      createdAt: licenceKeys.createdAt,
      assignedAt: licenceKeys.assignedAt,
      variantSku: productVariants.sku,
      supplier: licenceKeys.supplier,
      costCents: licenceKeys.costCents,
      batch: licenceKeys.batch,
    })
    .from(licenceKeys)
    .innerJoin(products, eq(products.id, licenceKeys.productId))
    .leftJoin(productVariants, eq(productVariants.id, licenceKeys.variantId))
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .leftJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .leftJoin(orders, eq(orders.id, orderLines.orderId))
    .where(productId === undefined ? undefined : inArray(licenceKeys.productId, [productId]))
    .orderBy(asc(brandGroups.name), asc(products.name), asc(licenceKeys.id))
    .limit(EXPORT_MAX_ROWS);
  return (
    csvLine([...KEY_CSV_COLUMNS]) +
    rows
      .map((row) =>
        csvLine([
          row.group,
          row.productId,
          row.product,
          row.route,
          row.keyId,
          row.hint,
          row.revokedAt ? "revoked" : row.orderLineId ? "assigned" : "available",
          row.orderNumber,
          row.createdAt.toISOString(),
          row.assignedAt?.toISOString() ?? "",
          row.variantSku,
          row.supplier,
          row.costCents === null ? "" : toDecimalString(row.costCents),
          row.batch,
        ]),
      )
      .join("")
  );
}

/**
 * The invoices and credit notes issued in a range of days (UTC), oldest first, from their snapshots: one row each,
 * a column of tax per rate that any of them charged, and credit notes as negative amounts, so that each column's sum
 * is what the range really comes to. Net is the total less its tax, whether prices included tax or not. Documents of
 * test orders (placed while test payments were on) are listed like any other, marked `test_order` "yes".
 */
export async function invoicesCsv(db: Database, range: DateRange): Promise<string> {
  const rows = await db
    .select({
      kind: invoices.kind,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      orderNumber: orders.number,
      isTest: orders.isTest,
      currency: orders.currency,
      totalCents: invoices.totalCents,
      taxCents: invoices.taxCents,
      buyer: sql<{
        name: string;
        email: string;
        taxId: string;
        address: Address;
      }>`${invoices.snapshot}->'buyer'`,
      taxes: sql<TaxAmount[]>`${invoices.snapshot}->'taxes'`,
      paymentMethod: sql<string>`${invoices.snapshot}->>'paymentMethod'`,
      creditFor: sql<string | null>`${invoices.snapshot}->'credit'->>'invoiceNumber'`,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(issuedWithin(range))
    .orderBy(asc(invoices.issuedAt), asc(invoices.kind), asc(invoices.number))
    .limit(EXPORT_MAX_ROWS);
  const rates = sumTaxes(rows.map((row) => row.taxes ?? []))
    .map(({ name, rateBasisPoints }) => ({ name, rateBasisPoints }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.rateBasisPoints - b.rateBasisPoints);
  const money = (cents: number, sign: number) => toDecimalString(sign * cents);
  return (
    csvLine([
      "number",
      "kind",
      "date",
      "order",
      "buyer",
      "email",
      "tax_id",
      "country",
      "region",
      "net",
      ...rates.map((rate) => `tax ${rate.name} ${formatRate(rate.rateBasisPoints)}`),
      "tax",
      "total",
      "currency",
      "payment_method",
      "credit_for",
      "test_order",
    ]) +
    rows
      .map((row) => {
        const sign = row.kind === "credit_note" ? -1 : 1;
        const taxes = row.taxes ?? [];
        return csvLine([
          documentNumber(row.kind, row.number),
          row.kind === "invoice" ? "invoice" : "credit note",
          row.issuedAt.toISOString().slice(0, 10),
          row.orderNumber,
          row.buyer.name,
          row.buyer.email,
          row.buyer.taxId,
          row.buyer.address.country,
          row.buyer.address.region,
          money(row.totalCents - row.taxCents, sign),
          ...rates.map((rate) => {
            const charged = taxes.find(
              (tax) => tax.name === rate.name && tax.rateBasisPoints === rate.rateBasisPoints,
            );
            return charged ? money(charged.taxCents, sign) : "";
          }),
          money(row.taxCents, sign),
          money(row.totalCents, sign),
          row.currency,
          row.paymentMethod,
          row.creditFor ?? "",
          row.isTest ? "yes" : "no",
        ]);
      })
      .join("")
  );
}
