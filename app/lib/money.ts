/**
 * Money is integer minor units everywhere (cents, paise); this is the only place it is parsed from or formatted to
 * text, and where a catalogue price in dollars is worked out in rupees.
 */

/** "49.99" -> 4999. Throws on anything that is not a plain decimal with up to two places. */
export function parseMoney(text: string): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`Not an amount of money: ${JSON.stringify(text)}`);
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/**
 * A form's optional price as a column: undefined (the field was not sent) leaves the stored one, null clears it,
 * text is parsed.
 */
export const rupeeCents = (text: string | null | undefined): number | null | undefined =>
  text === undefined || text === null ? text : parseMoney(text);

/** 4999 -> "49.99", the catalogue file's format; -50 -> "-0.50" (a credit in an export). */
export function toDecimalString(cents: number): string {
  const magnitude = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.trunc(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`;
}

/** "1234567" -> "1,234,567". */
const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ",");

/**
 * 4999 -> "$49.99", 123456 -> "$1,234.56", -150 -> "-$1.50" (in rupees: 12345600 -> "₹1,23,456.00"), for people: what Intl.NumberFormat("en-US") writes
 * for US dollars. Written out because a browser takes 35 to 50 ms of a slow phone's main thread to build that
 * formatter (its currency data), on every page that shows a price.
 */
export function formatMoney(cents: number, currency: Currency = "USD"): string {
  if (currency === "INR") return formatRupees(cents);
  const magnitude = Math.round(Math.abs(cents));
  const dollars = groupThousands(String(Math.trunc(magnitude / 100)));
  return `${cents < 0 && magnitude > 0 ? "-" : ""}$${dollars}.${String(magnitude % 100).padStart(2, "0")}`;
}

/**
 * 1234 -> "1,234": a count (of reviews, of customers) written as Intl.NumberFormat("en-US") writes it, without
 * building a formatter on every render (see formatMoney).
 */
export function formatCount(count: number): string {
  return `${count < 0 ? "-" : ""}${groupThousands(String(Math.trunc(Math.abs(count))))}`;
}

/** Whole percent saved, or 0 when there is no real discount. */
export function discountPercent(priceCents: number, originalPriceCents: number): number {
  if (originalPriceCents <= priceCents || originalPriceCents === 0) return 0;
  return Math.round(((originalPriceCents - priceCents) / originalPriceCents) * 100);
}

/** The currencies the store sells in: prices are kept in US dollars, rupees come from them (ADR 0039). */
export const CURRENCIES = ["USD", "INR"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = "USD";
export const isCurrency = (value: unknown): value is Currency =>
  typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);
/** What a shopper reads in the currency switch and in messages. */
export const CURRENCY_NAMES: Record<Currency, string> = { USD: "US dollars", INR: "Indian rupees" };
/** The cookie that keeps a shopper's choice, and the query parameter that sets it. */
export const CURRENCY_COOKIE = "currency";

/** How a converted rupee price is rounded: to the paisa, to the whole rupee, or up to the next rupee ending in 9. */
export const INR_ROUNDINGS = ["paisa", "rupee", "nine"] as const;
export type InrRounding = (typeof INR_ROUNDINGS)[number];
/** The rate a price in rupees is worked out at: paise per US dollar (8350 = ₹83.50), and its rounding. */
export type InrRate = { paisePerUsd: number; rounding: InrRounding };
/** The rate of a store that never set one: ₹83.50 a dollar, whole rupees. */
export const DEFAULT_INR_RATE: InrRate = { paisePerUsd: 8350, rounding: "rupee" };

/**
 * A catalogue amount (US cents) in `currency`'s minor units: cents as they are; paise at the rate, halves rounded
 * up, then by the rate's rounding (whole rupees, or up to the next ...9 rupees). 0 stays 0.
 */
export function convertCents(usdCents: number, currency: Currency, rate: InrRate): number {
  if (currency === "USD" || usdCents === 0) return usdCents;
  const sign = usdCents < 0 ? -1 : 1;
  const paise = Math.round((Math.abs(usdCents) * rate.paisePerUsd) / 100);
  if (rate.rounding === "paisa") return sign * paise;
  const rupees = Math.round(paise / 100);
  if (rate.rounding === "rupee") return sign * rupees * 100;
  return sign * (Math.ceil((Math.ceil(paise / 100) + 1) / 10) * 10 - 1) * 100;
}

/** A price of the catalogue: kept in dollars, with the owner's own rupee price where they set one (ADR 0039). */
export type CataloguePrice = {
  priceCents: number;
  originalPriceCents: number;
  inrPriceCents?: number | null;
};

/**
 * A catalogue price as a shopper in `currency` pays it, in its minor units: the owner's own rupee price when set,
 * else the dollar price at the rate. The price before the discount is always at the rate: a discount is shown only
 * when that is above the price paid.
 */
export function priceIn(
  item: CataloguePrice,
  currency: Currency,
  rate: InrRate,
): { priceCents: number; originalPriceCents: number } {
  return {
    priceCents: unitPriceIn(item, currency, rate),
    originalPriceCents: convertCents(item.originalPriceCents, currency, rate),
  };
}

/** What one unit costs in `currency`: the owner's own rupee price when set, else the dollar price at the rate. */
export function unitPriceIn(
  item: Pick<CataloguePrice, "priceCents" | "inrPriceCents">,
  currency: Currency,
  rate: InrRate,
): number {
  const own = currency === "INR" ? item.inrPriceCents : null;
  return own ?? convertCents(item.priceCents, currency, rate);
}

/** 12345600 -> "₹1,23,456.00": the Indian grouping (thousands, then hundreds of thousands), what Intl "en-IN" writes. */
function formatRupees(paise: number): string {
  const magnitude = Math.round(Math.abs(paise));
  const whole = String(Math.trunc(magnitude / 100));
  const grouped =
    whole.length <= 3 ? whole : `${whole.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ",")},${whole.slice(-3)}`;
  return `${paise < 0 && magnitude > 0 ? "-" : ""}₹${grouped}.${String(magnitude % 100).padStart(2, "0")}`;
}
