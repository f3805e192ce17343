/** Money is integer cents everywhere; this is the only place it is parsed from or formatted to text. */

const CURRENCY = "USD";
const formatter = new Intl.NumberFormat("en-US", { style: "currency", currency: CURRENCY });

/** "49.99" -> 4999. Throws on anything that is not a plain decimal with up to two places. */
export function parseMoney(text: string): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`Not an amount of money: ${JSON.stringify(text)}`);
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** 4999 -> "49.99", the catalogue file's format; -50 -> "-0.50" (a credit in an export). */
export function toDecimalString(cents: number): string {
  const magnitude = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.trunc(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`;
}

/** 4999 -> "$49.99", for people. */
export function formatMoney(cents: number): string {
  return formatter.format(cents / 100);
}

/** Whole percent saved, or 0 when there is no real discount. */
export function discountPercent(priceCents: number, originalPriceCents: number): number {
  if (originalPriceCents <= priceCents || originalPriceCents === 0) return 0;
  return Math.round(((originalPriceCents - priceCents) / originalPriceCents) * 100);
}
