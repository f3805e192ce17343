/**
 * CSV product import. All or nothing: every row is checked first (the same product schema as the form, then the
 * catalogue's own rules: the brand exists, the address is free, no two rows take the same product or address), and
 * the rows are written in one transaction only when none failed. "Check" runs the same steps and writes nothing.
 */
import { inArray, sql } from "drizzle-orm";
import { CsvError, parse } from "csv-parse/sync";
import type { Database, Transaction } from "~db/client.server";
import { auditLog, brandGroups, products } from "~db/schema";
import { fieldErrors } from "~/lib/forms";
import { formatBytes } from "~/lib/byte-size";
import { isPhysicalSection } from "~/modules/catalogue/sections";
import { recordAudit } from "~/lib/audit-log.server";
import { csvUnguard } from "./exports.server";
import {
  type CsvColumn,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportCounts,
  type ImportKind,
  type ImportReport,
  type ImportRowReport,
  PRODUCT_CSV_COLUMNS,
  type ProductField,
  VARIANT_CSV_COLUMNS,
} from "./product-import";
import { brandPageReason, reservedRouteReason } from "./product-routes";
import { productFormValues, toRow } from "./products.server";
import { type ProductForm, productFormSchema } from "./schemas";

type Product = typeof products.$inferSelect;

/** One data row of the file: its number, and its cells by field (only the file's own columns). */
export type CsvRow<Field extends string = ProductField> = {
  row: number;
  values: Partial<Record<Field, string>>;
  cellError?: string;
};

export type FileColumns<Field extends string = ProductField> = Array<{ field: Field; header: string }>;

type ParsedCsv<Field extends string> =
  | { ok: true; columns: FileColumns<Field>; rows: Array<CsvRow<Field>> }
  | { ok: false; error: string };

const normalizeHeader = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");

/** The separator of the header line: comma, semicolon (spreadsheets in many locales) or tab. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [",", ";", "\t"].map((delimiter) => [delimiter, firstLine.split(delimiter).length] as const);
  return counts.reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/** Reads the CSV text into rows of product fields, or says what is wrong with the file as a whole. */
export const parseProductCsv = (text: string) => parseCatalogueCsv(text, PRODUCT_CSV_COLUMNS, "product");

/**
 * Whether the file is a variants file rather than a products file: its header names a SKU, which a product has not.
 * Read from the first line alone, so a file that is not valid CSV is still reported by the parser of its kind.
 */
export function importKindOf(text: string): ImportKind {
  const clean = text.replace(/^\uFEFF/, "");
  const sku = VARIANT_CSV_COLUMNS.find((column) => column.field === "sku")!;
  const header = clean.slice(0, clean.search(/\r?\n|$/)).split(delimiterOf(clean));
  return header.some((cell) => {
    const key = normalizeHeader(cell.trim().replace(/^"|"$/g, ""));
    return key === sku.header || sku.aliases.includes(key);
  })
    ? "variants"
    : "products";
}

