/** Money is integer cents everywhere; this is the only place it is parsed from or formatted to text. */

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

/**
 * 4999 -> "$49.99", 123456 -> "$1,234.56", -150 -> "-$1.50", for people: what Intl.NumberFormat("en-US") writes
 * for US dollars. Written out because a browser takes 35 to 50 ms of a slow phone's main thread to build that
 * formatter (its currency data), on every page that shows a price.
 */
export function formatMoney(cents: number): string {
  const magnitude = Math.round(Math.abs(cents));
  const dollars = String(Math.trunc(magnitude / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${cents < 0 && magnitude > 0 ? "-" : ""}$${dollars}.${String(magnitude % 100).padStart(2, "0")}`;
}

/** Whole percent saved, or 0 when there is no real discount. */
export function discountPercent(priceCents: number, originalPriceCents: number): number {
  if (originalPriceCents <= priceCents || originalPriceCents === 0) return 0;
  return Math.round(((originalPriceCents - priceCents) / originalPriceCents) * 100);
}
