import type { Currency } from "~/lib/money";
import type { Address, InvoiceKind, TaxAmount } from "~db/schema/orders";

/**
 * Invoices and credit notes as printed: their numbers, file names and the snapshot a PDF is made from. Pure code,
 * shared by the server (issuing, PDFs, exports) and the pages (links, lists).
 */

const PREFIXES: Record<InvoiceKind, string> = { invoice: "INV", credit_note: "CN" };

export const DOCUMENT_TITLES: Record<InvoiceKind, string> = {
  invoice: "Invoice",
  credit_note: "Credit note",
};

/** A document as an order page lists it: its kind, number, file name, date and total. */
export type DocumentEntry = {
  kind: InvoiceKind;
  number: string;
  filename: string;
  issuedAt: string;
  totalCents: number;
};

/** The one way a document's number is printed: INV-000123, CN-000007 (more digits once past 999,999). */
export function documentNumber(kind: InvoiceKind, number: number): string {
  return `${PREFIXES[kind]}-${String(number).padStart(6, "0")}`;
}

/** The name a document downloads or is attached as: INV-000123.pdf. */
export const documentFilename = (kind: InvoiceKind, number: number) => `${documentNumber(kind, number)}.pdf`;

/**
 * A document number as someone types it into a search: "INV-000123", "inv-123", "CN 7", or a plain "123" (either
 * kind). Null when it is not a number at all.
 */
