import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import { nameWithVariant } from "~/modules/catalogue/variants";
import type { Database, Transaction } from "~db/client.server";
import {
  documentCounters,
  type Invoice,
  type InvoiceKind,
  type Order,
  type OrderLine,
  orderEvents,
  orderLines,
  orderRefunds,
  orders,
  type OutboxAttachment,
  invoices,
  licenceKeys,
  webInfo,
} from "~db/schema";
import { officesOf } from "~/modules/content/company.server";
import {
  creditContent,
  type DocumentEntry,
  type DocumentLine,
  type DocumentSnapshot,
  documentFilename,
  documentNumber,
  rowTotal,
  subtractTaxes,
  sumTaxes,
} from "./invoice-document";
import { renderDocumentPdf } from "./invoice-pdf.server";
import { longDate, PAYMENT_METHOD_LABELS } from "./labels";
import { termEnd } from "./licence-keys.server";
import { getSettings, storeIdentity } from "./settings.server";

/**
 * Invoices and credit notes (see docs/decisions/0021-invoice-numbers-and-snapshots.md). Each is issued inside the
 * transaction of what it documents (a payment, a refund), takes the next number of its kind's counter there, and
 * keeps a snapshot of everything it prints: the PDF is made from that snapshot, whenever and however often asked.
 */

/**
 * The next number of a kind, from its counter row: the row lock makes concurrent issuers wait their turn, and a
 * rolled-back transaction gives its number back, so numbers have neither gaps nor repeats. The time is read after
 * the lock is held, so dates never go backwards as numbers go up.
 */
async function takeNumber(tx: Transaction, kind: InvoiceKind) {
  const [row] = await tx
    .update(documentCounters)
    .set({ lastNumber: sql`${documentCounters.lastNumber} + 1` })
    .where(eq(documentCounters.kind, kind))
    .returning({
      number: documentCounters.lastNumber,
      issuedAt: sql`clock_timestamp()`.mapWith((value: string | Date) => new Date(value)),
    });
  if (!row) throw new Error(`no document counter for ${kind}: the migrations were not applied`);
  return row;
}

/** Who the store is on a document issued now: its name, offices, contact and tax registrations. */
async function sellerNow(tx: Transaction): Promise<DocumentSnapshot["seller"]> {
  const [[info], identity, store] = await Promise.all([
    tx.select().from(webInfo).limit(1),
    storeIdentity(tx),
    getSettings(tx),
  ]);
  return {
    name: identity.name,
    offices: officesOf(info ?? null),
    email: identity.email,
    phone: identity.phone,
    taxRegistrations: store.taxRegistrations.map(({ label, number, country, regions }) => ({
      label,
      number,
      country,
      regions,
    })),
  };
}

/** An order line as a row; a licence with a term says until when its keys work. */
function lineRow(line: OrderLine, pricesIncludeTax: boolean, keysExpireAt: Date | null): DocumentLine {
  const named = nameWithVariant(line.name, line.variantLabel);
  const row = {
    lineId: line.id,
    description: keysExpireAt ? `${named}; licence until ${longDate(keysExpireAt.toISOString())}` : named,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    amountCents: line.lineTotalCents,
    discountCents: line.discountCents,
    taxes: line.taxes,
    taxCents: line.taxCents,
  };
  return { ...row, totalCents: rowTotal(row, pricesIncludeTax) };
}

/**
 * The shipping as a row. Its taxes per rate are what the order's taxes leave once the lines' are taken away; when
 * those do not add up to the shipping's tax, only its amount is printed.
 */
function shippingRow(order: Order, lines: DocumentLine[]): DocumentLine | null {
  if (order.shippingCents === 0 && order.shippingTaxCents === 0) return null;
  const rest = subtractTaxes(order.taxBreakdown, sumTaxes(lines.map((line) => line.taxes)));
  const restCents = rest.reduce((sum, tax) => sum + tax.taxCents, 0);
  const row = {
    description: "Shipping",
    quantity: 1,
    unitPriceCents: order.shippingCents,
    amountCents: order.shippingCents,
    discountCents: order.shippingDiscountCents,
    taxes: restCents === order.shippingTaxCents && rest.every((tax) => tax.taxCents >= 0) ? rest : [],
    taxCents: order.shippingTaxCents,
  };
  return { ...row, totalCents: rowTotal(row, order.pricesIncludeTax) };
}

const invoiceOf = (tx: Transaction | Database, orderId: number) =>
  tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "invoice")))
    .then((rows) => rows[0]);

const issuedEvent = (tx: Transaction, orderId: number, kind: InvoiceKind, number: number) =>
  tx.insert(orderEvents).values({
    orderId,
    type: kind === "invoice" ? "invoice_issued" : "credit_note_issued",
    actor: "system",
    message: `${kind === "invoice" ? "Invoice" : "Credit note"} ${documentNumber(kind, number)} issued`,
  });

