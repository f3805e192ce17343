import type { TaxAmount } from "~db/schema/orders";
import type { PromotionKind, TaxProductKind } from "~db/schema/pricing";

/**
 * The arithmetic of a discount code and of taxes on a cart, in integer cents: pure code, the one place it is done,
 * used by the cart's quote and by placing an order alike, so what the shopper is shown is what the order keeps.
 * See docs/decisions/0023-tax-model-and-rounding.md.
 *
 * - Every amount is whole cents; every division rounds half up (away from zero), once per line and per tax.
 * - A percentage code takes its share of each eligible line (and of shipping when it includes shipping), rounded
 *   per line. A fixed code takes its amount (at most what the eligible lines cost) shared across the eligible lines
 *   in proportion to their amounts, by largest remainder, so the shares add up to the amount exactly; what is left
 *   of it comes off shipping when the code includes shipping.
 * - Each tax that applies to a line is worked out on the line's amount less its discount, each on that same base
 *   (CGST and SGST). When prices include tax, the tax is taken out of that amount: a tax at rate r of a line whose
 *   taxes add up to rate R is base × r / (1 + R); the line's price and the order's total do not change.
 * - The order's total is subtotal + shipping − discount, plus the tax unless prices include it (the orders table's
 *   check constraint says the same).
 */

/** Whole cents of value × numerator / denominator, halves rounded up (exact for any amounts a store has). */
export function mulDivHalfUp(value: number, numerator: number, denominator: number): number {
  if (denominator <= 0) throw new RangeError("denominator must be positive");
  const product = BigInt(value) * BigInt(numerator);
  const sign = product < 0n ? -1n : 1n;
  const magnitude = product * sign;
  const d = BigInt(denominator);
  return Number(sign * ((2n * magnitude + d) / (2n * d)));
}

/**
 * `total` shared across `weights` in proportion, in whole cents that add up to `total` exactly: each gets the floor
 * of its exact share, and the cents left over go one each to the largest remainders (the earlier line on a tie).
 */
export function shareLargestRemainder(total: number, weights: number[]): number[] {
  const whole = weights.reduce((sum, weight) => sum + weight, 0);
  if (whole <= 0 || total <= 0) return weights.map(() => 0);
  const big = BigInt(whole);
  const shares = weights.map((weight, index) => {
    const exact = BigInt(total) * BigInt(weight);
    return { index, floor: Number(exact / big), remainder: exact % big };
  });
  let left = total - shares.reduce((sum, share) => sum + share.floor, 0);
  const result = shares.map((share) => share.floor);
  const byRemainder = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const share of byRemainder) {
    if (left === 0) break;
    result[share.index]! += 1;
    left -= 1;
  }
  return result;
}

/** What a discount code takes off (already checked to apply). */
export type DiscountTerms = {
  kind: PromotionKind;
  percentBasisPoints: number | null;
  amountCents: number | null;
  includesShipping: boolean;
};

/** A tax rule that applies at the order's place (see rulesForPlace). */
export type PlaceTaxRule = {
  name: string;
  rateBasisPoints: number;
  productKind: TaxProductKind;
  appliesToShipping: boolean;
};

export type MathLine = {
  /** quantity × unit price. */
  amountCents: number;
  /** What the tax rules call it: software or hardware (printers and routers). */
  taxKind: Exclude<TaxProductKind, "all">;
  /** Whether the discount code applies to it. */
  eligible: boolean;
  /**
   * No tax of the place is worked out on it: a printer or router the store does not ship there is not sold there,
   * so charging that place's tax on it would show a tax no order will ever pay.
   */
  untaxed?: boolean;
};

export type LineResult = {
  discountCents: number;
  taxes: TaxAmount[];
  taxCents: number;
  /** The sum of the rates charged on it. */
  taxRateBasisPoints: number;
  /** What the line comes to: amount less discount, plus tax unless prices include it. */
  totalCents: number;
};

export type PricingResult = {
  lines: LineResult[];
  subtotalCents: number;
  shippingCents: number;
  /** Everything the code took off, the shipping's part included. */
  discountCents: number;
  shippingDiscountCents: number;
  shippingTaxes: TaxAmount[];
  shippingTaxCents: number;
  /** The tax per name and rate, lines and shipping together. */
  taxes: TaxAmount[];
  taxCents: number;
  pricesIncludeTax: boolean;
  totalCents: number;
};

/** Whether a rule taxes a kind of product. */
export const ruleTaxes = (rule: Pick<PlaceTaxRule, "productKind">, kind: MathLine["taxKind"]) =>
  rule.productKind === "all" || rule.productKind === kind;

/** The taxes at `rules` on an amount (already less its discount), each on the same base, halves rounded up. */
export function taxesOn(baseCents: number, rules: PlaceTaxRule[], pricesIncludeTax: boolean): TaxAmount[] {
  if (rules.length === 0) return [];
  const combined = rules.reduce((sum, rule) => sum + rule.rateBasisPoints, 0);
  const amounts = rules.map((rule) =>
    pricesIncludeTax
      ? mulDivHalfUp(baseCents, rule.rateBasisPoints, 10_000 + combined)
      : mulDivHalfUp(baseCents, rule.rateBasisPoints, 10_000),
  );
  const taxed = amounts.reduce((sum, amount) => sum + amount, 0);
  // With prices including tax, what the taxes were charged on is the price less the taxes in it.
  const taxableCents = pricesIncludeTax ? baseCents - taxed : baseCents;
  return rules.map((rule, index) => ({
    name: rule.name,
    rateBasisPoints: rule.rateBasisPoints,
    taxableCents,
    taxCents: amounts[index]!,
  }));
}

