/**
 * Small type checks for the modules every page loads in the browser (the cart, the signed-in user), where zod's
 * 17 KB (gzip) would weigh on every first load (docs/decisions/0025-first-load-budget.md). Forms and actions keep
 * their zod schemas: those load with the pages that need them.
 */

/** A plain object (not null, not an array), whose fields are still to be checked. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Text of `min` to `max` characters (UTF-16 code units, as `String.length` and zod count). */
export const isText = (value: unknown, min = 0, max = Number.POSITIVE_INFINITY): value is string =>
  typeof value === "string" && value.length >= min && value.length <= max;

/** A finite number. */
export const isFiniteNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);

/** A whole number from `min` to `max` (safe integers only). */
export const isWholeNumber = (
  value: unknown,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): value is number => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** Text or null. */
export const isTextOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === "string";