/** Reads the CSV text into rows of the columns' fields, or says what is wrong with the file as a whole. */
export function parseCatalogueCsv<Field extends string>(
  text: string,
  catalogueColumns: Array<CsvColumn<Field>>,
  noun: "product" | "variant",
): ParsedCsv<Field> {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > IMPORT_MAX_BYTES) {
    return {
      ok: false,
      error: `The file is ${formatBytes(bytes, "up")}: the import takes at most ${formatBytes(IMPORT_MAX_BYTES)}. Split it into smaller files.`,
    };
  }
  if (text.trim() === "")
    return { ok: false, error: `The file is empty: give a header row and ${noun} rows.` };
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text.replace(/^\uFEFF/, "")),
      skip_empty_lines: true,
      relax_column_count: true,
      // A row past the limit stops the parser: the file is refused without reading the rest.
      to: IMPORT_MAX_ROWS + 2,
    });
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      return {
        ok: false,
        error: `The file is not valid CSV${line ? ` (line ${line})` : ""}: ${error.message.replace(/^Invalid \w+: /, "")}`,
      };
    }
    throw error;
  }
  const [head, ...body] = records;
  if (!head) return { ok: false, error: `The file is empty: give a header row and ${noun} rows.` };

  const columns: Array<{ field: Field; header: string } | null> = [];
  const seen = new Map<Field, string>();
  const unknown: string[] = [];
  for (const cell of head) {
    const header = cell.trim();
    const key = normalizeHeader(header);
    const column = catalogueColumns.find(
      (entry) => normalizeHeader(entry.header) === key || entry.aliases.includes(key),
    );
    if (!column) {
      if (header !== "") unknown.push(header);
      columns.push(null);
      continue;
    }
    const before = seen.get(column.field);
    if (before !== undefined) {
      return {
        ok: false,
        error: `The header has two columns for the same field: "${before}" and "${header}".`,
      };
    }
    seen.set(column.field, header);
    columns.push({ field: column.field, header });
  }
  if (columns.every((column) => column === null)) {
    return {
      ok: false,
      error: `The first row must name the columns (${catalogueColumns
        .filter((column) => column.required)
        .map((column) => column.header)
        .join(", ")}…): this one names none of them.`,
    };
  }
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `The header has columns the import does not know: ${unknown.map((name) => `"${name}"`).join(", ")}. Use ${catalogueColumns.map((column) => column.header).join(", ")}.`,
    };
  }
  const missing = catalogueColumns.filter((column) => column.required && !seen.has(column.field));
  if (missing.length > 0) {
    return {
      ok: false,
      error: `The header row lacks the column${missing.length > 1 ? "s" : ""} ${missing.map((column) => `"${column.header}"`).join(", ")}. The first row must name the columns.`,
    };
  }
  if (body.length === 0) return { ok: false, error: `The file has a header row but no ${noun} rows.` };
  if (body.length > IMPORT_MAX_ROWS) {
    return {
      ok: false,
      error: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString("en-US")} ${noun} rows: split it into smaller files.`,
    };
  }
  const rows = body.map((record, index): CsvRow<Field> => {
    const values: CsvRow<Field>["values"] = {};
    columns.forEach((column, at) => {
      if (column) values[column.field] = csvUnguard((record[at] ?? "").trim());
    });
    const row: CsvRow<Field> = { row: index + 2, values };
    if (record.length !== head.length) {
      row.cellError = `This row has ${record.length} cells; the header has ${head.length}`;
    }
    return row;
  });
  return { ok: true, columns: columns.filter((column) => column !== null), rows };
}

/** The yes/no cells of a file (hidden, backorders), in lower case. */
export const HIDDEN_VALUES: Record<string, boolean> = {
  "": false,
  false: false,
  no: false,
  n: false,
  "0": false,
  true: true,
  yes: true,
  y: true,
  "1": true,
};

/** The last segment of a route as a product id, when the file gives none. */
const idFromRoute = (route: string) =>
  (route.split("/").filter(Boolean).pop() ?? "").replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 90);

type Planned =
  | { kind: "create"; report: ImportRowReport; form: ProductForm }
  | { kind: "update"; report: ImportRowReport; form: ProductForm; before: Product }
  | { kind: "unchanged"; report: ImportRowReport }
  | { kind: "error"; report: ImportRowReport };

/**
 * Decides what each row does against the catalogue as it is now (read through `db`, the import's transaction when
 * it writes). Rows that fail carry their messages by CSV column.
 */
async function plan(db: Database | Transaction, columns: FileColumns, rows: CsvRow[]): Promise<Planned[]> {
  const headerOf = (field: string) =>
    columns.find((column) => column.field === field)?.header ??
    PRODUCT_CSV_COLUMNS.find((column) => column.field === field)?.header ??
    "row";
  const has = (field: ProductField) => columns.some((column) => column.field === field);

  const brands = await db
    .select({
      key: brandGroups.key,
      name: brandGroups.name,
      section: brandGroups.section,
      slug: brandGroups.slug,
    })
    .from(brandGroups);
  const brandKeys = new Set(brands.map((brand) => brand.key));

  // The products the file can touch: by route, and by (group, id) where the file gives ids.
  const routes = [...new Set(rows.map((row) => (row.values.route ?? "").toLowerCase()).filter(Boolean))];
  const pairs = rows
    .filter((row) => row.values.groupKey && row.values.externalId)
    .map((row) => `${row.values.groupKey}\u0000${row.values.externalId}`);
  const existing = new Map<number, Product>();
  for (let at = 0; at < routes.length; at += 1000) {
    for (const product of await db
      .select()
      .from(products)
      .where(inArray(sql`lower(${products.route})`, routes.slice(at, at + 1000))))
      existing.set(product.id, product);
  }
  const groupsInFile = [...new Set(rows.map((row) => row.values.groupKey ?? "").filter(Boolean))];
  // Every id of the groups the file names: for ids given in the file, and to keep new ids from the route unique.
  const takenIds = new Map<string, number>();
  if (groupsInFile.length > 0) {
    for (const product of await db
      .select({ id: products.id, groupKey: products.groupKey, externalId: products.externalId })
      .from(products)
      .where(inArray(products.groupKey, groupsInFile)))
      takenIds.set(`${product.groupKey}\u0000${product.externalId}`, product.id);
  }
  const wanted = [...new Set(pairs)].map((pair) => takenIds.get(pair)).filter((id) => id !== undefined);
  const missing = wanted.filter((id) => !existing.has(id));
  for (let at = 0; at < missing.length; at += 1000) {
    for (const product of await db
      .select()
      .from(products)
      .where(inArray(products.id, missing.slice(at, at + 1000))))
      existing.set(product.id, product);
  }
  const byRoute = new Map([...existing.values()].map((product) => [product.route.toLowerCase(), product]));

  const routeInFile = new Map<string, number>();
  const productInFile = new Map<string, number>();
  const targetInFile = new Map<number, number>();

  return rows.map((row): Planned => {
    const name = row.values.name ?? "";
    const route = row.values.route ?? "";
    const report: ImportRowReport = { row: row.row, status: "error", name, route };
    const fail = (errors: Record<string, string>): Planned => ({
      kind: "error",
      report: { ...report, errors },
    });
    if (row.cellError) return fail({ row: row.cellError });

    const hiddenText = (row.values.hidden ?? "").toLowerCase();
    if (has("hidden") && !(hiddenText in HIDDEN_VALUES)) {
      return fail({ [headerOf("hidden")]: "Use true or false" });
    }

    // Which product the row is: by (group, id) when the file gives an id, else by its route.
    const groupKey = row.values.groupKey ?? "";
    const givenId = row.values.externalId ?? "";
    let target: Product | undefined;
    if (givenId !== "") {
      const id = takenIds.get(`${groupKey}\u0000${givenId}`);
      target = id === undefined ? undefined : existing.get(id);
    } else {
      const owner = byRoute.get(route.toLowerCase());
      if (owner && owner.groupKey === groupKey) target = owner;
    }

    // Columns the file does not have keep the product's current values; a new product gets the defaults.
    const current: Record<string, string> = target ? productFormValues(target) : {};
    const values: Record<string, string> = { ...current };
    for (const column of PRODUCT_CSV_COLUMNS) {
      const cell = row.values[column.field];
      // An empty id cell means "the product at this route": its id stays.
      if (cell !== undefined && !(column.field === "externalId" && cell === "")) values[column.field] = cell;
    }
    if (has("hidden")) values.hidden = HIDDEN_VALUES[hiddenText] ? "true" : "";
    const backorderText = (row.values.waitingOrders ?? "").trim().toLowerCase();
    if (has("waitingOrders")) {
      if (backorderText === "") {
        if (current.waitingOrders === undefined) delete values.waitingOrders;
        else values.waitingOrders = current.waitingOrders;
      } else if (backorderText in HIDDEN_VALUES) {
        values.waitingOrders = HIDDEN_VALUES[backorderText] ? "wait" : "refuse";
      } else if (backorderText === "wait" || backorderText === "refuse") {
        values.waitingOrders = backorderText;
      } else {
        return fail({ [headerOf("waitingOrders")]: "Use yes or no" });
      }
    }
    if (!target && (values.externalId ?? "") === "") {
      let id = idFromRoute(route) || "product";
      for (
        let n = 2;
        takenIds.has(`${groupKey}\u0000${id}`) || productInFile.has(`${groupKey}\u0000${id}`);
        n++
      )
        id = `${idFromRoute(route)}-${n}`;
      values.externalId = id;
    }

    const parsed = productFormSchema.safeParse(values);
    const errors: Record<string, string> = {};
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) {
        errors[headerOf(field === "form" ? "row" : field.split(".")[0]!)] ??= message!;
      }
    }
    const form = parsed.success ? parsed.data : undefined;
    if (groupKey !== "" && !brandKeys.has(groupKey)) {
      errors[headerOf("groupKey")] = `There is no brand group "${groupKey}"`;
    } else if (
      typeof form?.stock === "number" &&
      !isPhysicalSection(brands.find((brand) => brand.key === groupKey)!.section)
    ) {
      errors[headerOf("stock")] = "Software counts its licence keys: leave the stock empty";
    }
    const routeKey = route.toLowerCase();
    if (form) {
      const owner = byRoute.get(routeKey);
      if (owner && owner.id !== target?.id) {
        errors[headerOf("route")] = `This address belongs to ${owner.name} (${owner.groupKey})`;
      } else if (!owner) {
        const reserved = reservedRouteReason(form.route) ?? brandPageReason(form.route, brands);
        if (reserved) errors[headerOf("route")] = reserved;
      }
    }
    // Two rows of the file must not be one product or take one address.
    const earlierRoute = routeInFile.get(routeKey);
    if (routeKey !== "" && earlierRoute !== undefined) {
      errors[headerOf("route")] = `Row ${earlierRoute} has the same address`;
    }
    const productKey = `${groupKey}\u0000${values.externalId ?? ""}`;
    const earlierProduct = target ? targetInFile.get(target.id) : productInFile.get(productKey);
    if (earlierProduct !== undefined) {
      errors[headerOf(givenId !== "" ? "externalId" : "route")] ??=
        `Row ${earlierProduct} is the same product`;
    }
    if (routeKey !== "" && earlierRoute === undefined) routeInFile.set(routeKey, row.row);
    if (earlierProduct === undefined) {
      if (target) targetInFile.set(target.id, row.row);
      productInFile.set(productKey, row.row);
    }

    if (Object.keys(errors).length > 0 || !form) return fail(errors);
    const named = { ...report, name: form.name, route: form.route };
    if (!target) return { kind: "create", form, report: { ...named, status: "create" } };
    const withId = { ...named, productId: target.id };
    if (sameProduct(target, form)) return { kind: "unchanged", report: { ...withId, status: "unchanged" } };
    return { kind: "update", form, before: target, report: { ...withId, status: "update" } };
  });
}

function sameProduct(product: Product, form: ProductForm): boolean {
  const next = toRow(form);
  return (Object.keys(next) as Array<keyof typeof next>).every(
    (key) => JSON.stringify(product[key]) === JSON.stringify(next[key]),
  );
}

const countOf = (planned: Array<{ report: ImportRowReport }>): ImportCounts => {
  const counts: ImportCounts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const entry of planned) counts[entry.report.status]++;
  return counts;
};

const isUniqueViolation = (error: unknown): boolean => {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
};

/**
 * The Check / Import flow of a catalogue file, products or variants: `plan` decides each row against the catalogue
 * as read through the database it is given; an import plans again in one transaction and runs `write` only when no
 * row failed, so the rows are written all or none.
 */
export async function checkOrImport<Planned extends { report: ImportRowReport }>(
  db: Database,
  {
    mode,
    kind,
    plan,
    write,
  }: {
    mode: "check" | "import";
    kind: ImportKind;
    plan: (db: Database | Transaction, writing: boolean) => Promise<Planned[]>;
    write: (tx: Transaction, planned: Planned[], counts: ImportCounts) => Promise<void>;
  },
): Promise<ImportReport> {
  const reportOf = (planned: Planned[], imported: boolean): ImportReport => ({
    ok: true,
    kind,
    mode,
    imported,
    rows: planned.map((entry) => entry.report),
    counts: countOf(planned),
  });
  if (mode === "check") return reportOf(await plan(db, false), false);
  try {
    return await db.transaction(async (tx) => {
      // One catalogue import at a time (products and variants alike), so two files cannot both take the same
      // address or SKU between check and write.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin:product-import'))`);
      const planned = await plan(tx, true);
      const counts = countOf(planned);
      if (counts.error > 0) return reportOf(planned, false);
      await write(tx, planned, counts);
      return reportOf(planned, true);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return {
        ok: false,
        error: `The catalogue changed while importing (${kind === "products" ? "an id or address" : "a SKU"} was taken meanwhile): check the file again.`,
      };
    }
    throw error;
  }
}

