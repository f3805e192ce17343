import { describe, expect, it } from "vitest";
import {
  creditContent,
  type DocumentLine,
  type DocumentSnapshot,
  documentFilename,
  documentNumber,
  formatRate,
  parseDocumentNumber,
  shareHalfUp,
  sumTaxes,
} from "./invoice-document";

describe("document numbers", () => {
  it("print with their kind's prefix and six digits, more when they grow past them", () => {
    expect(documentNumber("invoice", 123)).toBe("INV-000123");
    expect(documentNumber("credit_note", 7)).toBe("CN-000007");
    expect(documentNumber("invoice", 1_234_567)).toBe("INV-1234567");
    expect(documentFilename("credit_note", 7)).toBe("CN-000007.pdf");
  });

  it("are read back from what people type into a search", () => {
    expect(parseDocumentNumber("INV-000123")).toEqual({ kind: "invoice", number: 123 });
    expect(parseDocumentNumber(" cn 7 ")).toEqual({ kind: "credit_note", number: 7 });
    expect(parseDocumentNumber("#42")).toEqual({ kind: undefined, number: 42 });
    expect(parseDocumentNumber("INV-000123.pdf")).toEqual({ kind: "invoice", number: 123 });
    for (const text of ["", "INV-", "0", "abc", "INV-12x", "1".repeat(12)])
      expect(parseDocumentNumber(text)).toBeNull();
  });
});

describe("amounts on documents", () => {
  it("rounds a share half up, exactly, however large the amounts", () => {
    expect(shareHalfUp(1000, 1, 8)).toBe(125); // 125 exactly
    expect(shareHalfUp(5, 1, 2)).toBe(3); // 2.5 -> 3
    expect(shareHalfUp(5, 1, 3)).toBe(2); // 1.67 -> 2
    expect(shareHalfUp(4, 1, 3)).toBe(1); // 1.33 -> 1
    expect(shareHalfUp(2_000_000_000, 1_999_999_999, 2_000_000_000)).toBe(1_999_999_999);
    expect(shareHalfUp(10, 1, 0)).toBe(0);
  });

  it("prints rates from basis points", () => {
    expect(formatRate(1800)).toBe("18%");
    expect(formatRate(888)).toBe("8.88%");
    expect(formatRate(625)).toBe("6.25%");
    expect(formatRate(450)).toBe("4.5%");
    expect(formatRate(0)).toBe("0%");
  });

  it("adds taxes up by name and rate", () => {
    expect(
      sumTaxes([
        [{ name: "CGST", rateBasisPoints: 900, taxableCents: 1000, taxCents: 90 }],
        [
          { name: "CGST", rateBasisPoints: 900, taxableCents: 500, taxCents: 45 },
          { name: "SGST", rateBasisPoints: 900, taxableCents: 500, taxCents: 45 },
        ],
      ]),
    ).toEqual([
      { name: "CGST", rateBasisPoints: 900, taxableCents: 1500, taxCents: 135 },
      { name: "SGST", rateBasisPoints: 900, taxableCents: 500, taxCents: 45 },
    ]);
  });
});

const gst = (taxable: number) => [
  { name: "CGST", rateBasisPoints: 900, taxableCents: taxable, taxCents: Math.round(taxable * 0.09) },
  { name: "SGST", rateBasisPoints: 900, taxableCents: taxable, taxCents: Math.round(taxable * 0.09) },
];

function row(lineId: number | undefined, amount: number, discount: number): DocumentLine {
  const taxes = gst(amount - discount);
  const tax = taxes.reduce((sum, t) => sum + t.taxCents, 0);
  return {
    lineId,
    description: lineId ? `Product ${lineId}` : "Shipping",
    quantity: 1,
    unitPriceCents: amount,
    amountCents: amount,
    discountCents: discount,
    taxes,
    taxCents: tax,
    totalCents: amount - discount + tax,
  };
}

