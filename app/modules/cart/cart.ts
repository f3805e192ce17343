import { isRecord, isText, isWholeNumber } from "~/lib/checks";

/** At most this many of one product in a cart (and in an order). */
export const MAX_QUANTITY = 99;
/** At most this many different products in a cart. */
export const MAX_LINES = 50;

/**
 * A cart line identifies a product (its group and its id within the group) and how many.
 * Name and price are what the visitor saw when adding it: hints for display and for flagging a price change,
 * never what is charged. A stored quantity the store cannot accept (0, 1.5, 1000, "x") is kept as it is (NaN when
 * it is not a number) so the cart can show the line and let the shopper fix it.
 */
export type CartLine = {
  groupKey: string;
  id: string;
  /** The SKU of the variant chosen, for a product sold in variants ("1 device, 1 year"). */
  variant?: string;
  name: string;
  priceCents?: number;
  quantity: number;
};
export type ProductRef = {
  groupKey: string;
  id: string;
  variant?: string;
  name: string;
  priceCents?: number;
};

/** What names one thing to buy: a product (its group key and id within the group) and the variant chosen, if any. */
type ItemRef = { groupKey: string; id: string; variant?: string | null };

/**
 * An object naming a product: its group key and its id within the group, and a variant's SKU when it has one (a
 * variant that is not text names nothing we sell).
 */
const namesProduct = (
  value: unknown,
): value is Record<string, unknown> & { groupKey: string; id: string; variant?: string } =>
  isRecord(value) &&
  isText(value.groupKey, 1, 60) &&
  isText(value.id, 1, 100) &&
  (value.variant === undefined || isText(value.variant, 1, 64));

const isName = (value: unknown): value is string => isText(value, 0, 300);
const isPriceCents = (value: unknown): value is number => isWholeNumber(value, 0, 100_000_000);

/** A stored line that names a product, with what else it holds that is usable (a bad name or price is dropped). */
function storedLine(entry: unknown): CartLine | null {
  if (!namesProduct(entry)) return null;
  const line: CartLine = {
    groupKey: entry.groupKey,
    id: entry.id,
    ...(entry.variant === undefined ? {} : { variant: entry.variant }),
    name: isName(entry.name) ? entry.name : "",
    quantity: typeof entry.quantity === "number" ? entry.quantity : Number.NaN,
  };
  if (isPriceCents(entry.priceCents)) line.priceCents = entry.priceCents;
  return line;
}

/** Whether two lines are one thing to buy: the same product, and the same variant of it (SKUs in any case). */
export const sameProduct = (a: ItemRef, b: ItemRef) =>
  a.groupKey === b.groupKey &&
  a.id === b.id &&
  (a.variant?.toLowerCase() ?? null) === (b.variant?.toLowerCase() ?? null);

/** Why a quantity cannot be ordered, said to the shopper; null when it can (a whole number from 1 to 99). */
export function quantityProblem(quantity: unknown): string | null {
  if (typeof quantity !== "number" || !Number.isFinite(quantity))
    return `Enter a number from 1 to ${MAX_QUANTITY}`;
  if (!Number.isInteger(quantity)) return "Enter a whole number";
  if (quantity < 1) return "Enter at least 1, or remove the product";
  if (quantity > MAX_QUANTITY) return `At most ${MAX_QUANTITY} of one product fit in an order`;
  return null;
}

export const isOrderable = (line: { quantity: number }) => quantityProblem(line.quantity) === null;

/** The lines of a stored cart that name a product (merging duplicates); entries that name none are dropped. */
export function sanitizeCart(value: unknown[]): CartLine[] {
  const lines: CartLine[] = [];
  for (const entry of value) {
    const parsed = storedLine(entry);
    if (!parsed) continue;
    const existing = lines.find((line) => sameProduct(line, parsed));
    if (existing) existing.quantity += parsed.quantity;
    else if (lines.length < MAX_LINES) lines.push(parsed);
  }
  return lines;
}

