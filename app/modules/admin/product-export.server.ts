/**
 * CSV product export in the import's own format (PRODUCT_CSV_COLUMNS, their headers): a file exported and imported
 * again changes nothing (every row "unchanged"). Served as /admin/export/products.csv.
 */
import { asc, eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { type Product, products, productVariants } from "~db/schema";
import { csvLine, EXPORT_MAX_ROWS } from "./exports.server";
import {
  PRODUCT_CSV_COLUMNS,
  type ProductField,
  VARIANT_CSV_COLUMNS,
  type VariantField,
} from "./product-import";
import { productFormValues } from "./products.server";
import { variantFormValues } from "./variants.server";

/** A product's cells, by field, as the import reads them back. */
function rowOf(product: Product): Record<ProductField, string> {
  const values = productFormValues(product);
  return {
    ...values,
    hidden: values.hidden === "true" ? "true" : "false",
    waitingOrders: values.waitingOrders === "wait" ? "yes" : "no",
  };
}

/**
 * The CSV text (CRLF line ends; the route adds the BOM), through the shared csvLine: a text a spreadsheet would run
 * as a formula gets a leading apostrophe, which the import takes off again (csvUnguard).
 */
export function productsCsv(products: Product[]): string {
  return (
    csvLine(PRODUCT_CSV_COLUMNS.map((column) => column.header)) +
    products
      .map((product) => {
        const row = rowOf(product);
        return csvLine(PRODUCT_CSV_COLUMNS.map((column) => row[column.field]));
      })
      .join("")
  );
}

/**
 * Every variant of the catalogue in the variants import's format (VARIANT_CSV_COLUMNS), by product and in each
 * product's order: a file exported and imported again changes nothing. Served as /admin/export/variants.csv.
 */
export async function variantsCsv(db: Database): Promise<string> {
  const rows = await db
    .select({ route: products.route, variant: productVariants })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .orderBy(asc(products.route), asc(productVariants.position), asc(productVariants.id))
    .limit(EXPORT_MAX_ROWS);
  return (
    csvLine(VARIANT_CSV_COLUMNS.map((column) => column.header)) +
    rows
      .map(({ route, variant }) => {
        const values = variantFormValues(variant);
        const row: Record<VariantField, string> = {
          ...values,
          route,
          hidden: values.hidden === "true" ? "true" : "false",
          position: String(variant.position),
        };
        return csvLine(VARIANT_CSV_COLUMNS.map((column) => row[column.field]));
      })
      .join("")
  );
}
