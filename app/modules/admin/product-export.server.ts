/**
 * CSV product export in the import's own format (PRODUCT_CSV_COLUMNS, their headers): a file exported and imported
 * again changes nothing (every row "unchanged").
 */
import type { Product } from "~db/schema";
import { PRODUCT_CSV_COLUMNS, type ProductField } from "./product-import";
import { productFormValues } from "./products.server";

/** Every cell quoted, quotes doubled: commas, line breaks and quotes inside a cell survive any spreadsheet. */
const cell = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** A product's cells, by field, as the import reads them back. */
function rowOf(product: Product): Record<ProductField, string> {
  const values = productFormValues(product);
  return {
    ...values,
    hidden: values.hidden === "true" ? "true" : "false",
    waitingOrders: values.waitingOrders === "wait" ? "yes" : "no",
  };
}

/** The CSV text (UTF-8 with a BOM so spreadsheet programs read accents right; CRLF line ends). */
export function productsCsv(products: Product[]): string {
  const lines = [
    PRODUCT_CSV_COLUMNS.map((column) => cell(column.header)).join(","),
    ...products.map((product) => {
      const row = rowOf(product);
      return PRODUCT_CSV_COLUMNS.map((column) => cell(row[column.field])).join(",");
    }),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
