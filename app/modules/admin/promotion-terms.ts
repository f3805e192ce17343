import type { PromotionKind, PromotionScope } from "~db/schema/pricing";
import { type Currency, formatMoney } from "~/lib/money";
import { isSection, SECTIONS } from "~/modules/catalogue/sections";
import { formatBasisPoints } from "./pricing-fields";

export type PromotionTerms = {
  kind: PromotionKind;
  /** What its amount and minimum are in (dollars when not said). */
  currency?: Currency;
  percentBasisPoints: number | null;
  amountCents: number | null;
  scope: PromotionScope;
  scopeValues: string[];
  minSubtotalCents: number;
  includesShipping: boolean;
};

/** The names of what codes apply to: brand groups by key, products by id (as text). */
export type ScopeNames = { brands: Record<string, string>; products: Record<string, string> };

const list = new Intl.ListFormat("en-US", { style: "long", type: "conjunction" });

/** Up to three names, then how many more: "A, B, C and 4 more products". */
function names(items: string[], noun: string) {
  if (items.length <= 3) return list.format(items);
  return `${items.slice(0, 3).join(", ")} and ${items.length - 3} more ${noun}`;
}

/** What a code takes off, in words: "$5.00 off", "12.5% off". */
export function amountOff(
  terms: Pick<PromotionTerms, "kind" | "percentBasisPoints" | "amountCents" | "currency">,
) {
  return terms.kind === "percent"
    ? `${formatBasisPoints(terms.percentBasisPoints ?? 0)} off`
    : `${formatMoney(terms.amountCents ?? 0, terms.currency)} off`;
}

/** What a code applies to, in words: "the whole order", "Antivirus and Windows", "Norton and McAfee". */
export function appliesTo(terms: Pick<PromotionTerms, "scope" | "scopeValues">, known: ScopeNames) {
  switch (terms.scope) {
    case "order":
      return "the whole order";
    case "section":
      return names(
        terms.scopeValues.map((value) => (isSection(value) ? SECTIONS[value].label : value)),
        "sections",
      );
    case "brands":
      return names(
        terms.scopeValues.map((key) => known.brands[key] ?? `${key} (no longer in the catalogue)`),
        "brands",
      );
    case "products":
      return names(
        terms.scopeValues.map((id) => known.products[id] ?? `product ${id} (deleted)`),
        "products",
      );
  }
}

/**
 * A code's terms as the owner reads them in the list: "10% off the whole order", "$5.00 off Norton and McAfee,
 * shipping too, on orders from $50.00".
 */
export function describeTerms(terms: PromotionTerms, known: ScopeNames): string {
  const parts = [`${amountOff(terms)} ${appliesTo(terms, known)}`];
  if (terms.includesShipping) parts.push("shipping too");
  if (terms.minSubtotalCents > 0)
    parts.push(`on orders from ${formatMoney(terms.minSubtotalCents, terms.currency)}`);
  return parts.join(", ");
}
