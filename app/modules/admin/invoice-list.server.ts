import type { Currency } from "~/lib/money";
import { and, count, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { INVOICE_KINDS, invoices, orders } from "~db/schema";
import { documentFilename, documentNumber, parseDocumentNumber } from "~/modules/orders/invoice-document";
import { type ListPage, offsetOf } from "./list-query";

/** A calendar day as the date inputs send it (YYYY-MM-DD); a day that does not exist (2026-02-30) is refused. */
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Give the day as YYYY-MM-DD")
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text) && text >= "2000-01-01";
  }, "That day does not exist (or is before 2000)");

/** Days counted in UTC, the store's clock: `to` is included whole. */
const dateRange = z.object({ from: day, to: day }).refine((range) => range.from <= range.to, {
  message: "The first day must not be after the last",
  path: ["to"],
});
export type DateRange = z.infer<typeof dateRange>;

/** The range of an export: both days are needed. */
export const exportRange = dateRange;

/** Documents issued from the start of `from` to the end of `to` (UTC). */
export function issuedWithin(range: DateRange): SQL {
  const end = new Date(`${range.to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return and(gte(invoices.issuedAt, new Date(`${range.from}T00:00:00Z`)), lt(invoices.issuedAt, end))!;
}

/** This month so far: what the export offers when the list has no range of its own. */
export function monthSoFar(now = new Date()): DateRange {
  const today = now.toISOString().slice(0, 10);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** The list's query from its URL: a number search, a kind, an optional range of days, a page. */
export const invoiceListQuery = z.object({
  q: z.string().trim().max(40).catch(""),
  kind: z.enum(["all", ...INVOICE_KINDS]).catch("all"),
  from: z.string().trim().max(10).catch(""),
  to: z.string().trim().max(10).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(5).max(100).catch(25),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

/**
 * The range the list's query asks for: none when both days are empty, the range when both are good, or what is
 * wrong with it (said above the list, which then shows nothing).
 */
export function listRange(query: Pick<InvoiceListQuery, "from" | "to">) {
  if (!query.from && !query.to) return { ok: true as const, range: null };
  const parsed = dateRange.safeParse({ from: query.from, to: query.to });
  if (parsed.success) return { ok: true as const, range: parsed.data };
  const missing = !query.from ? "Choose the first day too" : !query.to ? "Choose the last day too" : null;
  return { ok: false as const, message: missing ?? parsed.error.issues[0]!.message };
}

export type InvoiceRow = {
  id: number;
  kind: (typeof INVOICE_KINDS)[number];
  number: string;
  filename: string;
  issuedAt: string;
  orderNumber: number;
  buyer: string;
  totalCents: number;
  /** The order's currency, what the total is in. */
  currency: Currency;
  creditFor: string | null;
  /** Issued for a test order (test payments): no money moved. */
  isTest: boolean;
};

/** Invoices and credit notes, newest first: found by number (INV-000123, CN-7, or a plain order number too). */
export async function listInvoices(db: Database, query: InvoiceListQuery): Promise<ListPage<InvoiceRow>> {
  const range = listRange(query);
  if (!range.ok) return { rows: [], total: 0 };
  const filters: SQL[] = [];
  if (range.range) filters.push(issuedWithin(range.range));
  if (query.kind !== "all") filters.push(eq(invoices.kind, query.kind));
  if (query.q) {
    const wanted = parseDocumentNumber(query.q);
    if (!wanted) return { rows: [], total: 0 };
    filters.push(
      wanted.kind
        ? and(eq(invoices.kind, wanted.kind), eq(invoices.number, wanted.number))!
        : or(eq(invoices.number, wanted.number), eq(orders.number, wanted.number))!,
    );
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: invoices.id,
        kind: invoices.kind,
        number: invoices.number,
        issuedAt: invoices.issuedAt,
        orderNumber: orders.number,
        buyer: sql<string>`${invoices.snapshot}->'buyer'->>'name'`,
        email: sql<string>`${invoices.snapshot}->'buyer'->>'email'`,
        totalCents: invoices.totalCents,
        currency: orders.currency,
        creditFor: sql<string | null>`${invoices.snapshot}->'credit'->>'invoiceNumber'`,
        isTest: orders.isTest,
      })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(where)
      .orderBy(desc(invoices.issuedAt), desc(invoices.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(invoices).innerJoin(orders, eq(orders.id, invoices.orderId)).where(where),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      number: documentNumber(row.kind, row.number),
      filename: documentFilename(row.kind, row.number),
      issuedAt: row.issuedAt.toISOString(),
      orderNumber: row.orderNumber,
      buyer: row.buyer || row.email,
      totalCents: row.totalCents,
      currency: row.currency,
      creditFor: row.creditFor,
      isTest: row.isTest,
    })),
    total: total?.n ?? 0,
  };
}
