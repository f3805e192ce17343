import { z } from "zod";

/** At most this many of one product in a cart (and in an order). */
export const MAX_QUANTITY = 99;
/** At most this many different products in a cart. */
export const MAX_LINES = 50;

/**
 * A cart line identifies a product (its group and its id within the group) and how many.
 * Name and price are what the visitor saw when adding it: hints for display and for flagging a price change,
 * never what is charged.
 */
export const cartLineSchema = z.object({
  groupKey: z.string().min(1).max(60),
  id: z.string().min(1).max(100),
  name: z.string().max(300).default(""),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
});

export type CartLine = z.infer<typeof cartLineSchema>;
export type ProductRef = { groupKey: string; id: string; name: string; priceCents?: number };

export const sameProduct = (a: { groupKey: string; id: string }, b: { groupKey: string; id: string }) =>
  a.groupKey === b.groupKey && a.id === b.id;

/** Keeps the well-formed lines of a stored cart (merging duplicates), drops the rest. */
export function sanitizeCart(value: unknown[]): CartLine[] {
  const lines: CartLine[] = [];
  for (const entry of value) {
    const parsed = cartLineSchema.safeParse(entry);
    if (!parsed.success) continue;
    const existing = lines.find((line) => sameProduct(line, parsed.data));
    if (existing) existing.quantity = Math.min(MAX_QUANTITY, existing.quantity + parsed.data.quantity);
    else if (lines.length < MAX_LINES) lines.push(parsed.data);
  }
  return lines;
}

export function addToCart(lines: CartLine[], product: ProductRef, quantity = 1): CartLine[] {
  const existing = lines.find((line) => sameProduct(line, product));
  if (existing) {
    return lines.map((line) =>
      line === existing
        ? { ...line, name: product.name, quantity: Math.min(MAX_QUANTITY, line.quantity + quantity) }
        : line,
    );
  }
  if (lines.length >= MAX_LINES) return lines;
  return [
    ...lines,
    {
      groupKey: product.groupKey,
      id: product.id,
      name: product.name,
      priceCents: product.priceCents,
      quantity: Math.min(MAX_QUANTITY, quantity),
    },
  ];
}

export function setQuantity(
  lines: CartLine[],
  product: { groupKey: string; id: string },
  quantity: number,
): CartLine[] {
  if (!Number.isInteger(quantity) || quantity < 1) return removeFromCart(lines, product);
  return lines.map((line) =>
    sameProduct(line, product) ? { ...line, quantity: Math.min(MAX_QUANTITY, quantity) } : line,
  );
}

export function removeFromCart(lines: CartLine[], product: { groupKey: string; id: string }): CartLine[] {
  return lines.filter((line) => !sameProduct(line, product));
}

export const itemCount = (lines: CartLine[]) => lines.reduce((sum, line) => sum + line.quantity, 0);
