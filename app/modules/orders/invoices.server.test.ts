import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";
import { describe, expect, it } from "vitest";
import {
  documentCounters,
  type InvoiceKind,
  invoices,
  orderLines,
  orderRefunds,
  orders,
  outboxEmails,
  webInfo,
} from "~db/schema";
import { formatMoney } from "~/lib/money";
import { resendEmail } from "~/modules/admin/emails.server";
import { markOrderPaid } from "./lifecycle.server";
import { refundOrder } from "./refunds.server";
import { createMailer } from "~/modules/email/outbox.server";
import { recordingLogger } from "../../../tests/support/logger";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { placeCheckout, useDemoStore } from "../../../tests/support/orders";
import { pdfText } from "../../../tests/support/pdf";
import { BUYER_IN_LUCKNOW, taxOrder } from "../../../tests/support/invoices";
import type { DocumentSnapshot } from "./invoice-document";
import { attachmentContent, orderDocumentPdf, orderDocuments } from "./invoices.server";
import { markPaid, type OrdersContext } from "./orders.server";
import { saveSettings } from "./settings.server";

const ADMIN = "owner@example.com";

describe.each(drivers)("invoices and credit notes on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  const place = (overrides: Parameters<typeof placeCheckout>[1] = {}) => placeCheckout(ctx, overrides);
  const documentsOf = (orderId: number) =>
    database.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, orderId))
      .orderBy(asc(invoices.kind), asc(invoices.number));
  const lastNumber = async (kind: InvoiceKind) =>
    (await database.db.select().from(documentCounters).where(eq(documentCounters.kind, kind)))[0]!.lastNumber;
  const invoiceText = async (orderId: number, file = "invoice.pdf") =>
    pdfText((await orderDocumentPdf(database.db, orderId, file))!.pdf);

  it("issues a paid order's invoice in its payment's transaction, and the receipt carries it", async () => {
    const before = await lastNumber("invoice");
    const order = await place({
      email: "receipt@example.com",
      cart: [
        { groupKey: "Norton", id: "1", quantity: 2 },
        { groupKey: "tplink", id: "1", quantity: 1 },
      ],
    });
    const [invoice, ...others] = await documentsOf(order.orderId);
    expect(others).toEqual([]);
    const [row] = await database.db.select().from(orders).where(eq(orders.id, order.orderId));
    const lines = await database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.orderId))
      .orderBy(asc(orderLines.id));
    expect(invoice).toMatchObject({ kind: "invoice", number: before + 1, totalCents: row!.totalCents });
    const snapshot = invoice!.snapshot as DocumentSnapshot;
    expect(snapshot).toMatchObject({
      number: `INV-${String(before + 1).padStart(6, "0")}`,
      seller: { name: "KeyHaven Tech Store" },
      buyer: { name: "Ada Lovelace", email: "receipt@example.com" },
      order: { number: order.number },
      paymentMethod: "Test payment (demo store)",
      totals: { subtotalCents: row!.subtotalCents, totalCents: row!.totalCents },
    });
    expect(snapshot.lines.map((line) => [line.description, line.quantity, line.totalCents])).toEqual(
      lines.map((line) => [line.name, line.quantity, line.lineTotalCents]),
    );
    expect(snapshot.shipping?.amountCents ?? 0).toBe(row!.shippingCents);

    const [receipt] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order.orderId), eq(outboxEmails.kind, "payment-receipt")));
    expect(receipt!.attachments).toEqual([
      { kind: "invoice", invoiceId: invoice!.id, filename: `${snapshot.number}.pdf` },
    ]);
    expect(receipt!.text).toContain(`Your invoice ${snapshot.number} is attached.`);
    expect(await orderDocuments(database.db, order.orderId)).toEqual([
      expect.objectContaining({
        kind: "invoice",
        number: snapshot.number,
        filename: `${snapshot.number}.pdf`,
      }),
    ]);

    // A bank transfer has no invoice until the store records the payment.
    const bank = await place({ paymentMethod: "bank-transfer" });
    expect(await documentsOf(bank.orderId)).toEqual([]);
    expect(await orderDocumentPdf(database.db, bank.orderId, "invoice.pdf")).toBeNull();
    expect(await lastNumber("invoice")).toBe(before + 1);
    await markOrderPaid(ctx, bank.number, ADMIN);
    expect((await documentsOf(bank.orderId)).map((document) => document.number)).toEqual([before + 2]);
  });

  it("numbers 20 payments made at once one after another, with no gap, no repeat, and dates in order", async () => {
    const placed = [];
    for (let n = 0; n < 20; n++) placed.push(await place({ paymentMethod: "bank-transfer" }));
    const before = await lastNumber("invoice");
    await Promise.all(placed.map((order) => markOrderPaid(ctx, order.number, ADMIN)));
    const issued = await database.db
      .select()
      .from(invoices)
      .where(
        inArray(
          invoices.orderId,
          placed.map((order) => order.orderId),
        ),
      )
      .orderBy(asc(invoices.number));
    expect(issued.map((invoice) => invoice.number)).toEqual(
      Array.from({ length: 20 }, (_, n) => before + 1 + n),
    );
    expect(new Set(issued.map((invoice) => invoice.orderId)).size).toBe(20);
    expect(await lastNumber("invoice")).toBe(before + 20);
    const times = issued.map((invoice) => invoice.issuedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("gives back the number of a payment whose transaction rolls back: the next payment takes it", async () => {
    const failing = await place({ paymentMethod: "bank-transfer" });
    const next = await place({ paymentMethod: "bank-transfer" });
    const before = await lastNumber("invoice");
    await expect(
      database.db.transaction(async (tx) => {
        await markPaid(tx, ctx, failing.orderId, "system", "Paid");
        // Something later in the same transaction fails: the payment, its invoice and its number go together.
        throw new Error("the card network answered too late");
      }),
    ).rejects.toThrow("too late");
    expect(await lastNumber("invoice")).toBe(before);
    expect(await documentsOf(failing.orderId)).toEqual([]);
    await markOrderPaid(ctx, next.number, ADMIN);
    expect((await documentsOf(next.orderId))[0]!.number).toBe(before + 1);
  });

  it("gives each refund a credit note numbered in turn, naming its invoice and refund; together they equal the invoice", async () => {
    const order = await place({
      email: "credits@example.com",
      cart: [
        { groupKey: "Norton", id: "1", quantity: 1 },
        { groupKey: "McAfee", id: "1", quantity: 2 },
      ],
    });
    const [, mcafee] = await database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.orderId))
      .orderBy(asc(orderLines.id));
    const before = await lastNumber("credit_note");
    await refundOrder(ctx, order.number, { mode: "line", lineId: mcafee!.id, reason: "Bought twice" }, ADMIN);
    await refundOrder(ctx, order.number, { mode: "amount", amountCents: 333 }, ADMIN);
    await refundOrder(ctx, order.number, { mode: "full" }, ADMIN);
    const documents = await documentsOf(order.orderId);
    const invoice = documents.find((document) => document.kind === "invoice")!;
    const notes = documents.filter((document) => document.kind === "credit_note");
    const refunds = await database.db
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, order.orderId))
      .orderBy(asc(orderRefunds.id));
    expect(notes.map((note) => note.number)).toEqual([before + 1, before + 2, before + 3]);
    expect(notes.map((note) => note.refundId)).toEqual(refunds.map((refund) => refund.id));
    expect(notes.every((note) => note.creditForInvoiceId === invoice.id)).toBe(true);
    expect(notes.map((note) => note.totalCents)).toEqual(refunds.map((refund) => refund.amountCents));
    expect(notes.reduce((sum, note) => sum + note.totalCents, 0)).toBe(invoice.totalCents);
    const first = notes[0]!.snapshot as DocumentSnapshot;
    expect(first).toMatchObject({
      kind: "credit_note",
      credit: {
        invoiceNumber: (invoice.snapshot as DocumentSnapshot).number,
        reason: "Bought twice",
        basis: "lines",
      },
    });
    expect(first.lines.map((line) => line.description)).toEqual([mcafee!.name]);
    expect((notes[1]!.snapshot as DocumentSnapshot).credit!.basis).toBe("share");

    const mails = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order.orderId), eq(outboxEmails.kind, "refund")))
      .orderBy(asc(outboxEmails.id));
    expect(mails.map((mail) => mail.attachments)).toEqual(
      notes.map((note) => [
        { kind: "invoice", invoiceId: note.id, filename: `CN-${String(note.number).padStart(6, "0")}.pdf` },
      ]),
    );
    expect(mails[0]!.text).toContain(
      `Your credit note CN-${String(before + 1).padStart(6, "0")} is attached.`,
    );
    const text = await invoiceText(order.orderId, `CN-${String(before + 1).padStart(6, "0")}.pdf`);
    expect(text).toContain(`Credits invoice ${(invoice.snapshot as DocumentSnapshot).number}`);
    expect(text).toContain(`Total credited ${formatMoney(mcafee!.lineTotalCents)}`);
  });

  it("keeps an issued invoice as it was when the store, its settings or the order change later", async () => {
    const order = await place({ email: "unchanged@example.com" });
    const before = await invoiceText(order.orderId);
    expect(before).toContain("KeyHaven Tech Store");
    expect(before).toContain("Ada Lovelace");
    await database.db.update(webInfo).set({ name: "Renamed Store Ltd" });
    await saveSettings(database.db, {
      pricesIncludeTax: true,
      taxRegistrations: [{ country: "US", label: "EIN", number: "98-7654321", regions: ["NY"] }],
    });
    await database.db
      .update(orders)
      .set({
        billingAddress: sql`jsonb_set(${orders.billingAddress}, '{name}', '"Somebody Else"')`,
        email: "changed@example.com",
      })
      .where(eq(orders.id, order.orderId));
    await database.db
      .update(orderLines)
      .set({ name: "Renamed product" })
      .where(eq(orderLines.orderId, order.orderId));
    expect(await invoiceText(order.orderId)).toBe(before);
    // A credit note issued now is a new document: the store as it is now, the buyer as invoiced.
    await refundOrder(ctx, order.number, { mode: "full" }, ADMIN);
    const [note] = (await documentsOf(order.orderId)).filter((document) => document.kind === "credit_note");
    expect(note!.snapshot).toMatchObject({
      seller: { name: "Renamed Store Ltd", taxRegistrations: [{ label: "EIN", number: "98-7654321" }] },
      buyer: { name: "Ada Lovelace", email: "unchanged@example.com" },
    });
    expect(await invoiceText(order.orderId)).toBe(before);
    await database.db.update(webInfo).set({ name: "KeyHaven Tech Store" });
    await saveSettings(database.db, { pricesIncludeTax: false, taxRegistrations: [] });
  });

  it("sends the receipt with the invoice's PDF attached, made from its snapshot when sent; a resend keeps it", async () => {
    const received: Buffer[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push(Buffer.concat(chunks));
          done();
        });
      },
    });
    smtp.listen(0, "127.0.0.1");
    await once(smtp.server, "listening");
    try {
      const order = await place({ email: "attached@example.com" });
      const [receipt] = await database.db
        .select()
        .from(outboxEmails)
        .where(and(eq(outboxEmails.orderId, order.orderId), eq(outboxEmails.kind, "payment-receipt")));
      // Only this order's receipt is due: what the other tests and the order's other e-mails wrote is out of the way.
      await database.db.update(outboxEmails).set({ status: "sent" }).where(ne(outboxEmails.id, receipt!.id));
      const mailer = createMailer({
        db: database.db,
        logger: recordingLogger().logger,
        from: "store@example.com",
        smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
        attachments: (attachment) => attachmentContent(database.db, attachment),
      });
      const [invoice] = await documentsOf(order.orderId);
      const number = (invoice!.snapshot as DocumentSnapshot).number;
      const expectAttached = async (raw: Buffer) => {
        const mail = await PostalMime.parse(raw);
        expect(mail.subject).toBe(`Payment received for order #${order.number}`);
        expect(mail.text).toContain(`Your invoice ${number} is attached.`);
        expect(mail.attachments.map((file) => [file.filename, file.mimeType])).toEqual([
          [`${number}.pdf`, "application/pdf"],
        ]);
        const text = await pdfText(new Uint8Array(mail.attachments[0]!.content as ArrayBuffer));
        expect(text).toContain(`INVOICE ${number}`);
        expect(text).toContain("attached@example.com");
      };
      // A process that cannot make the attachment never sends the message without it: it is tried again later.
      const without = createMailer({
        db: database.db,
        logger: recordingLogger().logger,
        from: "store@example.com",
        smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      });
      await without.dispatch();
      await without.stop();
      expect(received).toHaveLength(0);
      const [kept] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, receipt!.id));
      expect(kept).toMatchObject({ status: "pending", attempts: 1 });
      expect(kept!.lastError).toMatch(/cannot make the e-mail's attachments/);
      await database.db
        .update(outboxEmails)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(outboxEmails.id, receipt!.id));

      await mailer.dispatch();
      expect(received).toHaveLength(1);
      await expectAttached(received[0]!);
      expect(
        (await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, receipt!.id)))[0]!.status,
      ).toBe("sent");

      const copy = await resendEmail(database.db, receipt!.id, ADMIN);
      const [copied] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, copy!));
      expect(copied!.attachments).toEqual(receipt!.attachments);
      await mailer.dispatch();
      await mailer.stop();
      expect(received).toHaveLength(2);
      await expectAttached(received[1]!);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  /** An order paid the way orders were paid before invoices existed: no invoice was issued. */
  async function paidBeforeInvoices(refundedCents = 0) {
    const order = await place({ paymentMethod: "bank-transfer" });
    await database.db
      .update(orders)
      .set({ status: "paid", paymentStatus: "paid", paidAt: sql`now() - interval '30 days'` })
      .where(eq(orders.id, order.orderId));
    if (refundedCents > 0) {
      await database.db.insert(orderRefunds).values({
        orderId: order.orderId,
        amountCents: refundedCents,
        kind: "amount",
        createdBy: ADMIN,
      });
      await database.db
        .update(orders)
        .set({ refundedCents, paymentStatus: "partially_refunded" })
        .where(eq(orders.id, order.orderId));
    }
    return order;
  }

  it("issues an invoice for an order paid before invoices existed when it is first downloaded, once", async () => {
    const order = await paidBeforeInvoices(500);
    expect(await orderDocuments(database.db, order.orderId)).toEqual([]);
    const invoicesBefore = await lastNumber("invoice");
    const notesBefore = await lastNumber("credit_note");
    // Two downloads at once: one invoice.
    const [a, b] = await Promise.all([
      orderDocumentPdf(database.db, order.orderId, "invoice.pdf"),
      orderDocumentPdf(database.db, order.orderId, "invoice.pdf"),
    ]);
    expect(a!.filename).toBe(`INV-${String(invoicesBefore + 1).padStart(6, "0")}.pdf`);
    expect(b!.filename).toBe(a!.filename);
    const documents = await documentsOf(order.orderId);
    expect(documents.map((document) => [document.kind, document.number])).toEqual([
      ["credit_note", notesBefore + 1],
      ["invoice", invoicesBefore + 1],
    ]);
    expect(documents[0]!.totalCents).toBe(500);
    expect(await lastNumber("invoice")).toBe(invoicesBefore + 1);
    expect(await lastNumber("credit_note")).toBe(notesBefore + 1);

    // An unpaid order has none, and asking takes no number.
    const unpaid = await place({ paymentMethod: "bank-transfer" });
    expect(await orderDocumentPdf(database.db, unpaid.orderId, "invoice.pdf")).toBeNull();
    expect(await lastNumber("invoice")).toBe(invoicesBefore + 1);
    // Names that are not this order's documents are nothing.
    for (const file of ["INV-000001.pdf", "CN-999999.pdf", "../invoice.pdf", "invoice.PDF", ""])
      expect(await orderDocumentPdf(database.db, unpaid.orderId, file)).toBeNull();
  });

  it("issues the invoice first when an order paid before invoices existed is refunded", async () => {
    const order = await paidBeforeInvoices(200);
    await refundOrder(ctx, order.number, { mode: "amount", amountCents: 300 }, ADMIN);
    const documents = await documentsOf(order.orderId);
    const invoice = documents.find((document) => document.kind === "invoice")!;
    const notes = documents.filter((document) => document.kind === "credit_note");
    // The earlier refund's credit note comes first, then the new one's; both name the invoice.
    expect(notes.map((note) => note.totalCents)).toEqual([200, 300]);
    expect(notes[1]!.number).toBe(notes[0]!.number + 1);
    expect(notes.every((note) => note.creditForInvoiceId === invoice.id)).toBe(true);
  });

  it("prints the discount and tax columns, the tax per rate and the totals the order has, and a Hindi name", async () => {
    await saveSettings(database.db, {
      shipsTo: ["US", "IN"],
      taxRegistrations: [{ country: "IN", label: "GSTIN", number: "09AAACK1234F1Z5", regions: ["UP"] }],
    });
    const buyer = BUYER_IN_LUCKNOW;
    const order = await place({
      paymentMethod: "bank-transfer",
      billing: buyer,
      cart: [
        { groupKey: "Norton", id: "1", quantity: 2 },
        { groupKey: "tplink", id: "1", quantity: 1 },
      ],
    });
    // The figures the discount and tax engine writes at placement: 10% off each line, CGST and SGST at 9% each.
    await database.db
      .update(orders)
      .set({ buyerTaxId: "09ABCDE1234F1Z5" })
      .where(eq(orders.id, order.orderId));
    const taxed = await taxOrder(database.db, order.orderId);
    const { shippingCents, shippingTax, discount, tax, total } = taxed;
    const [cgst] = taxed.breakdown;
    await markOrderPaid(ctx, order.number, ADMIN);

    const text = await invoiceText(order.orderId);
    const [invoice] = await documentsOf(order.orderId);
    for (const expected of [
      `INVOICE ${(invoice!.snapshot as DocumentSnapshot).number}`,
      "KeyHaven Tech Store",
      "India office: Office 402, Example Business Centre",
      "GSTIN 09AAACK1234F1Z5 (UP)",
      "BILL TO राम कुमार 12 MG Road Lucknow, UP 226001 India",
      "Tax ID: 09ABCDE1234F1Z5",
      `Order #${order.number}`,
      "Payment: Bank transfer",
      ...taxed.lines.map(
        (entry) =>
          `${entry.line.name} ${entry.line.quantity} ${formatMoney(entry.line.unitPriceCents)} ${formatMoney(-entry.discount)} CGST 9% SGST 9% ${formatMoney(entry.tax)} ${formatMoney(entry.net + entry.tax)}`,
      ),
      `Shipping 1 ${formatMoney(shippingCents)} — CGST 9% SGST 9% ${formatMoney(shippingTax)} ${formatMoney(shippingCents + shippingTax)}`,
      `Subtotal ${formatMoney(taxed.order.subtotalCents)}`,
      `Discount (SAVE10) ${formatMoney(-discount)}`,
      `Shipping ${formatMoney(shippingCents)}`,
      `Tax ${formatMoney(tax)}`,
      `Total ${formatMoney(total)}`,
      `CGST 9% ${formatMoney(cgst!.taxableCents)} ${formatMoney(cgst!.taxCents)}`,
      `SGST 9% ${formatMoney(cgst!.taxableCents)} ${formatMoney(cgst!.taxCents)}`,
    ])
      expect(text).toContain(expected);
    await saveSettings(database.db, { shipsTo: ["US"], taxRegistrations: [] });
  });
});