/**
 * Checks (mode "check") or imports (mode "import") a product CSV. An import writes every row or, when any row
 * fails, none; the report says per row what happened or would happen.
 */
export async function importProductCsv(
  db: Database,
  text: string,
  { mode, admin }: { mode: "check" | "import"; admin: string },
): Promise<ImportReport> {
  const parsed = parseProductCsv(text);
  if (!parsed.ok) return parsed;
  const { columns, rows } = parsed;
  return checkOrImport(db, {
    mode,
    kind: "products",
    plan: (reader) => plan(reader, columns, rows),
    write: async (tx, planned, counts) => {
      const creates = planned.filter((entry) => entry.kind === "create");
      for (let at = 0; at < creates.length; at += 500) {
        const batch = creates.slice(at, at + 500);
        const inserted = await tx
          .insert(products)
          .values(batch.map((entry) => toRow(entry.form)))
          .returning();
        inserted.forEach((row, index) => (batch[index]!.report.productId = row.id));
        await recordAuditBatch(
          tx,
          inserted.map((row) => ({ action: "product.create", entityId: row.id, after: row })),
          admin,
        );
      }
      const updates = planned.filter((entry) => entry.kind === "update");
      for (let at = 0; at < updates.length; at += 500) {
        const batch = updates.slice(at, at + 500);
        await updateBatch(
          tx,
          batch.map((entry) => ({ id: entry.before.id, row: toRow(entry.form) })),
        );
        await recordAuditBatch(
          tx,
          batch.map((entry) => ({
            action: "product.update",
            entityId: entry.before.id,
            before: entry.before,
            after: { ...entry.before, ...toRow(entry.form) },
          })),
          admin,
        );
      }
      await recordAudit(tx, {
        actor: admin,
        action: "product.import",
        entity: "product",
        entityId: "csv",
        after: counts,
      });
    },
  });
}

