/**
 * CSV product export in the import's own format (PRODUCT_CSV_COLUMNS, their headers): a file exported and imported
 * again changes nothing (every row "unchanged"). Served as /admin/export/products.csv.
 */
import type { Product } from "~db/schema";
import { csvLine } from "./exports.server";
import { PRODUCT_CSV_COLUMNS, type ProductField } from "./product-import";
import { productFormValues } from "./products.server";

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
