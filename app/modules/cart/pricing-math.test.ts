import { describe, expect, it } from "vitest";
import {
  type MathLine,
  mulDivHalfUp,
  type PlaceTaxRule,
  priceWithDiscountAndTax,
  rulesForPlace,
  shareLargestRemainder,
  type StoredTaxRule,
  taxesOn,
} from "./pricing-math";

const software = (amountCents: number, eligible = true): MathLine => ({
  amountCents,
  taxKind: "software",
  eligible,
});
const hardware = (amountCents: number, eligible = true): MathLine => ({
  amountCents,
  taxKind: "hardware",
  eligible,
});
const rule = (name: string, rateBasisPoints: number, extra: Partial<PlaceTaxRule> = {}): PlaceTaxRule => ({
  name,
  rateBasisPoints,
  productKind: "all",
  appliesToShipping: false,
  ...extra,
});
const tenPercent = {
  kind: "percent",
  percentBasisPoints: 1000,
  amountCents: null,
  includesShipping: false,
} as const;
const fixed = (amountCents: number, includesShipping = false) =>
  ({ kind: "fixed", percentBasisPoints: null, amountCents, includesShipping }) as const;

/** The orders table's check constraint, as code. */
function holdsTotals(result: ReturnType<typeof priceWithDiscountAndTax>) {
  expect(result.totalCents).toBe(
    result.subtotalCents +
      result.shippingCents -
      result.discountCents +
      (result.pricesIncludeTax ? 0 : result.taxCents),
  );
  expect(result.discountCents).toBeLessThanOrEqual(result.subtotalCents + result.shippingCents);
  expect(result.shippingDiscountCents).toBeLessThanOrEqual(
    Math.min(result.discountCents, result.shippingCents),
  );
  expect(result.shippingTaxCents).toBeLessThanOrEqual(result.taxCents);
  const values = [
    result.totalCents,
    result.taxCents,
    result.discountCents,
    ...result.lines.flatMap((line) => [
      line.discountCents,
      line.taxCents,
      ...line.taxes.map((t) => t.taxCents),
    ]),
  ];
  for (const value of values) expect(Number.isSafeInteger(value)).toBe(true);
  expect(result.taxCents).toBe(
    result.lines.reduce((sum, line) => sum + line.taxCents, 0) + result.shippingTaxCents,
  );
  expect(result.taxes.reduce((sum, tax) => sum + tax.taxCents, 0)).toBe(result.taxCents);
}

describe("mulDivHalfUp", () => {
  it("rounds halves up and everything else to the nearest cent", () => {
    expect(mulDivHalfUp(5, 1000, 10_000)).toBe(1); // 0.5 -> 1
    expect(mulDivHalfUp(4, 1000, 10_000)).toBe(0); // 0.4 -> 0
    expect(mulDivHalfUp(15, 1000, 10_000)).toBe(2); // 1.5 -> 2
    expect(mulDivHalfUp(25, 1000, 10_000)).toBe(3); // 2.5 -> 3 (not banker's 2)
    expect(mulDivHalfUp(1249, 400, 10_000)).toBe(50); // 49.96
    expect(mulDivHalfUp(-15, 1000, 10_000)).toBe(-2); // away from zero
  });

  it("is exact for amounts past floating point's reach", () => {
    expect(mulDivHalfUp(9_007_199_254_740, 9999, 10_000)).toBe(9_006_298_534_815); // 9_006_298_534_814.526;
  });
});

