import { z } from "zod";
import type { PromotionScope } from "~db/schema/pricing";
import { convertCents, CURRENCY_NAMES, type Currency, formatMoney, type InrRate } from "~/lib/money";
import { isSection, SECTIONS } from "~/modules/catalogue/sections";

/**
 * Discount codes as the cart and checkout take them: the code's shape, and why a code is refused. Pure code, shared
 * by the pages and the server. A code the shopper cannot use now and could not know of (unknown, paused, expired,
 * used up, not started) gets one answer, so that answers cannot be used to find private or upcoming codes by
 * guessing; only a code that works says what the cart still needs (docs/decisions/0019).
 */

/** The longest code there is (the admin's form allows no longer). */
export const MAX_CODE_LENGTH = 40;

/** A code as typed: trimmed; '' for none. Too long or with odd characters: a message naming the problem. */
export const discountCodeSchema = z
  .string("The discount code must be text")
  .max(1_000, `A discount code is at most ${MAX_CODE_LENGTH} characters`)
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .max(MAX_CODE_LENGTH, `A discount code is at most ${MAX_CODE_LENGTH} characters`)
      .regex(/^[\p{L}\p{N}_-]*$/u, "A discount code has only letters, digits, - and _"),
  );

/** What the checks need of a code as stored. */
export type CodeRecord = {
  code: string;
  paused: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  uses: number;
  minSubtotalCents: number;
  scope: PromotionScope;
  scopeValues: string[];
  kind: "percent" | "fixed";
  /** What its amount off and its minimum subtotal are in (ADR 0039). */
  currency: Currency;
};

/** What a code may apply to, of a cart line. */
export type ScopeLine = { section: string; groupKey: string; productId: number };

/** Whether a code applies to a line of the cart. */
export function codeApplies(promotion: Pick<CodeRecord, "scope" | "scopeValues">, line: ScopeLine): boolean {
  switch (promotion.scope) {
    case "order":
      return true;
    case "section":
      return promotion.scopeValues.includes(line.section);
    case "brands":
      return promotion.scopeValues.includes(line.groupKey);
    case "products":
      return promotion.scopeValues.includes(String(line.productId));
  }
}

/** The one answer for every code that cannot be used now, whatever the reason: said with the code as typed. */
export const codeNotValid = (typed: string) => `The discount code "${typed}" is not valid`;

/** Why a code is refused: `notValid` for the one answer that tells nothing about the code (it counts as a guess). */
export type CodeRefusal = { message: string; notValid: boolean };

/**
 * Why a code cannot be used on a cart now, or null when it can. `eligibleLines` is how many of the cart's lines it
 * applies to; `brandNames` names the brands of a code limited to brands (by their keys).
 */
export function codeRefusal(
  promotion: CodeRecord | null,
  typed: string,
  cart: {
    now: Date;
    subtotalCents: number;
    eligibleLines: number;
    brandNames?: Record<string, string>;
    /** The cart's currency and the store's rate; dollars when not given. */
    currency?: Currency;
    rate?: InrRate;
  },
): CodeRefusal | null {
  if (
    !promotion ||
    promotion.paused ||
    (promotion.endsAt && promotion.endsAt <= cart.now) ||
    (promotion.usageLimit !== null && promotion.uses >= promotion.usageLimit) ||
    (promotion.startsAt && promotion.startsAt > cart.now)
  )
    return { message: codeNotValid(typed), notValid: true };
  const code = promotion.code;
  const currency = cart.currency ?? "USD";
  // A fixed amount (or a minimum) in another currency: the code works only in its own, a dollar minimum excepted.
  const minimum =
    promotion.currency === currency
      ? promotion.minSubtotalCents
      : promotion.currency === "USD" && cart.rate && promotion.kind === "percent"
        ? convertCents(promotion.minSubtotalCents, currency, cart.rate)
        : promotion.kind === "percent" && promotion.minSubtotalCents === 0
          ? 0
          : null;
  if (minimum === null)
    return {
      message: `The discount code "${code}" is for orders in ${CURRENCY_NAMES[promotion.currency]}: switch the currency to ${promotion.currency} to use it`,
      notValid: false,
    };
  // Before the minimum: adding more of what the code does not cover would not help.
  if (cart.eligibleLines === 0) {
    const covers = coveredNames(promotion, cart.brandNames ?? {});
    return {
      message: covers
        ? `The discount code "${code}" applies only to ${covers}, and your cart has none`
        : `The discount code "${code}" does not apply to anything in your cart`,
      notValid: false,
    };
  }
  if (cart.subtotalCents < minimum)
    return {
      message: `The discount code "${code}" needs a subtotal of at least ${formatMoney(minimum, currency)}: add ${formatMoney(minimum - cart.subtotalCents, currency)} more`,
      notValid: false,
    };
  return null;
}

/** What a code limited to sections or brands covers, in words ("Printers and Routers"); null for other codes. */
function coveredNames(
  { scope, scopeValues }: Pick<CodeRecord, "scope" | "scopeValues">,
  brandNames: Record<string, string>,
): string | null {
  const names =
    scope === "section"
      ? scopeValues.filter(isSection).map((section) => SECTIONS[section].label)
      : scope === "brands"
        ? scopeValues.map((key) => brandNames[key] ?? key)
        : [];
  return names.length > 0 ? new Intl.ListFormat("en-US", { type: "conjunction" }).format(names) : null;
}

/** Said at placing when the buyer's e-mail address has had its share of a code. */
export const perCustomerRefusal = (code: string, limit: number) =>
  limit === 1
    ? `The discount code "${code}" can be used once per customer, and this e-mail address has used it already`
    : `The discount code "${code}" can be used ${limit} times per customer, and this e-mail address has used it that often`;
