/**
 * CSV variant import, through the product import's parser and its Check / Import flow (all or nothing). A row is
 * matched to a variant by its SKU in any case; a new SKU adds a variant to the product at the row's route. Each row
 * meets the admin form's schema and rules (variantFormSchema, variantRuleErrors). A variant the file leaves out is
 * left as it is, never deleted: it may have keys and orders.
 */
import { asc, eq, inArray, max, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, products, productVariants } from "~db/schema";
import type { ProductVariant, Section } from "~db/schema/catalogue";
import { recordAudit } from "~/lib/audit-log.server";
import { fieldErrors } from "~/lib/forms";
import {
  type ImportReport,
  type ImportRowReport,
  VARIANT_CSV_COLUMNS,
  type VariantField,
} from "./product-import";
import {
  checkOrImport,
  type CsvRow,
  type FileColumns,
  HIDDEN_VALUES,
  parseCatalogueCsv,
  recordAuditBatch,
} from "./product-import.server";
import { variantFormSchema } from "./schemas";
import { variantFormValues, variantRow, variantRuleErrors } from "./variants.server";

/** The columns a variant's row writes (its product's never changes: a variant's keys belong to that product). */
type VariantColumns = ReturnType<typeof variantRow> & { position?: number };

type Planned =
  | { kind: "create"; report: ImportRowReport; row: VariantColumns & { productId: number; position: number } }
  | { kind: "update"; report: ImportRowReport; row: VariantColumns; before: ProductVariant }
  | { kind: "unchanged"; report: ImportRowReport }
  | { kind: "error"; report: ImportRowReport };

/** Largest position a file may give: room enough, and far below the integer column's limit. */
const MAX_POSITION = 999_999;

const chunks = <T>(items: T[], size = 1000) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, at) => items.slice(at * size, (at + 1) * size));

/**
 * Decides what each row does against the catalogue as it is now (read through `db`, the import's transaction when
 * it writes, which then locks the products the file names, as the admin's form locks its product).
 */
async function plan(
  db: Database | Transaction,
  columns: FileColumns<VariantField>,
  rows: Array<CsvRow<VariantField>>,
  writing: boolean,
): Promise<Planned[]> {
  const headerOf = (field: string) =>
    columns.find((column) => column.field === field)?.header ??
    VARIANT_CSV_COLUMNS.find((column) => column.field === field)?.header ??
    "row";
  const has = (field: VariantField) => columns.some((column) => column.field === field);

  const routes = [...new Set(rows.map((row) => (row.values.route ?? "").toLowerCase()).filter(Boolean))];
  const productByRoute = new Map<string, { id: number; name: string; route: string; section: Section }>();
  for (const part of chunks(routes)) {
    const query = db
      .select({ id: products.id, name: products.name, route: products.route, section: brandGroups.section })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .where(inArray(sql`lower(${products.route})`, part))
      .orderBy(asc(products.id));
    for (const product of writing ? await query.for("update", { of: products }) : await query)
      productByRoute.set(product.route.toLowerCase(), product);
  }
  const skus = [...new Set(rows.map((row) => (row.values.sku ?? "").toLowerCase()).filter(Boolean))];
  const variantBySku = new Map<string, { variant: ProductVariant; productName: string }>();
  for (const part of chunks(skus)) {
    for (const found of await db
      .select({ variant: productVariants, productName: products.name })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(inArray(sql`lower(${productVariants.sku})`, part)))
      variantBySku.set(found.variant.sku.toLowerCase(), found);
  }
  // Each product's last position, so that new variants without one come after its others, in the file's order.
  const lastPosition = new Map<number, number>();
  for (const part of chunks([...productByRoute.values()].map((product) => product.id))) {
    for (const entry of await db
      .select({ productId: productVariants.productId, last: max(productVariants.position) })
      .from(productVariants)
      .where(inArray(productVariants.productId, part))
      .groupBy(productVariants.productId))
      lastPosition.set(entry.productId, entry.last ?? -1);
  }

  const skuInFile = new Map<string, number>();
  return rows.map((row): Planned => {
    const route = row.values.route ?? "";
    const sku = row.values.sku ?? "";
    const report: ImportRowReport = {
      row: row.row,
      status: "error",
      name: row.values.label ?? "",
      route,
      sku,
    };
    const fail = (errors: Record<string, string>): Planned => ({
      kind: "error",
      report: { ...report, errors },
    });
    if (row.cellError) return fail({ row: row.cellError });

    const hiddenText = (row.values.hidden ?? "").toLowerCase();
    if (has("hidden") && !(hiddenText in HIDDEN_VALUES)) {
      return fail({ [headerOf("hidden")]: "Use true or false" });
    }
    const product = productByRoute.get(route.toLowerCase());
    const holder = variantBySku.get(sku.toLowerCase());
    const target = holder && holder.variant.productId === product?.id ? holder.variant : undefined;

    // Columns the file does not have keep the variant's current values; a new variant gets the form's defaults.
    const values: Record<string, string> = target ? variantFormValues(target) : {};
    for (const column of VARIANT_CSV_COLUMNS) {
      const cell = row.values[column.field];
      if (cell !== undefined && column.field !== "route" && column.field !== "position")
        values[column.field] = cell;
    }
    if (has("hidden")) values.hidden = HIDDEN_VALUES[hiddenText] ? "true" : "";

    const errors: Record<string, string> = {};
    const parsed = variantFormSchema.safeParse(values);
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) {
        errors[headerOf(field === "form" ? "row" : field.split(".")[0]!)] ??= message!;
      }
    }
    const form = parsed.success ? parsed.data : undefined;
    const positionText = row.values.position ?? "";
    if (positionText !== "" && !(/^\d{1,6}$/.test(positionText) && Number(positionText) <= MAX_POSITION)) {
      errors[headerOf("position")] =
        `Enter a whole number from 0 to ${MAX_POSITION}, or leave it empty (last, for a new variant)`;
    }
    if (!product) {
      errors[headerOf("route")] =
        route === "" ? "Enter the product's page address" : `There is no product at ${route}`;
    } else if (form) {
      // A SKU of another product's variant: variants do not move between products (their keys stay with them).
      const taken = holder && !target ? { sku: holder.variant.sku, name: holder.productName } : undefined;
      for (const [field, message] of Object.entries(variantRuleErrors(form, product.section, taken)))
        errors[headerOf(field)] = message!;
    }
    const skuKey = sku.toLowerCase();
    const earlier = skuInFile.get(skuKey);
    if (skuKey !== "" && earlier !== undefined) errors[headerOf("sku")] = `Row ${earlier} has the same SKU`;
    else if (skuKey !== "") skuInFile.set(skuKey, row.row);

    if (Object.keys(errors).length > 0 || !form || !product) return fail(errors);
    const named = { ...report, name: form.label, sku: form.sku, route: product.route, productId: product.id };
    const position = positionText === "" ? undefined : Number(positionText);
    if (!target) {
      const at = position ?? (lastPosition.get(product.id) ?? -1) + 1;
      lastPosition.set(product.id, Math.max(at, lastPosition.get(product.id) ?? -1));
      return {
        kind: "create",
        row: { ...variantRow(form), productId: product.id, position: at },
        report: { ...named, status: "create" },
      };
    }
    const next: VariantColumns = { ...variantRow(form), ...(position === undefined ? {} : { position }) };
    const same = (Object.keys(next) as Array<keyof VariantColumns>).every(
      (key) => JSON.stringify(target[key]) === JSON.stringify(next[key]),
    );
    if (same) return { kind: "unchanged", report: { ...named, status: "unchanged" } };
    return { kind: "update", row: next, before: target, report: { ...named, status: "update" } };
  });
}