describe("shareLargestRemainder", () => {
  it("shares an amount in proportion, adding up exactly", () => {
    expect(shareLargestRemainder(1000, [1, 1, 1])).toEqual([334, 333, 333]);
    expect(shareLargestRemainder(100, [2999, 4999, 0, 1])).toEqual([37, 63, 0, 0]);
    for (const [total, weights] of [
      [997, [333, 333, 334]],
      [1, [5, 5]],
      [12_345, [1, 2, 3, 4, 5, 6, 7]],
    ] as const) {
      const shares = shareLargestRemainder(total, [...weights]);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it("gives nothing to lines of weight 0, and nothing at all when there is no weight", () => {
    expect(shareLargestRemainder(500, [0, 0])).toEqual([0, 0]);
    expect(shareLargestRemainder(500, [0, 10])).toEqual([0, 500]);
  });
});

describe("priceWithDiscountAndTax", () => {
  it("without a code or tax, the total is subtotal plus shipping", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(4999), hardware(12_999)],
      shippingCents: 1499,
      discount: null,
      rules: [],
      pricesIncludeTax: false,
    });
    expect(result.totalCents).toBe(4999 + 12_999 + 1499);
    expect(result.taxes).toEqual([]);
    holdsTotals(result);
  });

  it("a 10% code takes 10% of each line, rounded half up per line", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(1005), software(2995), hardware(15)],
      shippingCents: 0,
      discount: tenPercent,
      rules: [],
      pricesIncludeTax: false,
    });
    // 100.5 -> 101, 299.5 -> 300, 1.5 -> 2
    expect(result.lines.map((line) => line.discountCents)).toEqual([101, 300, 2]);
    expect(result.discountCents).toBe(403);
    expect(result.totalCents).toBe(1005 + 2995 + 15 - 403);
    holdsTotals(result);
  });

  it("a code leaves lines it does not apply to alone", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(5000), hardware(10_000, false)],
      shippingCents: 1499,
      discount: tenPercent,
      rules: [],
      pricesIncludeTax: false,
    });
    expect(result.lines.map((line) => line.discountCents)).toEqual([500, 0]);
    expect(result.shippingDiscountCents).toBe(0);
    holdsTotals(result);
  });

  it("a fixed code is shared across eligible lines by largest remainder, adding up to its amount", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(1000), software(1000), software(1000), hardware(500, false)],
      shippingCents: 0,
      discount: fixed(1000),
      rules: [],
      pricesIncludeTax: false,
    });
    expect(result.lines.map((line) => line.discountCents)).toEqual([334, 333, 333, 0]);
    expect(result.discountCents).toBe(1000);
    holdsTotals(result);
  });

  it("a fixed code larger than the lines takes them to zero, and the rest off shipping when it includes shipping", () => {
    const without = priceWithDiscountAndTax({
      lines: [software(700)],
      shippingCents: 1499,
      discount: fixed(1000),
      rules: [],
      pricesIncludeTax: false,
    });
    expect(without.discountCents).toBe(700);
    expect(without.totalCents).toBe(1499);
    const withShipping = priceWithDiscountAndTax({
      lines: [software(700)],
      shippingCents: 1499,
      discount: fixed(1000, true),
      rules: [],
      pricesIncludeTax: false,
    });
    expect(withShipping.shippingDiscountCents).toBe(300);
    expect(withShipping.discountCents).toBe(1000);
    expect(withShipping.totalCents).toBe(1199);
    holdsTotals(withShipping);
  });

  it("a percent code that includes shipping takes its share of shipping too", () => {
    const result = priceWithDiscountAndTax({
      lines: [hardware(10_000)],
      shippingCents: 1499,
      discount: { ...tenPercent, includesShipping: true },
      rules: [],
      pricesIncludeTax: false,
    });
    expect(result.shippingDiscountCents).toBe(150); // 149.9
    expect(result.discountCents).toBe(1150);
    holdsTotals(result);
  });

  it("adds each tax on the line's price less its discount, per line, half up", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(4999), hardware(12_999)],
      shippingCents: 1499,
      discount: tenPercent,
      rules: [rule("NY sales tax", 400, { appliesToShipping: true })],
      pricesIncludeTax: false,
    });
    // Discounts 499.9 -> 500 and 1299.9 -> 1300; taxable 4499 and 11699.
    expect(result.lines.map((line) => line.discountCents)).toEqual([500, 1300]);
    // 4% of 4499 = 179.96 -> 180; of 11699 = 467.96 -> 468; of shipping 1499 = 59.96 -> 60.
    expect(result.lines.map((line) => line.taxCents)).toEqual([180, 468]);
    expect(result.shippingTaxCents).toBe(60);
    expect(result.taxCents).toBe(708);
    expect(result.taxes).toEqual([
      { name: "NY sales tax", rateBasisPoints: 400, taxableCents: 4499 + 11_699 + 1499, taxCents: 708 },
    ]);
    expect(result.totalCents).toBe(4999 + 12_999 + 1499 - 1800 + 708);
    holdsTotals(result);
  });

  it("charges CGST and SGST each on the same base", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(4999)],
      shippingCents: 0,
      discount: null,
      rules: [rule("CGST", 900), rule("SGST", 900)],
      pricesIncludeTax: false,
    });
    // 9% of 4999 = 449.91 -> 450 each.
    expect(result.lines[0]!.taxes).toEqual([
      { name: "CGST", rateBasisPoints: 900, taxableCents: 4999, taxCents: 450 },
      { name: "SGST", rateBasisPoints: 900, taxableCents: 4999, taxCents: 450 },
    ]);
    expect(result.lines[0]!.taxRateBasisPoints).toBe(1800);
    expect(result.totalCents).toBe(4999 + 900);
    holdsTotals(result);
  });

  it("taxes only the kinds a rule names", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(1000), hardware(1000)],
      shippingCents: 0,
      discount: null,
      rules: [rule("Hardware tax", 1000, { productKind: "hardware" })],
      pricesIncludeTax: false,
    });
    expect(result.lines.map((line) => line.taxCents)).toEqual([0, 100]);
    holdsTotals(result);
  });

  it("leaves a line marked untaxed, and shipping when told, out of every tax", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(1000), { ...hardware(2000), untaxed: true }],
      shippingCents: 1000,
      discount: tenPercent,
      rules: [rule("IGST", 1800, { appliesToShipping: true })],
      pricesIncludeTax: false,
      shippingUntaxed: true,
    });
    expect(result.lines.map((line) => [line.taxCents, line.taxes.length, line.taxRateBasisPoints])).toEqual([
      [162, 1, 1800],
      [0, 0, 0],
    ]);
    expect(result.lines[1]!.discountCents).toBe(200);
    expect(result.shippingTaxCents).toBe(0);
    expect(result.taxes).toEqual([{ name: "IGST", rateBasisPoints: 1800, taxableCents: 900, taxCents: 162 }]);
    expect(result.taxCents).toBe(162);
    holdsTotals(result);
  });

  it("taxes shipping once per tax, however many rules of it tax shipping", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(1000), hardware(1000)],
      shippingCents: 1000,
      discount: null,
      rules: [
        rule("NY sales tax", 400, { productKind: "software", appliesToShipping: true }),
        rule("NY sales tax", 400, { productKind: "hardware", appliesToShipping: true }),
      ],
      pricesIncludeTax: false,
    });
    expect(result.shippingTaxCents).toBe(40);
    expect(result.taxCents).toBe(120);
    holdsTotals(result);
  });

  it("with prices including tax, takes the tax out of the price and leaves the total alone", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(11_800)],
      shippingCents: 0,
      discount: null,
      rules: [rule("CGST", 900), rule("SGST", 900)],
      pricesIncludeTax: true,
    });
    // 11800 × 9 / 118 = 900 each; taxable 10000.
    expect(result.lines[0]!.taxes).toEqual([
      { name: "CGST", rateBasisPoints: 900, taxableCents: 10_000, taxCents: 900 },
      { name: "SGST", rateBasisPoints: 900, taxableCents: 10_000, taxCents: 900 },
    ]);
    expect(result.totalCents).toBe(11_800);
    expect(result.lines[0]!.totalCents).toBe(11_800);
    holdsTotals(result);
  });

  it("with prices including tax and a discount, the tax is taken out of the discounted price", () => {
    const result = priceWithDiscountAndTax({
      lines: [software(4999)],
      shippingCents: 0,
      discount: tenPercent,
      rules: [rule("IGST", 1800)],
      pricesIncludeTax: true,
    });
    // 4999 - 500 = 4499; 4499 × 18 / 118 = 686.29 -> 686.
    expect(result.lines[0]!.taxCents).toBe(686);
    expect(result.lines[0]!.taxes[0]!.taxableCents).toBe(4499 - 686);
    expect(result.totalCents).toBe(4499);
    holdsTotals(result);
  });

  it("holds the totals for many carts, codes and rates", () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 500; run++) {
      const lines = Array.from({ length: 1 + next(6) }, () =>
        next(2) ? software(next(100_000)) : hardware(next(100_000), next(3) > 0),
      );
      const discount =
        next(3) === 0
          ? null
          : next(2)
            ? { ...tenPercent, percentBasisPoints: 1 + next(10_000), includesShipping: next(2) === 1 }
            : fixed(1 + next(50_000), next(2) === 1);
      const rules =
        next(3) === 0 ? [] : [rule("A", next(3000), { appliesToShipping: true }), rule("B", next(900))];
      holdsTotals(
        priceWithDiscountAndTax({
          lines,
          shippingCents: next(2) ? 1499 : 0,
          discount,
          rules,
          pricesIncludeTax: next(2) === 1,
        }),
      );
    }
  });

  it("refuses amounts that are not whole cents", () => {
    expect(() =>
      priceWithDiscountAndTax({
        lines: [software(10.5)],
        shippingCents: 0,
        discount: null,
        rules: [],
        pricesIncludeTax: false,
      }),
    ).toThrow(RangeError);
  });
});

