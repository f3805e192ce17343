import { z } from "zod";
import { formatMoney, parseMoney } from "~/lib/money";

/**
 * The fields the discount code and tax forms share: percentages kept in basis points (1 = 0.01%), amounts of money
 * in cents, whole-number limits and times. Each check says what was wrong in words; the zod fields below run it in
 * the browser and in the action alike.
 */

type Parsed<Value> = { ok: true; value: Value } | { ok: false; message: string };

/** "12.5", "12.5 %", "8.250" -> basis points (1250, 1250, 825), within [min, max] basis points. */
export function parsePercent(
  text: string,
  {
    min,
    max,
    decimals = 2,
    what = "percentage",
  }: { min: number; max: number; decimals?: 2 | 3; what?: string },
): Parsed<number> {
  const cleaned = text.trim().replace(/\s*%$/, "");
  if (cleaned === "") return { ok: false, message: `Enter the ${what}, like 10 or 12.5` };
  if (/^-\s*\d/.test(cleaned)) return { ok: false, message: `The ${what} cannot be negative` };
  const match = /^(\d{1,9})(?:[.](\d+))?$/.exec(cleaned);
  if (!match) return { ok: false, message: `Enter the ${what} as a number, like 10 or 12.5` };
  const fraction = match[2] ?? "";
  if (fraction.length > decimals)
    return { ok: false, message: `Give the ${what} with at most ${decimals} decimals, like 12.5` };
  // Basis points hold two decimals of a percent; a third decimal is accepted only as a 0 (8.250).
  if (/[1-9]/.test(fraction.slice(2)))
    return {
      ok: false,
      message: `The store keeps rates to a hundredth of a percent: round ${cleaned} to ${roundedHint(match[1]!, fraction)}`,
    };
  const basisPoints = Number(match[1]) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
  if (basisPoints > max)
    return { ok: false, message: `The ${what} can be at most ${formatBasisPoints(max)}` };
  if (basisPoints < min)
    return {
      ok: false,
      message:
        min === 1
          ? `The ${what} must be at least 0.01%`
          : `The ${what} must be at least ${formatBasisPoints(min)}`,
    };
  return { ok: true, value: basisPoints };
}

/** The two hundredths nearest a value with a third decimal, as a hint: "8.87 or 8.88". */
function roundedHint(whole: string, fraction: string) {
  const down = Number(whole) * 100 + Number(fraction.slice(0, 2));
  return `${formatBasisPoints(down).replace("%", "")} or ${formatBasisPoints(down + 1).replace("%", "")}`;
}

/** 1250 -> "12.5%", 1000 -> "10%", 1 -> "0.01%". */
export function formatBasisPoints(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = String(basisPoints % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${whole}${rest ? `.${rest}` : ""}%`;
}

/** Basis points as the form shows them again: 1250 -> "12.5". */
export const basisPointsInput = (basisPoints: number) => formatBasisPoints(basisPoints).replace("%", "");

/** "$1,250.50", "1250.5" -> 125050 cents, within [minCents, maxCents]. */
export function parseMoneyInput(
  text: string,
  { what, minCents, maxCents }: { what: string; minCents: number; maxCents: number },
): Parsed<number> {
  const cleaned = text
    .trim()
    .replace(/^\$\s*/, "")
    .replaceAll(",", "");
  if (cleaned === "") return { ok: false, message: `Enter the ${what}, like 5.00` };
  if (/^-/.test(cleaned))
    return {
      ok: false,
      message: minCents > 0 ? `The ${what} must be more than $0.00` : `The ${what} cannot be negative`,
    };
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned))
    return { ok: false, message: `Enter the ${what} in dollars and cents, like 5.00` };
  const cents = parseMoney(cleaned);
  if (cents > maxCents) return { ok: false, message: `The ${what} can be at most ${formatMoney(maxCents)}` };
  if (cents < minCents)
    return {
      ok: false,
      message: minCents === 1 ? `The ${what} must be more than $0.00` : `At least ${formatMoney(minCents)}`,
    };
  return { ok: true, value: cents };
}

/** A zod field for one of the parsers above: the message beside the field, the parsed value out. */
export function parsedField<Value>(parse: (text: string) => Parsed<Value>, required: string) {
  return z
    .string({ error: required })
    .superRefine((text, ctx) => {
      const parsed = parse(text);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
    })
    .transform((text) => (parse(text) as { ok: true; value: Value }).value);
}

/** Empty means no limit (null); otherwise a whole number from 1 to 1,000,000. */
export const optionalLimit = z
  .string()
  .optional()
  .transform((text) => (text ?? "").trim().replaceAll(",", ""))
  .refine(
    (text) => text === "" || (/^\d{1,7}$/.test(text) && Number(text) >= 1 && Number(text) <= 1_000_000),
    "Enter a whole number from 1 to 1,000,000, or leave it empty for no limit",
  )
  .transform((text) => (text === "" ? null : Number(text)));

/**
 * A time in the admin's forms: the browser's date-and-time field ("2026-11-27T09:00"), read as UTC like every time
 * the admin area shows. Empty is null.
 */
export const optionalDateTime = z
  .string()
  .optional()
  .transform((text) => (text ?? "").trim())
  .refine(
    (text) => text === "" || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text),
    "Enter a date and time, like 2026-11-27 09:00",
  )
  .refine(
    (text) => text === "" || !/^\d{4}-\d{2}-\d{2}T/.test(text) || realTime(text),
    "This date does not exist",
  )
  .refine(
    (text) => text === "" || !realTime(text) || (text >= "2000" && text < "2101"),
    "Enter a time between 2000 and 2100",
  )
  .transform((text) => (text === "" ? null : new Date(`${text.length === 16 ? `${text}:00` : text}Z`)));

function realTime(text: string) {
  const full = text.length === 16 ? `${text}:00` : text;
  const date = new Date(`${full}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(full);
}

/** A stored time as the date-and-time field shows it (UTC): "2026-11-27T09:00". */
export const dateTimeInput = (value: Date | string | null) =>
  value ? new Date(value).toISOString().slice(0, 16) : "";