/** Many audit entries of products in one statement (as recordAudit writes them one by one). */
export async function recordAuditBatch(
  tx: Transaction,
  entries: Array<{ action: string; entityId: number; before?: unknown; after: unknown }>,
  admin: string,
) {
  if (entries.length === 0) return;
  await tx.insert(auditLog).values(
    entries.map((entry) => ({
      actor: admin,
      action: entry.action,
      entity: "product",
      entityId: String(entry.entityId),
      before: entry.before === undefined ? null : (JSON.parse(JSON.stringify(entry.before)) as unknown),
      after: JSON.parse(JSON.stringify(entry.after)) as unknown,
    })),
  );
}

/** Writes many products' new fields in one statement: update ... from (values ...). */
async function updateBatch(tx: Transaction, entries: Array<{ id: number; row: ReturnType<typeof toRow> }>) {
  if (entries.length === 0) return;
  const values = sql.join(
    entries.map(
      ({ id, row }) =>
        sql`(${id}::integer, ${row.groupKey}::text, ${row.externalId}::text, ${row.name}::text, ${row.description}::text, ${row.priceCents}::integer, ${row.originalPriceCents}::integer, ${JSON.stringify(row.categories)}::jsonb, ${row.img}::text, ${row.route}::text, ${JSON.stringify(row.specifications)}::jsonb, ${row.hidden}::boolean, ${row.waitingOrders ?? null}::boolean, ${row.stock ?? null}::integer)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${products} set
      group_key = v.group_key, external_id = v.external_id, name = v.name, description = v.description,
      price_cents = v.price_cents, original_price_cents = v.original_price_cents,
      categories = array(select jsonb_array_elements_text(v.categories)), img = v.img, route = v.route,
      specifications = v.specifications, hidden = v.hidden,
      waiting_orders = coalesce(v.waiting_orders, ${products.waitingOrders}), stock = v.stock, updated_at = now()
    from (values ${values}) as v(id, group_key, external_id, name, description, price_cents,
      original_price_cents, categories, img, route, specifications, hidden, waiting_orders, stock)
    where ${products.id} = v.id`);
}