/**
 * The invoice of a paid order, issued now if it has none (in the caller's transaction, which must hold the order's
 * row lock): the next invoice number and a snapshot of the order, the store and its settings as they are now.
 */
export async function issueInvoice(tx: Transaction, orderId: number): Promise<Invoice> {
  const existing = await invoiceOf(tx, orderId);
  if (existing) return existing;
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order?.paidAt) throw new Error(`order ${orderId} is not paid: it has no invoice`);
  const paid = sql`${order.paidAt.toISOString()}::timestamptz`;
  const lines = await tx
    .select({
      line: orderLines,
      // Dated from the payment as the keys are, whenever they arrive.
      keysExpireAt:
        sql<Date | null>`case when ${orderLines.termMonths} is null then null else ${termEnd(paid, orderLines.termMonths)} end`.mapWith(
          licenceKeys.expiresAt,
        ),
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const { number, issuedAt } = await takeNumber(tx, "invoice");
  const rows = lines.map(({ line, keysExpireAt }) =>
    lineRow(line, order.pricesIncludeTax, line.kind === "software" ? keysExpireAt : null),
  );
  const snapshot: DocumentSnapshot = {
    version: 1,
    kind: "invoice",
    number: documentNumber("invoice", number),
    issuedAt: issuedAt.toISOString(),
    currency: order.currency,
    pricesIncludeTax: order.pricesIncludeTax,
    seller: await sellerNow(tx),
    buyer: {
      name: order.billingAddress.name,
      email: order.email,
      address: order.billingAddress,
      taxId: order.buyerTaxId,
    },
    shipTo: order.shippingAddress,
    order: {
      number: order.number,
      placedAt: order.createdAt.toISOString(),
      paidAt: order.paidAt.toISOString(),
    },
    paymentMethod: PAYMENT_METHOD_LABELS[order.paymentMethod] ?? order.paymentMethod,
    discountCode: order.discountCode,
    lines: rows,
    shipping: shippingRow(order, rows),
    taxes: order.taxBreakdown,
    totals: {
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      shippingCents: order.shippingCents,
      taxCents: order.taxCents,
      totalCents: order.totalCents,
    },
    credit: null,
  };
  const [invoice] = await tx
    .insert(invoices)
    .values({
      kind: "invoice",
      number,
      orderId,
      totalCents: order.totalCents,
      taxCents: order.taxCents,
      snapshot,
      issuedAt,
    })
    .returning();
  await issuedEvent(tx, orderId, "invoice", number);
  return invoice!;
}

/**
 * The credit note of one refund (given back before or together with this call): the next credit-note number,
 * naming the invoice it corrects. The refund that brings the order's refunds up to its total completes it.
 */
async function issueCreditNote(tx: Transaction, invoice: Invoice, refundId: number): Promise<Invoice> {
  const [existing] = await tx.select().from(invoices).where(eq(invoices.refundId, refundId));
  if (existing) return existing;
  const [refund] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId));
  if (!refund) throw new Error(`no refund ${refundId}`);
  const [[order], [refunded], earlier] = await Promise.all([
    tx.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, refund.orderId)),
    tx
      .select({ cents: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)`.mapWith(Number) })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, refund.orderId), lte(orderRefunds.id, refundId))),
    tx
      .select({ snapshot: invoices.snapshot })
      .from(invoices)
      .where(and(eq(invoices.orderId, refund.orderId), eq(invoices.kind, "credit_note")))
      .orderBy(asc(invoices.number)),
  ]);
  const corrected = invoice.snapshot as DocumentSnapshot;
  const { basis, ...credited } = creditContent(
    corrected,
    {
      amountCents: refund.amountCents,
      lineIds: refund.lineIds,
      completesOrder: refunded!.cents === order!.totalCents,
    },
    earlier.map((row) => row.snapshot as DocumentSnapshot),
  );
  const { number, issuedAt } = await takeNumber(tx, "credit_note");
  const snapshot: DocumentSnapshot = {
    ...corrected,
    ...credited,
    kind: "credit_note",
    number: documentNumber("credit_note", number),
    issuedAt: issuedAt.toISOString(),
    seller: await sellerNow(tx),
    credit: {
      invoiceNumber: corrected.number,
      invoiceIssuedAt: corrected.issuedAt,
      reason: refund.reason,
      basis,
    },
  };
  const [note] = await tx
    .insert(invoices)
    .values({
      kind: "credit_note",
      number,
      orderId: refund.orderId,
      refundId,
      creditForInvoiceId: invoice.id,
      totalCents: credited.totals.totalCents,
      taxCents: credited.totals.taxCents,
      snapshot,
      issuedAt,
    })
    .returning();
  await issuedEvent(tx, refund.orderId, "credit_note", number);
  return note!;
}

/**
 * Whatever documents a paid order lacks, issued in order in the caller's transaction (which holds the order's row
 * lock): its invoice, then a credit note for each refund without one. Returns the credit notes by refund.
 */
async function issueMissing(tx: Transaction, orderId: number) {
  const invoice = await issueInvoice(tx, orderId);
  const refunds = await tx
    .select({ id: orderRefunds.id })
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(asc(orderRefunds.id));
  const notes = new Map<number, Invoice>();
  for (const refund of refunds) notes.set(refund.id, await issueCreditNote(tx, invoice, refund.id));
  return notes;
}

/**
 * The credit note of a refund just written, in the refund's transaction. An order paid before invoices existed gets
 * its invoice and the credit notes of its earlier refunds first, so each credit note names an invoice.
 */
export async function issueCreditNoteFor(tx: Transaction, orderId: number, refundId: number) {
  const note = (await issueMissing(tx, orderId)).get(refundId);
  if (!note) throw new Error(`refund ${refundId} is not a refund of order ${orderId}`);
  return note;
}

/**
 * An order paid before invoices existed has none until it is asked for: the first download (by its buyer or an
 * admin) issues it, with a credit note for each refund it already had, in one transaction under the order's lock.
 * False for an order that was never paid.
 */
export async function ensureDocuments(db: Database, orderId: number): Promise<boolean> {
  if (await invoiceOf(db, orderId)) return true;
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order?.paidAt) return false;
    await issueMissing(tx, orderId);
    return true;
  });
}

/** What an order page lists of an order's documents: each with its number, date, total and file name. */
export type DocumentLink = DocumentEntry & { id: number };

const toLink = (row: Pick<Invoice, "id" | "kind" | "number" | "issuedAt" | "totalCents">): DocumentLink => ({
  id: row.id,
  kind: row.kind,
  number: documentNumber(row.kind, row.number),
  filename: documentFilename(row.kind, row.number),
  issuedAt: row.issuedAt.toISOString(),
  totalCents: row.totalCents,
});

/** The documents of one order: its invoice first, then its credit notes in order. */
export async function orderDocuments(db: Database | Transaction, orderId: number): Promise<DocumentLink[]> {
  const rows = await db
    .select({
      id: invoices.id,
      kind: invoices.kind,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      totalCents: invoices.totalCents,
    })
    .from(invoices)
    .where(eq(invoices.orderId, orderId))
    .orderBy(desc(sql`${invoices.kind} = 'invoice'`), asc(invoices.number));
  return rows.map(toLink);
}

/**
 * One document of an order as a PDF, by the name it downloads as ("invoice.pdf" is the order's invoice, issued now
 * for an order paid before invoices existed). Null when the order has no such document.
 */
export async function orderDocumentPdf(
  db: Database,
  orderId: number,
  file: string,
): Promise<{ filename: string; pdf: Buffer } | null> {
  let row: Invoice | undefined;
  if (file === "invoice.pdf") {
    if (!(await ensureDocuments(db, orderId))) return null;
    row = await invoiceOf(db, orderId);
  } else {
    const name = /^(INV|CN)-(\d{6,9})\.pdf$/.exec(file);
    if (!name) return null;
    [row] = await db
      .select()
      .from(invoices)
      .where(
        and(
          eq(invoices.orderId, orderId),
          eq(invoices.kind, name[1] === "INV" ? "invoice" : "credit_note"),
          eq(invoices.number, Number(name[2])),
        ),
      );
  }
  if (!row) return null;
  return {
    filename: documentFilename(row.kind, row.number),
    pdf: await renderDocumentPdf(row.snapshot as DocumentSnapshot),
  };
}

/** A document's PDF as a download: never cached, never shown in the page, named by its number. */
export function documentDownload(document: { filename: string; pdf: Buffer }): Response {
  return new Response(new Uint8Array(document.pdf), {
    headers: {
      "Cache-Control": "private, no-store",
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${document.filename}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** What an e-mail carries to attach a document when it is sent. */
export const documentAttachment = (document: Pick<Invoice, "id" | "kind" | "number">): OutboxAttachment => ({
  kind: "invoice",
  invoiceId: document.id,
  filename: documentFilename(document.kind, document.number),
});

/** The mailer's maker of attachments: the PDF of a stored document, made from its snapshot. */
export async function attachmentContent(db: Database, attachment: OutboxAttachment) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, attachment.invoiceId));
  if (!row) throw new Error(`the attached document ${attachment.invoiceId} does not exist`);
  return {
    filename: attachment.filename,
    contentType: "application/pdf",
    content: await renderDocumentPdf(row.snapshot as DocumentSnapshot),
  };
}
