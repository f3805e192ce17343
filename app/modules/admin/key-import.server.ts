/**
 * What a licence-key import reads: keys pasted one per line, or a file. A file whose first row names its columns
 * (key, and any of supplier, cost and batch) gives each key its own source; otherwise each line's first column is a
 * key and the form's supplier, cost and batch apply to all of them.
 */
import { CsvError, parse } from "csv-parse/sync";
import { parseMoney } from "~/lib/money";
import type { KeyEntry, KeySource } from "~/modules/orders/licence-keys.server";

/** A supplier's or batch's longest name (the database refuses longer). */
export const KEY_SOURCE_MAX = 100;
/** The dearest cost a key may be given: $1,000,000 (the database refuses more). */
const MAX_COST_CENTS = 100_000_000;

/** The form's fields, as typed: each may be empty. */
export type KeySourceFields = { supplier?: string; cost?: string; batch?: string };

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const HEADERS: Record<string, keyof KeySource | "key"> = {
  key: "key",
  licencekey: "key",
  licensekey: "key",
  supplier: "supplier",
  cost: "costCents",
  batch: "batch",
};
const headerOf = (cell: string) => HEADERS[cell.toLowerCase().replace(/[\s_-]+/g, "")];

/** "12.50" -> 1250; an empty cell is "not said" (null), never zero. */
function costOf(text: string, where: string): Parsed<number | null> {
  const cleaned = text.trim().replace(/^\$/, "");
  if (cleaned === "") return { ok: true, value: null };
  let cents: number;
  try {
    cents = parseMoney(cleaned);
  } catch {
    return { ok: false, message: `${where}the cost "${text.trim()}" is not an amount, like 12.50` };
  }
  if (cents > MAX_COST_CENTS) return { ok: false, message: `${where}a key's cost can be at most $1,000,000` };
  return { ok: true, value: cents };
}

function nameOf(text: string, what: string, where: string): Parsed<string | null> {
  const cleaned = text.trim();
  if (cleaned === "") return { ok: true, value: null };
  if (cleaned.length > KEY_SOURCE_MAX) {
    return { ok: false, message: `${where}the ${what} has at most ${KEY_SOURCE_MAX} characters` };
  }
  return { ok: true, value: cleaned };
}

function checkKey(key: string, where: string): string | null {
  if (key.length < 5) return `${where}each key must have at least 5 characters`;
  if (key.length > 200) return `${where}a key has at most 200 characters`;
  return null;
}

const capitalized = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/** The form's supplier, cost and batch, checked. */
export function keySourceOf(fields: KeySourceFields): Parsed<KeySource> {
  const supplier = nameOf(fields.supplier ?? "", "supplier", "");
  if (!supplier.ok) return { ok: false, message: capitalized(supplier.message) };
  const cost = costOf(fields.cost ?? "", "");
  if (!cost.ok) return { ok: false, message: capitalized(cost.message) };
  const batch = nameOf(fields.batch ?? "", "batch", "");
  if (!batch.ok) return { ok: false, message: capitalized(batch.message) };
  return { ok: true, value: { supplier: supplier.value, costCents: cost.value, batch: batch.value } };
}

/**
 * The keys of an import with their sources, or what is wrong, naming the row: nothing is imported unless every
 * row is right. A cell left empty in a file takes the form's value.
 */
export function parseKeyImport(text: string, fields: KeySourceFields): Parsed<KeyEntry[]> {
  const defaults = keySourceOf(fields);
  if (!defaults.ok) return defaults;
  const firstLine = text.slice(0, text.search(/\r?\n|$/)).replace(/^\uFEFF/, "");
  const firstCells = firstLine.split(/[,;\t]/).map((cell) => cell.trim().replace(/^"|"$/g, ""));
  const named = firstCells.map(headerOf);
  if (firstCells.length > 1 && named.includes("key")) return parseKeyFile(text, defaults.value);
  // One key per line; a bare list exported as CSV has the key first, and perhaps a header naming it.
  const keys = text
    .split(/\r?\n/)
    .map((line) =>
      line
        .split(",")[0]!
        .replace(/^\uFEFF/, "")
        .replace(/^"|"$/g, "")
        .trim(),
    )
    .filter((key) => key !== "" && headerOf(key) !== "key");
  if (keys.length === 0) return { ok: false, message: "Paste the keys, one per line" };
  for (const [index, key] of keys.entries()) {
    const wrong = checkKey(key, keys.length > 1 ? `Key ${index + 1}: ` : "");
    if (wrong) return { ok: false, message: capitalized(wrong) };
  }
  return { ok: true, value: keys.map((key) => ({ key, ...defaults.value })) };
}

function parseKeyFile(text: string, defaults: KeySource): Parsed<KeyEntry[]> {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: [",", ";", "\t"],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (error) {
    if (error instanceof CsvError) {
      return { ok: false, message: `The file could not be read as CSV: ${error.message}` };
    }
    throw error;
  }
  const [header = [], ...rows] = records;
  const columns = header.map(headerOf);
  const unknown = header.find((cell, index) => columns[index] === undefined && cell !== "");
  if (unknown !== undefined) {
    return {
      ok: false,
      message: `The file has a column "${unknown}" the import does not know: its columns are key, supplier, cost and batch`,
    };
  }
  const keyColumn = columns.indexOf("key");
  const cell = (row: string[], field: keyof KeySource) => {
    const index = columns.indexOf(field);
    return index < 0 ? "" : (row[index] ?? "");
  };
  const entries: KeyEntry[] = [];
  for (const [index, row] of rows.entries()) {
    // The header is row 1.
    const where = `Row ${index + 2}: `;
    const key = (row[keyColumn] ?? "").trim();
    const wrongKey = key === "" ? `${where}the key is empty` : checkKey(key, where);
    if (wrongKey) return { ok: false, message: capitalized(wrongKey) };
    const supplier = nameOf(cell(row, "supplier"), "supplier", where);
    if (!supplier.ok) return { ok: false, message: capitalized(supplier.message) };
    const cost = costOf(cell(row, "costCents"), where);
    if (!cost.ok) return { ok: false, message: capitalized(cost.message) };
    const batch = nameOf(cell(row, "batch"), "batch", where);
    if (!batch.ok) return { ok: false, message: capitalized(batch.message) };
    entries.push({
      key,
      supplier: supplier.value ?? defaults.supplier,
      costCents: cost.value ?? defaults.costCents,
      batch: batch.value ?? defaults.batch,
    });
  }
  if (entries.length === 0) return { ok: false, message: "The file has a header but no keys under it" };
  return { ok: true, value: entries };
}
