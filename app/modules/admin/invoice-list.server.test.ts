import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { invoices } from "~db/schema";
import { toDecimalString } from "~/lib/money";
import { documentNumber } from "~/modules/orders/invoice-document";
import { type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { taxOrder } from "../../../tests/support/invoices";
import { address, checkout, useDemoStore } from "../../../tests/support/orders";
import { invoicesCsv } from "./exports.server";
import { invoiceListQuery, listInvoices, listRange } from "./invoice-list.server";
import { markOrderPaid } from "~/modules/orders/lifecycle.server";
import { refundOrder } from "~/modules/orders/refunds.server";

const ADMIN = "owner@example.com";
const today = () => new Date().toISOString().slice(0, 10);
const query = (values: Record<string, string> = {}) => invoiceListQuery.parse(values);

describe.each(drivers)("the invoices list and its CSV export on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let gst: { number: number; invoice: string; credit: string; total: number; tax: number; refund: number };
  let salesTax: { number: number; invoice: string; total: number; tax: number };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    const placeTaxed = async (email: string, taxes: Array<{ name: string; rateBasisPoints: number }>) => {
      // Placed in New York (its own taxes, then replaced by the ones asked for).
      const billing = { ...address, region: "NY" };
      const placed = await placeOrder(ctx, checkout({ email, billing, paymentMethod: "bank-transfer" }));
      if (!placed.ok) throw new Error("not placed");
      const taxed = await taxOrder(database.db, placed.orderId, { taxes });
      await markOrderPaid(ctx, placed.number, ADMIN);
      const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, placed.orderId));
      return { placed, taxed, invoice: documentNumber("invoice", invoice!.number) };
    };
    const india = await placeTaxed("gst@example.com", [{ name: "IGST", rateBasisPoints: 1800 }]);
    await refundOrder(ctx, india.placed.number, { mode: "amount", amountCents: 1000, reason: "Late" }, ADMIN);
    const [note] = (
      await database.db.select().from(invoices).where(eq(invoices.orderId, india.placed.orderId))
    ).filter((row) => row.kind === "credit_note");
    gst = {
      number: india.placed.number,
      invoice: india.invoice,
      credit: documentNumber("credit_note", note!.number),
      total: india.taxed.total,
      tax: india.taxed.tax,
      refund: 1000,
    };
    const us = await placeTaxed("sales-tax@example.com", [{ name: "NY sales tax", rateBasisPoints: 888 }]);
    salesTax = { number: us.placed.number, invoice: us.invoice, total: us.taxed.total, tax: us.taxed.tax };
  });

  it("writes each document of the days asked for, credit notes negative, a column per tax rate", async () => {
    const csv = await invoicesCsv(database.db, { from: today(), to: today() });
    const [header, ...rows] = parse(csv, { bom: true }) as string[][];
    expect(header).toEqual([
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
      "tax IGST 18%",
      "tax NY sales tax 8.88%",
      "tax",
      "total",
      "currency",
      "payment_method",
      "credit_for",
      "test_order",
    ]);
    const byNumber = new Map(rows.map((row) => [row[0], row]));
    expect(byNumber.get(gst.invoice)).toEqual([
      gst.invoice,
      "invoice",
      today(),
      String(gst.number),
      "Ada Lovelace",
      "gst@example.com",
      "",
      "US",
      "NY",
      toDecimalString(gst.total - gst.tax),
      toDecimalString(gst.tax),
      "",
      toDecimalString(gst.tax),
      toDecimalString(gst.total),
      "USD",
      "Bank transfer",
      "",
      // The demo store takes test payments: its orders, and their documents, are tests.
      "yes",
    ]);
    const credit = byNumber.get(gst.credit)!;
    expect(credit.slice(0, 4)).toEqual([gst.credit, "credit note", today(), String(gst.number)]);
    expect(credit.slice(-2)).toEqual([gst.invoice, "yes"]);
    expect(credit[13]).toBe(toDecimalString(-gst.refund));
    // The credit's tax is its share of the invoice's, halves up, and negative.
    const share = Math.floor((gst.refund * gst.tax * 2 + gst.total) / (2 * gst.total));
    expect(credit[10]).toBe(toDecimalString(-share));
    expect(credit[9]).toBe(toDecimalString(-(gst.refund - share)));
    expect(byNumber.get(salesTax.invoice)!.slice(10, 14)).toEqual([
      "",
      toDecimalString(salesTax.tax),
      toDecimalString(salesTax.tax),
      toDecimalString(salesTax.total),
    ]);
    // Each column adds up to what the days came to.
    const cents = (text: string) => Math.round(Number(text) * 100);
    expect(rows.reduce((sum, row) => sum + cents(row[13]!), 0)).toBe(gst.total - gst.refund + salesTax.total);

    // Other days hold none of them: a header alone, without tax columns, since nothing was charged.
    const empty = parse(await invoicesCsv(database.db, { from: "2001-01-01", to: "2001-12-31" }), {
      bom: true,
    });
    expect(empty).toEqual([header!.filter((column) => !column.startsWith("tax "))]);
  });

  it("finds documents by their number, by their order's number, by kind and by days", async () => {
    const numbers = async (values: Record<string, string>) =>
      (await listInvoices(database.db, query(values))).rows.map((row) => row.number);
    expect(await numbers({ q: gst.invoice })).toEqual([gst.invoice]);
    expect(await numbers({ q: gst.credit.toLowerCase() })).toEqual([gst.credit]);
    expect(await numbers({ q: String(gst.number) })).toEqual([gst.credit, gst.invoice]);
    expect(await numbers({ kind: "credit_note" })).toEqual([gst.credit]);
    expect(await numbers({ from: today(), to: today(), kind: "invoice" })).toEqual([
      salesTax.invoice,
      gst.invoice,
    ]);
    expect(await numbers({ from: "2001-01-01", to: "2001-01-31" })).toEqual([]);
    expect(await numbers({ q: "not a number" })).toEqual([]);
    const [row] = (await listInvoices(database.db, query({ q: gst.credit }))).rows;
    expect(row).toMatchObject({
      kind: "credit_note",
      orderNumber: gst.number,
      creditFor: gst.invoice,
      totalCents: 1000,
    });
  });

  it("says what is wrong with a range of days instead of guessing", () => {
    expect(listRange({ from: "", to: "" })).toEqual({ ok: true, range: null });
    expect(listRange({ from: "2026-03-01", to: "2026-03-31" })).toEqual({
      ok: true,
      range: { from: "2026-03-01", to: "2026-03-31" },
    });
    expect(listRange({ from: "2026-03-31", to: "2026-03-01" })).toEqual({
      ok: false,
      message: "The first day must not be after the last",
    });
    expect(listRange({ from: "2026-02-30", to: "2026-03-01" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not exist/),
    });
    expect(listRange({ from: "03/01/2026", to: "2026-03-01" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/YYYY-MM-DD/),
    });
    expect(listRange({ from: "2026-03-01", to: "" })).toEqual({
      ok: false,
      message: "Choose the last day too",
    });
  });
});
