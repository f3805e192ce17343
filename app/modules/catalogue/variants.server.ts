import { asc, inArray } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { productVariants } from "~db/schema";
import type { VariantOption } from "./variants";

const optionColumns = {
  id: productVariants.id,
  productId: productVariants.productId,
  sku: productVariants.sku,
  label: productVariants.label,
  priceCents: productVariants.priceCents,
  originalPriceCents: productVariants.originalPriceCents,
  inrPriceCents: productVariants.inrPriceCents,
  termMonths: productVariants.termMonths,
  hidden: productVariants.hidden,
};

/**
 * The variants of each product, in the admin's order, hidden ones included (`hidden` says which): a product with
 * any variant, even one hidden, is sold only as one of those on sale, never as itself.
 */
export async function variantsOfProducts(
  db: Database | Transaction,
  productIds: number[],
): Promise<Map<number, Array<VariantOption & { hidden: boolean }>>> {
  const found = new Map<number, Array<VariantOption & { hidden: boolean }>>();
  if (productIds.length === 0) return found;
  const rows = await db
    .select(optionColumns)
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  for (const { productId, ...variant } of rows) {
    const list = found.get(productId) ?? [];
    list.push(variant);
    found.set(productId, list);
  }
  return found;
}

/** The variants of a product on sale, in the admin's order; with `hasVariants`, whether it has any at all. */
export async function variantsOnSale(db: Database | Transaction, productId: number) {
  const all = (await variantsOfProducts(db, [productId])).get(productId) ?? [];
  return {
    hasVariants: all.length > 0,
    variants: all.filter((variant) => !variant.hidden).map(({ hidden: _hidden, ...variant }) => variant),
  };
}