describe("taxesOn", () => {
  it("is nothing without rules", () => {
    expect(taxesOn(1000, [], false)).toEqual([]);
  });
});

describe("rulesForPlace", () => {
  const stored = (country: string, region: string, name: string, position = 0): StoredTaxRule => ({
    ...rule(name, 900),
    country,
    region,
    position,
  });
  const rules = [
    stored("IN", "", "IGST"),
    stored("IN", "UP", "SGST", 2),
    stored("IN", "UP", "CGST", 1),
    stored("US", "NY", "NY sales tax"),
  ];

  it("takes the rules of the exact state when there are any, in the admin's order", () => {
    expect(rulesForPlace(rules, { country: "IN", region: "UP" }).map((r) => r.name)).toEqual([
      "CGST",
      "SGST",
    ]);
    expect(rulesForPlace(rules, { country: "IN", region: "up" }).map((r) => r.name)).toEqual([
      "CGST",
      "SGST",
    ]);
  });

  it("otherwise the rules of the whole country, and none where the store has none", () => {
    expect(rulesForPlace(rules, { country: "IN", region: "KA" }).map((r) => r.name)).toEqual(["IGST"]);
    expect(rulesForPlace(rules, { country: "US", region: "CA" })).toEqual([]);
    expect(rulesForPlace(rules, { country: "DE", region: "" })).toEqual([]);
  });
});