/** Adds taxes up by name and rate, in the order first met. */
export function sumTaxAmounts(lists: TaxAmount[][]): TaxAmount[] {
  const sums = new Map<string, TaxAmount>();
  for (const tax of lists.flat()) {
    const key = `${tax.name}\u0000${tax.rateBasisPoints}`;
    const sum = sums.get(key) ?? { ...tax, taxableCents: 0, taxCents: 0 };
    sum.taxableCents += tax.taxableCents;
    sum.taxCents += tax.taxCents;
    sums.set(key, sum);
  }
  return [...sums.values()];
}

const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

/** Prices a cart's lines and shipping with a discount code (or none) and the tax rules of its place. */
export function priceWithDiscountAndTax({
  lines,
  shippingCents,
  discount,
  rules,
  pricesIncludeTax,
  shippingUntaxed = false,
}: {
  lines: MathLine[];
  shippingCents: number;
  discount: DiscountTerms | null;
  rules: PlaceTaxRule[];
  pricesIncludeTax: boolean;
  /** Shipping to a place the store does not ship to is not taxed there either (see MathLine.untaxed). */
  shippingUntaxed?: boolean;
}): PricingResult {
  for (const line of lines) {
    if (!Number.isSafeInteger(line.amountCents) || line.amountCents < 0)
      throw new RangeError("line amounts are whole cents, not negative");
  }
  if (!Number.isSafeInteger(shippingCents) || shippingCents < 0)
    throw new RangeError("shipping is whole cents, not negative");

  // The discount, line by line, then shipping.
  let lineDiscounts = lines.map(() => 0);
  let shippingDiscountCents = 0;
  if (discount?.kind === "percent") {
    const rate = Math.min(Math.max(discount.percentBasisPoints ?? 0, 0), 10_000);
    lineDiscounts = lines.map((line) => (line.eligible ? mulDivHalfUp(line.amountCents, rate, 10_000) : 0));
    if (discount.includesShipping) shippingDiscountCents = mulDivHalfUp(shippingCents, rate, 10_000);
  } else if (discount?.kind === "fixed") {
    const amount = Math.max(discount.amountCents ?? 0, 0);
    const eligibleCents = total(lines.map((line) => (line.eligible ? line.amountCents : 0)));
    const onLines = Math.min(amount, eligibleCents);
    lineDiscounts = shareLargestRemainder(
      onLines,
      lines.map((line) => (line.eligible ? line.amountCents : 0)),
    );
    if (discount.includesShipping) shippingDiscountCents = Math.min(amount - onLines, shippingCents);
  }

  const shippingRules = shippingUntaxed ? [] : dedupe(rules.filter((rule) => rule.appliesToShipping));
  const lineResults: LineResult[] = lines.map((line, index) => {
    const discountCents = lineDiscounts[index]!;
    const applying = line.untaxed ? [] : rules.filter((rule) => ruleTaxes(rule, line.taxKind));
    const taxes = taxesOn(line.amountCents - discountCents, applying, pricesIncludeTax);
    const taxCents = total(taxes.map((tax) => tax.taxCents));
    return {
      discountCents,
      taxes,
      taxCents,
      taxRateBasisPoints: total(applying.map((rule) => rule.rateBasisPoints)),
      totalCents: line.amountCents - discountCents + (pricesIncludeTax ? 0 : taxCents),
    };
  });
  const shippingTaxes = taxesOn(shippingCents - shippingDiscountCents, shippingRules, pricesIncludeTax);
  const shippingTaxCents = total(shippingTaxes.map((tax) => tax.taxCents));

  const subtotalCents = total(lines.map((line) => line.amountCents));
  const discountCents = total(lineDiscounts) + shippingDiscountCents;
  const taxCents = total(lineResults.map((line) => line.taxCents)) + shippingTaxCents;
  return {
    lines: lineResults,
    subtotalCents,
    shippingCents,
    discountCents,
    shippingDiscountCents,
    shippingTaxes,
    shippingTaxCents,
    taxes: sumTaxAmounts([...lineResults.map((line) => line.taxes), shippingTaxes]).filter(
      (tax) => tax.taxCents !== 0 || tax.taxableCents !== 0,
    ),
    taxCents,
    pricesIncludeTax,
    totalCents: subtotalCents + shippingCents - discountCents + (pricesIncludeTax ? 0 : taxCents),
  };
}

/**
 * Shipping is taxed once per tax (name and rate), however many rules of it tax shipping: a store with one rule for
 * software and one for hardware, both taxing shipping, charges that tax on shipping once.
 */
function dedupe(rules: PlaceTaxRule[]): PlaceTaxRule[] {
  const seen = new Set<string>();
  return rules.filter((rule) => {
    const key = `${rule.name}\u0000${rule.rateBasisPoints}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A tax rule as stored, for picking the rules of a place. */
export type StoredTaxRule = PlaceTaxRule & { country: string; region: string; position: number };

/**
 * The rules of a place: those of its exact region when the store has any there, otherwise those of the whole
 * country (region ''), in the admin's order. None: the store charges no tax there.
 */
export function rulesForPlace<Rule extends StoredTaxRule>(
  rules: Rule[],
  place: { country: string; region: string },
): Rule[] {
  const inCountry = rules.filter((rule) => rule.country === place.country);
  const region = place.region.trim().toUpperCase();
  const ofRegion = region === "" ? [] : inCountry.filter((rule) => rule.region === region);
  const chosen = ofRegion.length > 0 ? ofRegion : inCountry.filter((rule) => rule.region === "");
  return [...chosen].sort((a, b) => a.position - b.position);
}