export function parseDocumentNumber(text: string): { kind?: InvoiceKind; number: number } | null {
  const match = /^\s*(inv|cn)?[\s#-]*0*(\d{1,9})\s*(?:\.pdf)?\s*$/i.exec(text);
  if (!match) return null;
  const number = Number(match[2]);
  if (number < 1) return null;
  const prefix = match[1]?.toLowerCase();
  return { kind: prefix === "inv" ? "invoice" : prefix === "cn" ? "credit_note" : undefined, number };
}

/** A tax rate in basis points as people read it: 1800 -> "18%", 888 -> "8.88%", 625 -> "6.25%". */
export function formatRate(basisPoints: number): string {
  return `${(basisPoints / 100).toFixed(2).replace(/\.?0+$/, "")}%`;
}

/** One row of a document: an order line, the shipping, or the amount a credit note gives back. */
export type DocumentLine = {
  /** The order line it prints (not printed itself); none for shipping and credited amounts. */
  lineId?: number;
  description: string;
  quantity: number;
  unitPriceCents: number;
  /** quantity × unit price, before the discount. */
  amountCents: number;
  discountCents: number;
  /** Each tax on the row: its name, rate, what it was charged on and how much. */
  taxes: TaxAmount[];
  taxCents: number;
  /** What the row comes to: the amount less the discount, plus the tax unless prices include it. */
  totalCents: number;
};

export type SellerTaxRegistration = { label: string; number: string; country: string; regions: string[] };

/**
 * Everything an issued document prints, as it was when it was issued. The PDF is made from this alone, so no later
 * change to the store, its settings or the order changes a document once issued.
 */
export type DocumentSnapshot = {
  version: 1;
  kind: InvoiceKind;
  /** As printed: INV-000123. */
  number: string;
  issuedAt: string;
  /** What every amount of it is in: the order's currency. */
  currency: Currency;
  pricesIncludeTax: boolean;
  seller: {
    name: string;
    offices: Array<{ label: string; address: string }>;
    email: string;
    phone: string;
    taxRegistrations: SellerTaxRegistration[];
  };
  buyer: { name: string; email: string; address: Address; taxId: string };
  /** Where physical goods went; null when nothing shipped. */
  shipTo: Address | null;
  order: { number: number; placedAt: string; paidAt: string | null };
  paymentMethod: string;
  discountCode: string;
  lines: DocumentLine[];
  /** The shipping charge as a row (with its discount and tax); null when the order had none. */
  shipping: DocumentLine | null;
  /** The tax per rate: what "totals per rate" prints. */
  taxes: TaxAmount[];
  totals: {
    /** The lines before discount. */
    subtotalCents: number;
    /** Everything taken off, the shipping's share included. */
    discountCents: number;
    /** Shipping before its discount. */
    shippingCents: number;
    taxCents: number;
    totalCents: number;
  };
  /** A credit note: the invoice it corrects and why. */
  credit: {
    invoiceNumber: string;
    invoiceIssuedAt: string;
    reason: string;
    /** "lines": the refunded rows as invoiced; "share": the amount, its taxes worked out pro rata. */
    basis: "lines" | "share";
  } | null;
};

/** The total of a row: its amount less its discount, plus its tax when prices do not include it. */
export const rowTotal = (
  row: Pick<DocumentLine, "amountCents" | "discountCents" | "taxCents">,
  pricesIncludeTax: boolean,
) => row.amountCents - row.discountCents + (pricesIncludeTax ? 0 : row.taxCents);

/** What the buyer paid for an order line: its price less its discount, with its tax unless prices include it. */
export const linePaidCents = (
  line: { lineTotalCents: number; discountCents: number; taxCents: number },
  pricesIncludeTax: boolean,
) =>
  rowTotal(
    { amountCents: line.lineTotalCents, discountCents: line.discountCents, taxCents: line.taxCents },
    pricesIncludeTax,
  );

/** Whole cents of value × part / whole, halves rounded up (integers only, exact however large the amounts). */
export function shareHalfUp(value: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  const numerator = BigInt(value) * BigInt(part);
  const sign = numerator < 0n ? -1n : 1n;
  const magnitude = numerator * sign;
  return Number((sign * (2n * magnitude + BigInt(whole))) / (2n * BigInt(whole)));
}

/** Adds taxes up by name and rate, in the order first met. */
export function sumTaxes(lists: TaxAmount[][]): TaxAmount[] {
  const sums = new Map<string, TaxAmount>();
  for (const tax of lists.flat()) {
    const key = `${tax.name}\u0000${tax.rateBasisPoints}`;
    const sum = sums.get(key) ?? {
      name: tax.name,
      rateBasisPoints: tax.rateBasisPoints,
      taxableCents: 0,
      taxCents: 0,
    };
    sum.taxableCents += tax.taxableCents;
    sum.taxCents += tax.taxCents;
    sums.set(key, sum);
  }
  return [...sums.values()];
}

/** `a` less `b`, tax by tax (by name and rate); rates left with nothing are dropped. */
export function subtractTaxes(a: TaxAmount[], b: TaxAmount[]): TaxAmount[] {
  const negated = b.map((tax) => ({ ...tax, taxableCents: -tax.taxableCents, taxCents: -tax.taxCents }));
  return sumTaxes([a, negated]).filter((tax) => tax.taxCents !== 0 || tax.taxableCents !== 0);
}

type Credited = Pick<DocumentSnapshot, "lines" | "shipping" | "taxes" | "totals"> & {
  basis: "lines" | "share";
};

/**
 * What a credit note gives back, from the invoice it corrects:
 * - when the refund is exactly the refunded lines as invoiced (and, for the refund that completes the order, the
 *   shipping not credited before), those rows are copied with their discount and taxes;
 * - otherwise (an amount, or a line refunded for less than it cost) one row of the amount, its tax per rate worked
 *   out as the same share of the invoice's tax as the amount is of the invoice's total (halves rounded up), and the
 *   refund that completes the order takes what is left of each tax, so that an order's credit notes add up to its
 *   invoice to the cent.
 */
export function creditContent(
  invoice: DocumentSnapshot,
  refund: { amountCents: number; lineIds: number[]; completesOrder: boolean },
  earlier: DocumentSnapshot[],
): Credited {
  const include = invoice.pricesIncludeTax;
  const rows = invoice.lines.filter(
    (line) => line.lineId !== undefined && refund.lineIds.includes(line.lineId),
  );
  const shippingCreditedBefore = earlier.some((credit) => credit.shipping !== null);
  const shipping = refund.completesOrder && !shippingCreditedBefore ? invoice.shipping : null;
  const items = [...rows, ...(shipping ? [shipping] : [])];
  const sum = (pick: (row: DocumentLine) => number, list = items) =>
    list.reduce((total, row) => total + pick(row), 0);
  if (items.length > 0 && sum((row) => row.totalCents) === refund.amountCents) {
    return {
      basis: "lines",
      lines: rows,
      shipping,
      taxes: sumTaxes(items.map((row) => row.taxes)),
      totals: {
        subtotalCents: sum((row) => row.amountCents, rows),
        discountCents: sum((row) => row.discountCents),
        shippingCents: shipping?.amountCents ?? 0,
        taxCents: sum((row) => row.taxCents),
        totalCents: refund.amountCents,
      },
    };
  }
  const whole = invoice.totals.totalCents;
  let taxes: TaxAmount[];
  let taxCents: number;
  if (refund.completesOrder) {
    taxes = subtractTaxes(invoice.taxes, sumTaxes(earlier.map((credit) => credit.taxes)));
    taxCents = invoice.totals.taxCents - earlier.reduce((total, credit) => total + credit.totals.taxCents, 0);
  } else {
    taxes = invoice.taxes
      .map((tax) => ({
        ...tax,
        taxableCents: shareHalfUp(refund.amountCents, tax.taxableCents, whole),
        taxCents: shareHalfUp(refund.amountCents, tax.taxCents, whole),
      }))
      .filter((tax) => tax.taxCents !== 0 || tax.taxableCents !== 0);
    taxCents =
      invoice.taxes.length > 0
        ? taxes.reduce((total, tax) => total + tax.taxCents, 0)
        : shareHalfUp(refund.amountCents, invoice.totals.taxCents, whole);
  }
  const net = refund.amountCents - (include ? 0 : taxCents);
  const named = rows.map((row) => `${row.quantity} × ${row.description}`).join(", ");
  return {
    basis: "share",
    lines: [
      {
        description: named ? `Refund for ${named}` : `Refund on order #${invoice.order.number}`,
        quantity: 1,
        unitPriceCents: net,
        amountCents: net,
        discountCents: 0,
        taxes,
        taxCents,
        totalCents: refund.amountCents,
      },
    ],
    shipping: null,
    taxes,
    totals: {
      subtotalCents: net,
      discountCents: 0,
      shippingCents: 0,
      taxCents,
      totalCents: refund.amountCents,
    },
  };
}
