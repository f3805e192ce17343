import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create as openFont, type Font } from "fontkit";
import { describe, expect, it } from "vitest";
import { formatMoney } from "~/lib/money";
import { BUYER_IN_LUCKNOW } from "../../../tests/support/invoices";
import { pdfPages, pdfText } from "../../../tests/support/pdf";
import type { DocumentLine, DocumentSnapshot } from "./invoice-document";
import { renderDocumentPdf } from "./invoice-pdf.server";

const require = createRequire(import.meta.url);
const fontFile = (name: string) => `@expo-google-fonts/noto-sans/${name}/NotoSans_${name}.ttf`;
const fonts = ["400Regular", "700Bold"].map(
  (name) => openFont(readFileSync(require.resolve(fontFile(name)))) as Font,
);

const address = BUYER_IN_LUCKNOW;

const line = (lineId: number, name: string): DocumentLine => ({
  lineId,
  description: name,
  quantity: 2,
  unitPriceCents: 4_999,
  amountCents: 9_998,
  discountCents: 1_000,
  taxes: [
    { name: "CGST", rateBasisPoints: 900, taxableCents: 8_998, taxCents: 810 },
    { name: "SGST", rateBasisPoints: 900, taxableCents: 8_998, taxCents: 810 },
  ],
  taxCents: 1_620,
  totalCents: 10_618,
});

function snapshot(lines: DocumentLine[]): DocumentSnapshot {
  return {
    version: 1,
    kind: "invoice",
    number: "INV-000123",
    issuedAt: "2026-03-04T10:00:00.000Z",
    currency: "USD",
    pricesIncludeTax: false,
    seller: {
      name: "KeyHaven Tech Store",
      offices: [
        { label: "India office", address: "Plot A-17, Sector 63, Noida, Uttar Pradesh 201301, India" },
      ],
      email: "support@example.com",
      phone: "(212) 555-0100",
      taxRegistrations: [{ label: "GSTIN", number: "09AAACK1234F1Z5", country: "IN", regions: ["UP"] }],
    },
    buyer: { name: address.name, email: "ram@example.com", address, taxId: "09ABCDE1234F1Z5" },
    shipTo: null,
    order: { number: 1042, placedAt: "2026-03-03T09:00:00.000Z", paidAt: "2026-03-04T10:00:00.000Z" },
    paymentMethod: "Card",
    discountCode: "SAVE10",
    lines,
    shipping: null,
    taxes: [
      {
        name: "CGST",
        rateBasisPoints: 900,
        taxableCents: 8_998 * lines.length,
        taxCents: 810 * lines.length,
      },
      {
        name: "SGST",
        rateBasisPoints: 900,
        taxableCents: 8_998 * lines.length,
        taxCents: 810 * lines.length,
      },
    ],
    totals: {
      subtotalCents: 9_998 * lines.length,
      discountCents: 1_000 * lines.length,
      shippingCents: 0,
      taxCents: 1_620 * lines.length,
      totalCents: 10_618 * lines.length,
    },
    credit: null,
  };
}

describe("the PDF of a document", () => {
  it("embeds a font with a glyph for every character of names in Hindi, Polish, German, Greek and Russian", () => {
    const text = "राम कुमार शर्मा प्रिया — Łukasz Müller, Ωμέγα Иван ₹ €";
    for (const font of fonts)
      for (const char of text.replace(/\s/g, ""))
        expect(font.hasGlyphForCodePoint(char.codePointAt(0)!), `${char} in ${font.fullName}`).toBe(true);
  });

  it("prints the seller, the buyer in their own script, each row with its discount and taxes, and the totals", async () => {
    const pdf = await renderDocumentPdf(
      snapshot([line(1, "Norton 360 Deluxe"), line(2, "Avast Premium Security")]),
    );
    // The font is embedded (as a subset) in the file, so the Hindi name prints on any reader.
    const raw = Buffer.from(pdf).toString("latin1");
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Bold/);
    const text = await pdfText(pdf);
    for (const expected of [
      "KeyHaven Tech Store",
      "INVOICE INV-000123",
      "Date: March 4, 2026",
      "Order #1042 of March 3, 2026",
      "GSTIN 09AAACK1234F1Z5 (UP)",
      "राम कुमार",
      "Tax ID: 09ABCDE1234F1Z5",
      `Norton 360 Deluxe 2 ${formatMoney(4_999)} ${formatMoney(-1_000)} CGST 9% SGST 9% ${formatMoney(1_620)} ${formatMoney(10_618)}`,
      "Avast Premium Security",
      `Subtotal ${formatMoney(19_996)}`,
      `Discount (SAVE10) ${formatMoney(-2_000)}`,
      `Tax ${formatMoney(3_240)}`,
      `Total ${formatMoney(21_236)}`,
      `CGST 9% ${formatMoney(17_996)} ${formatMoney(1_620)}`,
      `SGST 9% ${formatMoney(17_996)} ${formatMoney(1_620)}`,
      "Payment: Card",
      "Prices exclude tax",
      "Page 1 of 1",
    ])
      expect(text).toContain(expected);
  });

  it("goes on over as many pages as the rows need, each with the column heads and its page number", async () => {
    const lines = Array.from({ length: 60 }, (_, index) => line(index + 1, `Product number ${index + 1}`));
    const pdf = await renderDocumentPdf(snapshot(lines));
    const pages = await pdfPages(pdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    const text = await pdfText(pdf);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text.match(/Description Qty Unit price Discount Tax rate Tax Total/g)).toHaveLength(pages);
    for (const index of [1, 30, 60]) expect(text).toContain(`Product number ${index} 2`);
    expect(text).toContain(`Total ${formatMoney(10_618 * 60)}`);
  });

  it("says what a credit note corrects, why, and what it gives back", async () => {
    const pdf = await renderDocumentPdf({
      ...snapshot([line(1, "Norton 360 Deluxe")]),
      kind: "credit_note",
      number: "CN-000007",
      credit: {
        invoiceNumber: "INV-000123",
        invoiceIssuedAt: "2026-03-04T10:00:00.000Z",
        reason: "Bought twice",
        basis: "lines",
      },
    });
    const text = await pdfText(pdf);
    expect(text).toContain("CREDIT NOTE CN-000007");
    expect(text).toContain("Credits invoice INV-000123 of March 4, 2026");
    expect(text).toContain("Reason: Bought twice");
    expect(text).toContain(`Total credited ${formatMoney(10_618)}`);
  });
});