/** An invoice of two lines and shipping, GST split in two, prices without tax. */
function invoice(): DocumentSnapshot {
  const lines = [row(1, 10_000, 1_000), row(2, 3_333, 333)];
  const shipping = row(undefined, 1_499, 0);
  const all = [...lines, shipping];
  const taxes = sumTaxes(all.map((line) => line.taxes));
  const sum = (pick: (line: DocumentLine) => number) => all.reduce((total, line) => total + pick(line), 0);
  return {
    version: 1,
    kind: "invoice",
    number: "INV-000001",
    issuedAt: "2026-01-02T10:00:00.000Z",
    currency: "USD",
    pricesIncludeTax: false,
    seller: { name: "Store", offices: [], email: "", phone: "", taxRegistrations: [] },
    buyer: {
      name: "Ada",
      email: "ada@example.com",
      taxId: "",
      address: {
        name: "Ada",
        line1: "1 Road",
        line2: "",
        city: "Noida",
        region: "UP",
        postalCode: "201301",
        country: "IN",
        phone: "",
      },
    },
    shipTo: null,
    order: { number: 1001, placedAt: "2026-01-01T10:00:00.000Z", paidAt: "2026-01-02T10:00:00.000Z" },
    paymentMethod: "Card",
    discountCode: "SAVE10",
    lines,
    shipping,
    taxes,
    totals: {
      subtotalCents: 13_333,
      discountCents: 1_333,
      shippingCents: 1_499,
      taxCents: sum((line) => line.taxCents),
      totalCents: sum((line) => line.totalCents),
    },
    credit: null,
  };
}

const asCredit = (content: ReturnType<typeof creditContent>): DocumentSnapshot => ({
  ...invoice(),
  ...content,
  kind: "credit_note",
});

describe("what a credit note gives back", () => {
  it("copies a refunded line as invoiced, with its discount and taxes, when the refund is what it cost", () => {
    const source = invoice();
    const line = source.lines[1]!;
    const credit = creditContent(
      source,
      { amountCents: line.totalCents, lineIds: [2], completesOrder: false },
      [],
    );
    expect(credit.basis).toBe("lines");
    expect(credit.lines).toEqual([line]);
    expect(credit.shipping).toBeNull();
    expect(credit.taxes).toEqual(line.taxes);
    expect(credit.totals).toEqual({
      subtotalCents: 3_333,
      discountCents: 333,
      shippingCents: 0,
      taxCents: line.taxCents,
      totalCents: line.totalCents,
    });
  });

  it("takes the shipping with the refund that completes the order", () => {
    const source = invoice();
    const first = creditContent(
      source,
      { amountCents: source.lines[1]!.totalCents, lineIds: [2], completesOrder: false },
      [],
    );
    const rest = source.totals.totalCents - first.totals.totalCents;
    const last = creditContent(source, { amountCents: rest, lineIds: [1], completesOrder: true }, [
      asCredit(first),
    ]);
    expect(last.basis).toBe("lines");
    expect(last.shipping).toEqual(source.shipping);
    expect(first.totals.taxCents + last.totals.taxCents).toBe(source.totals.taxCents);
  });

  it("works an amount's tax out pro rata, halves up, and the completing refund takes exactly what is left", () => {
    const source = invoice();
    const total = source.totals.totalCents;
    const amounts = [1_001, 2_503, 777];
    const earlier: DocumentSnapshot[] = [];
    for (const amount of amounts) {
      const credit = creditContent(
        source,
        { amountCents: amount, lineIds: [], completesOrder: false },
        earlier,
      );
      expect(credit.basis).toBe("share");
      for (const [index, tax] of credit.taxes.entries()) {
        const invoiced = source.taxes[index]!;
        expect(tax.taxCents).toBe(Math.floor((amount * invoiced.taxCents * 2 + total) / (2 * total)));
      }
      expect(credit.totals.totalCents).toBe(amount);
      expect(credit.totals.subtotalCents + credit.totals.taxCents).toBe(amount);
      earlier.push(asCredit(credit));
    }
    const rest = total - amounts.reduce((sum, amount) => sum + amount, 0);
    const last = creditContent(source, { amountCents: rest, lineIds: [1, 2], completesOrder: true }, earlier);
    expect(last.basis).toBe("share");
    const all = [...earlier, asCredit(last)];
    expect(all.reduce((sum, credit) => sum + credit.totals.taxCents, 0)).toBe(source.totals.taxCents);
    expect(all.reduce((sum, credit) => sum + credit.totals.totalCents, 0)).toBe(total);
    expect(sumTaxes(all.map((credit) => credit.taxes))).toEqual(source.taxes);
  });

  it("names the line of a line refund given back for less than it cost, and keeps tax inside with inclusive prices", () => {
    const source = { ...invoice(), pricesIncludeTax: true };
    const credit = creditContent(source, { amountCents: 500, lineIds: [1], completesOrder: false }, []);
    expect(credit.basis).toBe("share");
    expect(credit.lines[0]!.description).toBe("Refund for 1 × Product 1");
    // Prices include tax: the row is the amount itself; its tax is inside it.
    expect(credit.lines[0]!.amountCents).toBe(500);
    expect(credit.totals).toMatchObject({ subtotalCents: 500, totalCents: 500 });
    expect(credit.totals.taxCents).toBeGreaterThan(0);
  });
});