/** Writes many variants' new columns in one statement: update ... from (values ...). */
async function updateBatch(tx: Transaction, entries: Array<{ id: number; row: VariantColumns }>) {
  if (entries.length === 0) return;
  const values = sql.join(
    entries.map(
      ({ id, row }) =>
        sql`(${id}::integer, ${row.sku}::text, ${row.label}::text, ${row.priceCents}::integer, ${row.originalPriceCents}::integer, ${row.stock}::integer, ${row.termMonths}::integer, ${row.hidden}::boolean, ${row.position ?? null}::integer)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${productVariants} set
      sku = v.sku, label = v.label, price_cents = v.price_cents, original_price_cents = v.original_price_cents,
      stock = v.stock, term_months = v.term_months, hidden = v.hidden,
      position = coalesce(v.position, ${productVariants.position}), updated_at = now()
    from (values ${values}) as v(id, sku, label, price_cents, original_price_cents, stock, term_months, hidden,
      position)
    where ${productVariants.id} = v.id`);
}

/**
 * Checks (mode "check") or imports (mode "import") a variants CSV. An import writes every row or, when any row
 * fails, none; each variant created or changed is audited against its product, as the admin's form audits it.
 */
export async function importVariantCsv(
  db: Database,
  text: string,
  { mode, admin }: { mode: "check" | "import"; admin: string },
): Promise<ImportReport> {
  const parsed = parseCatalogueCsv(text, VARIANT_CSV_COLUMNS, "variant");
  if (!parsed.ok) return parsed;
  const { columns, rows } = parsed;
  return checkOrImport(db, {
    mode,
    kind: "variants",
    plan: (reader, writing) => plan(reader, columns, rows, writing),
    write: async (tx, planned, counts) => {
      const creates = planned.flatMap((entry) => (entry.kind === "create" ? [entry] : []));
      for (let at = 0; at < creates.length; at += 500) {
        const inserted = await tx
          .insert(productVariants)
          .values(creates.slice(at, at + 500).map((entry) => entry.row))
          .returning();
        await recordAuditBatch(
          tx,
          inserted.map((row) => ({ action: "variant.create", entityId: row.productId, after: row })),
          admin,
        );
      }
      const updates = planned.flatMap((entry) => (entry.kind === "update" ? [entry] : []));
      for (let at = 0; at < updates.length; at += 500) {
        const batch = updates.slice(at, at + 500);
        await updateBatch(
          tx,
          batch.map((entry) => ({ id: entry.before.id, row: entry.row })),
        );
        await recordAuditBatch(
          tx,
          batch.map((entry) => ({
            action: "variant.update",
            entityId: entry.before.productId,
            before: entry.before,
            after: { ...entry.before, ...entry.row },
          })),
          admin,
        );
      }
      await recordAudit(tx, {
        actor: admin,
        action: "variant.import",
        entity: "product",
        entityId: "csv",
        after: counts,
      });
    },
  });
}
