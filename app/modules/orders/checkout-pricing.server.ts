import { and, asc, count, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { orders, promotions, taxRules, user } from "~db/schema";
import type { Promotion } from "~db/schema/pricing";
import type { TaxAmount } from "~db/schema/orders";
import { COUNTRIES } from "~/lib/address";
import { regionsOf } from "~/lib/regions";
import type { CartRequestLine } from "~/modules/cart/cart";
import { brandNames } from "~/modules/catalogue/catalogue.server";
import { codeApplies, codeNotValid, codeRefusal, perCustomerRefusal } from "~/modules/cart/discount-code";
import { type LineResult, priceWithDiscountAndTax, rulesForPlace } from "~/modules/cart/pricing-math";
import { type PricedCart, type PricedLine, priceCart } from "~/modules/cart/pricing.server";
import { convertCents, type Currency } from "~/lib/money";
import { getSettings, inrRateOf, shippingCost } from "./settings.server";

/**
 * A cart priced for checkout: the catalogue's prices, shipping, the discount code and the taxes of the place it is
 * taxed at, all worked out by cart/pricing-math. The cart's quote and placing an order both call this, so the
 * amounts the shopper is shown are the amounts the order keeps.
 */

/** Where an order is taxed: a country and, where taxes go by state, the state's code ('' for none given). */
export type TaxPlace = { country: string; region: string };

export type CheckoutLine = PricedLine & LineResult & { discountEligible: boolean };

export type CheckoutPricing = Omit<PricedCart, "lines"> & {
  lines: CheckoutLine[];
  shippingCents: number;
  /** The code applied (as stored), or null. */
  discount: { code: string; promotionId: number; perCustomerLimit: number | null } | null;
  /** Why the code asked for was not applied; null when it was, or none was asked for. */
  codeProblem: string | null;
  /** Whether the code was refused as not valid (the answer a wrong guess gets), rather than for what the cart lacks. */
  codeNotValid: boolean;
  discountCents: number;
  shippingDiscountCents: number;
  shippingTaxCents: number;
  taxes: TaxAmount[];
  taxCents: number;
  pricesIncludeTax: boolean;
  totalCents: number;
  /** The place taxed, or null when no address is known yet. */
  taxPlace: TaxPlace | null;
  /**
   * The country the printers and routers would go to when the store does not ship there (they are left untaxed and
   * the order cannot be placed); null when it does, or nothing ships.
   */
  noShippingTo: string | null;
  /** What the page says about tax: where none is charged, or what it still needs. */
  taxNote: string;
};

/** "New York, United States", "Uttar Pradesh, India", "Germany". */
export function placeName(place: TaxPlace): string {
  const country = COUNTRIES[place.country] ?? place.country;
  const region = place.region ? (regionsOf(place.country)?.[place.region] ?? place.region) : "";
  return region ? `${region}, ${country}` : country;
}

/** A code as stored, matched in any case; locked for the order's transaction when asked. */
async function findPromotion(db: Database | Transaction, code: string, lock: boolean) {
  const query = db
    .select()
    .from(promotions)
    .where(eq(sql`lower(${promotions.code})`, code.toLowerCase()));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * `place` is where the order is taxed: where its printers and routers ship when it has any, else the billing address.
 */
export async function priceForCheckout(
  db: Database | Transaction,
  cart: CartRequestLine[],
  {
    code,
    place,
    now = new Date(),
    lockPromotion = false,
    currency = "USD",
  }: {
    code: string;
    place: TaxPlace | null;
    now?: Date;
    lockPromotion?: boolean;
    /** What every amount is worked out in, from the catalogue's dollars at the store's rate (ADR 0039). */
    currency?: Currency;
  },
): Promise<CheckoutPricing & { promotion: Promotion | null }> {
  const [store, rules] = await Promise.all([
    getSettings(db),
    db.select().from(taxRules).orderBy(asc(taxRules.position), asc(taxRules.id)),
  ]);
  const rate = inrRateOf(store);
  const priced = await priceCart(db, cart, { currency, rate });
  // Shipping's flat rate and free-shipping threshold are dollar settings, worked out at the same rate.
  const shippingCents = shippingCost(
    {
      shippingFlatCents: convertCents(store.shippingFlatCents, currency, rate),
      freeShippingThresholdCents: convertCents(store.freeShippingThresholdCents, currency, rate),
    },
    priced.physicalSubtotalCents,
    priced.hasPhysical,
  );

  let promotion: Promotion | null = null;
  let codeProblem: string | null = null;
  let notValid = false;
  const eligible = (line: PricedLine) =>
    promotion !== null && codeApplies(promotion, { ...line, productId: line.productId });
  if (code !== "" && priced.lines.length > 0) {
    const found = await findPromotion(db, code, lockPromotion);
    const eligibleLines = found ? priced.lines.filter((line) => codeApplies(found, line)).length : 0;
    const refusal = codeRefusal(found, code, {
      now,
      subtotalCents: priced.subtotalCents,
      eligibleLines,
      currency,
      rate,
      // A code for brands the cart has none of names them, as the shop shows them.
      brandNames:
        found?.scope === "brands" && eligibleLines === 0
          ? await brandNames(db, found.scopeValues)
          : undefined,
    });
    if (refusal) ({ message: codeProblem, notValid } = refusal);
    else promotion = found;
  }

  let taxPlace: TaxPlace | null = null;
  let taxNote = "";
  let placeRules: ReturnType<typeof rulesForPlace<(typeof rules)[number]>> = [];
  if (place && place.country in COUNTRIES) {
    taxPlace = { country: place.country, region: place.region.trim().toUpperCase() };
    const needsRegion =
      taxPlace.region === "" &&
      regionsOf(taxPlace.country) !== undefined &&
      rules.some((rule) => rule.country === taxPlace!.country && rule.region !== "");
    // Without a state, only the country's own rules apply; the page says a state may change that.
    placeRules = rulesForPlace(rules, taxPlace);
    if (needsRegion)
      taxNote = `Choose your state: we charge tax in some states of ${placeName(taxPlace)}${placeRules.length === 0 ? ", none without a state" : ""}`;
    else if (placeRules.length === 0) taxNote = `No tax is charged for ${placeName(taxPlace)}`;
  } else if (priced.lines.length > 0) {
    taxNote = "Tax, where we charge it, is worked out at checkout from your address";
  }
  // Goods the store cannot send there are not sold there: no tax of that place is worked out on them.
  const noShippingTo =
    priced.hasPhysical && taxPlace && !store.shipsTo.includes(taxPlace.country) ? taxPlace.country : null;
  if (noShippingTo)
    taxNote = `No tax is worked out on printers and routers: we do not ship them to ${COUNTRIES[noShippingTo] ?? noShippingTo}`;

  const math = priceWithDiscountAndTax({
    lines: priced.lines.map((line) => ({
      amountCents: line.lineTotalCents,
      taxKind: line.kind === "physical" ? "hardware" : "software",
      eligible: eligible(line),
      untaxed: noShippingTo !== null && line.kind === "physical",
    })),
    shippingCents,
    discount: promotion,
    rules: placeRules,
    pricesIncludeTax: store.pricesIncludeTax,
    shippingUntaxed: noShippingTo !== null,
  });
  if (placeRules.length > 0 && math.taxCents === 0 && !taxNote)
    taxNote = `No tax is charged on these products in ${placeName(taxPlace!)}`;

  return {
    ...priced,
    lines: priced.lines.map((line, index) => ({
      ...line,
      ...math.lines[index]!,
      discountEligible: eligible(line),
    })),
    shippingCents,
    discount: promotion
      ? { code: promotion.code, promotionId: promotion.id, perCustomerLimit: promotion.perCustomerLimit }
      : null,
    promotion,
    codeProblem,
    codeNotValid: notValid,
    discountCents: math.discountCents,
    shippingDiscountCents: math.shippingDiscountCents,
    shippingTaxCents: math.shippingTaxCents,
    taxes: math.taxes,
    taxCents: math.taxCents,
    pricesIncludeTax: math.pricesIncludeTax,
    totalCents: math.totalCents,
    taxPlace,
    noShippingTo,
    taxNote,
  };
}

/**
 * Counts one use of a code for an order, in the order's transaction, after priceForCheckout locked the code's row:
 * refused when the buyer has had their share. The row lock (SELECT ... FOR UPDATE) makes concurrent orders take
 * turns, and the update is conditional as well, so a code's uses never pass its limit.
 *
 * A buyer's share counts what they can be held to: orders paid for with their e-mail address, and orders placed
 * from a confirmed account (theirs, when they are signed in, or one with their address). An unpaid order anyone
 * placed with their address does not count: typing a stranger's address must not use up the stranger's code.
 */
export async function countCodeUse(
  tx: Transaction,
  promotion: Promotion,
  { typed, email, userId = null }: { typed: string; email: string; userId?: string | null },
): Promise<{ ok: true } | { ok: false; message: string; notValid: boolean }> {
  if (promotion.perCustomerLimit !== null) {
    const confirmedAccount = sql`exists (select 1 from ${user} where ${user.id} = ${orders.userId} and ${user.emailVerified})`;
    const sameAddress = eq(sql`lower(${orders.email})`, email.toLowerCase());
    const [used] = await tx
      .select({ n: count() })
      .from(orders)
      .where(
        and(
          eq(orders.promotionId, promotion.id),
          ne(orders.status, "cancelled"),
          or(
            and(sameAddress, or(isNotNull(orders.paidAt), confirmedAccount)),
            userId ? and(eq(orders.userId, userId), confirmedAccount) : undefined,
          ),
        ),
      );
    if ((used?.n ?? 0) >= promotion.perCustomerLimit)
      return {
        ok: false,
        message: perCustomerRefusal(promotion.code, promotion.perCustomerLimit),
        notValid: false,
      };
  }
  const raised = await tx
    .update(promotions)
    .set({ uses: sql`${promotions.uses} + 1` })
    .where(
      and(
        eq(promotions.id, promotion.id),
        sql`(${promotions.usageLimit} is null or ${promotions.uses} < ${promotions.usageLimit})`,
      ),
    )
    .returning({ uses: promotions.uses });
  // Used up by an order placed a moment before: the same answer as any code that cannot be used.
  if (raised.length === 0) return { ok: false, message: codeNotValid(typed), notValid: true };
  return { ok: true };
}

/** Gives back the use an unpaid order took of its code, when it is cancelled (once: the caller changes its status). */
export async function releaseCodeUse(tx: Transaction, promotionId: number | null): Promise<boolean> {
  if (promotionId === null) return false;
  const released = await tx
    .update(promotions)
    .set({ uses: sql`greatest(${promotions.uses} - 1, 0)` })
    .where(eq(promotions.id, promotionId))
    .returning({ id: promotions.id });
  return released.length > 0;
}