/** Adds to the cart as asked; the caller checks first that the total is one the store accepts. */
export function addToCart(lines: CartLine[], product: ProductRef, quantity = 1): CartLine[] {
  const existing = lines.find((line) => sameProduct(line, product));
  if (existing) {
    return lines.map((line) =>
      line === existing ? { ...line, name: product.name, quantity: line.quantity + quantity } : line,
    );
  }
  if (lines.length >= MAX_LINES) return lines;
  return [
    ...lines,
    {
      groupKey: product.groupKey,
      id: product.id,
      ...(product.variant === undefined ? {} : { variant: product.variant }),
      name: product.name,
      priceCents: product.priceCents,
      quantity,
    },
  ];
}

/** Sets a line's quantity as typed: one the store cannot accept is kept and shown, never silently changed. */
export function setQuantity(lines: CartLine[], product: ItemRef, quantity: number): CartLine[] {
  return lines.map((line) => (sameProduct(line, product) ? { ...line, quantity } : line));
}

export function removeFromCart(lines: CartLine[], product: ItemRef): CartLine[] {
  return lines.filter((line) => !sameProduct(line, product));
}

/** Items the cart can order (lines still to fix are not counted). */
export const itemCount = (lines: CartLine[]) =>
  lines.filter(isOrderable).reduce((sum, line) => sum + line.quantity, 0);

const CART_UNREADABLE = "Your cart could not be read: reload the page and try again";

/** A cart as the browser sends it (quote, checkout): product, quantity, and the name and price it saw. */
export type CartRequestLine = {
  groupKey: string;
  id: string;
  variant?: string;
  quantity: number;
  name?: string;
  priceCents?: number;
};

/** A line as the browser sends it, its quantity still to check; null when it does not name a product of ours. */
function requestLine(entry: unknown): (Omit<CartRequestLine, "quantity"> & { quantity: unknown }) | null {
  if (!namesProduct(entry)) return null;
  if (entry.name !== undefined && !isName(entry.name)) return null;
  if (entry.priceCents !== undefined && !isPriceCents(entry.priceCents)) return null;
  const line: Omit<CartRequestLine, "quantity"> & { quantity: unknown } = {
    groupKey: entry.groupKey,
    id: entry.id,
    quantity: entry.quantity,
  };
  if (entry.variant !== undefined) line.variant = entry.variant;
  if (entry.name !== undefined) line.name = entry.name;
  if (entry.priceCents !== undefined) line.priceCents = entry.priceCents;
  return line;
}

/**
 * Checks a cart sent by the browser, line by line, with a message a shopper can act on: which line and what is
 * wrong with it. Every quantity must be one the store accepts; nothing is rounded or capped.
 */
export function parseCartRequest(
  value: unknown,
): { ok: true; lines: CartRequestLine[] } | { ok: false; message: string } {
  if (!Array.isArray(value)) return { ok: false, message: CART_UNREADABLE };
  if (value.length === 0) return { ok: false, message: "Your cart is empty" };
  if (value.length > MAX_LINES)
    return { ok: false, message: `A cart holds at most ${MAX_LINES} different products` };
  const lines: CartRequestLine[] = [];
  for (const [index, entry] of value.entries()) {
    const parsed = requestLine(entry);
    if (!parsed)
      return {
        ok: false,
        message: `Line ${index + 1} of your cart is not a product of ours: remove it and add the product again`,
      };
    const problem = quantityProblem(parsed.quantity);
    if (problem)
      return {
        ok: false,
        message: `Line ${index + 1} of your cart: the quantity must be a whole number from 1 to ${MAX_QUANTITY}`,
      };
    if (lines.some((line) => sameProduct(line, parsed)))
      return { ok: false, message: `Line ${index + 1} of your cart repeats a product: reload the page` };
    lines.push({ ...parsed, quantity: parsed.quantity as number });
  }
  return { ok: true, lines };
}
