import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { redirect } from "react-router";
import type { Database, Transaction } from "~db/client.server";
import { brandGroups, licenceKeys, orderLines, products, productVariants } from "~db/schema";
import type { ProductVariant, Section } from "~db/schema/catalogue";
import { recordAudit } from "~/lib/audit-log.server";
import { fieldErrors } from "~/lib/forms";
import { parseMoney, rupeeCents, toDecimalString } from "~/lib/money";
import { isPhysicalSection } from "~/modules/catalogue/sections";
import {
  isForeignKeyViolation,
  isUniqueViolation,
  NOT_FOUND,
  refused,
  type WriteResult,
} from "./content-db.server";
import { rowId } from "./content-schemas";
import { FIX_FIELDS, reply } from "./form-actions.server";
import { type VariantForm, variantFormSchema } from "./schemas";

/** A product's variants as its edit page lists them, in the shop's order, with their form's text values. */
export async function variantsForEdit(db: Database, productId: number) {
  const rows = await db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return rows.map((row) => ({
    id: row.id,
    priceCents: row.priceCents,
    originalPriceCents: row.originalPriceCents,
    inrPriceCents: row.inrPriceCents,
    stock: row.stock,
    termMonths: row.termMonths,
    values: variantFormValues(row),
  }));
}

/** A stored variant as the text fields of its form (and of the variants CSV). */
export function variantFormValues(variant: ProductVariant) {
  return {
    sku: variant.sku,
    label: variant.label,
    price: toDecimalString(variant.priceCents),
    originalPrice:
      variant.originalPriceCents === variant.priceCents ? "" : toDecimalString(variant.originalPriceCents),
    inrPrice: variant.inrPriceCents === null ? "" : toDecimalString(variant.inrPriceCents),
    stock: variant.stock === null ? "" : String(variant.stock),
    termMonths: variant.termMonths === null ? "" : String(variant.termMonths),
    hidden: variant.hidden ? "true" : "",
  };
}

/** A checked form as the variant's columns. */
export const variantRow = (form: VariantForm) => ({
  sku: form.sku,
  label: form.label,
  priceCents: parseMoney(form.price),
  originalPriceCents: parseMoney(form.originalPrice ?? form.price),
  inrPriceCents: rupeeCents(form.inrPrice),
  stock: form.stock,
  termMonths: form.termMonths,
  hidden: form.hidden,
});

const skuTaken = (sku: string, by: string) => ({ sku: `The SKU ${sku} is already used by ${by}` });

/**
 * The catalogue's rules for a variant beyond its form's schema, by form field: a stock count only for printers and
 * routers, and a SKU no other variant has (`taken`: the variant that has it, and its product's name). The admin's
 * form and the variants CSV import both ask it, each finding the product and the SKU's holder its own way.
 */
export function variantRuleErrors(
  form: VariantForm,
  section: Section,
  taken?: { sku: string; name: string },
): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  if (form.stock !== null && !isPhysicalSection(section))
    errors.stock = "Software counts its licence keys: leave the stock empty";
  if (taken) Object.assign(errors, skuTaken(taken.sku, taken.name));
  return errors;
}

/**
 * What the database alone can say about a variant's form: its product exists (its row locked, so the product's
 * variants change one write at a time), a stock count only for printers and routers, the SKU free in any case.
 */
async function checkVariant(tx: Transaction, productId: number, form: VariantForm, exceptId?: number) {
  const [product] = await tx
    .select({ section: brandGroups.section })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.id, productId))
    .for("update", { of: products });
  if (!product) return NOT_FOUND;
  const [same] = await tx
    .select({ sku: productVariants.sku, name: products.name })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        eq(sql`lower(${productVariants.sku})`, form.sku.toLowerCase()),
        exceptId === undefined ? undefined : ne(productVariants.id, exceptId),
      ),
    );
  const errors = variantRuleErrors(form, product.section, same);
  return Object.keys(errors).length ? refused(errors) : null;
}

/**
 * Runs a variant's write (its checks come first: a refusal has written nothing); a SKU taken by a write that
 * committed in between is refused as the check would.
 */
async function writeVariant(
  db: Database,
  form: VariantForm,
  write: (tx: Transaction) => Promise<WriteResult>,
) {
  try {
    return await db.transaction(write);
  } catch (error) {
    if (isUniqueViolation(error)) return refused(skuTaken(form.sku, "another variant"));
    throw error;
  }
}

export async function createVariant(
  db: Database,
  productId: number,
  form: VariantForm,
  admin: string,
): Promise<WriteResult> {
  return writeVariant(db, form, async (tx) => {
    const refusal = await checkVariant(tx, productId, form);
    if (refusal) return refusal;
    const [row] = await tx
      .insert(productVariants)
      .values({
        ...variantRow(form),
        productId,
        // Last in the product's order.
        position: sql`(select coalesce(max(${productVariants.position}) + 1, 0) from ${productVariants} where ${productVariants.productId} = ${productId})`,
      })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "variant.create",
      entity: "product",
      entityId: productId,
      after: row,
    });
    return { ok: true, id: row!.id };
  });
}

export async function updateVariant(
  db: Database,
  productId: number,
  variantId: number,
  form: VariantForm,
  admin: string,
): Promise<WriteResult> {
  return writeVariant(db, form, async (tx) => {
    const refusal = await checkVariant(tx, productId, form, variantId);
    if (refusal) return refusal;
    return changeVariant(tx, productId, variantId, variantRow(form), admin);
  });
}

/** Hides a variant (no longer sold, nor shown) or shows it again: what to do with one that cannot be deleted. */
export async function setVariantHidden(
  db: Database,
  productId: number,
  variantId: number,
  hidden: boolean,
  admin: string,
): Promise<WriteResult> {
  return db.transaction((tx) => changeVariant(tx, productId, variantId, { hidden }, admin));
}

/** Writes some of a variant's fields, audited with the row before and after. */
async function changeVariant(
  tx: Transaction,
  productId: number,
  variantId: number,
  changes: Partial<typeof productVariants.$inferInsert>,
  admin: string,
): Promise<WriteResult> {
  const [before] = await tx
    .select()
    .from(productVariants)
    .where(ofProduct(productId, variantId))
    .for("update");
  if (!before) return NOT_FOUND;
  const [after] = await tx
    .update(productVariants)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(ofProduct(productId, variantId))
    .returning();
  await recordAudit(tx, {
    actor: admin,
    action: "variant.update",
    entity: "product",
    entityId: productId,
    before,
    after,
  });
  return { ok: true, id: variantId };
}

const ofProduct = (productId: number, variantId: number) =>
  and(eq(productVariants.id, variantId), eq(productVariants.productId, productId));

type DeleteResult =
  | { ok: true }
  | { ok: false; reason: "not-found" }
  | { ok: false; reason: "in-use"; message: string };

const inUse = (sku: string, what: string) =>
  ({
    ok: false,
    reason: "in-use",
    message: `${sku} cannot be deleted: it has ${what} on record. Hide it instead: a hidden variant is no longer sold, nor shown.`,
  }) as const;

/**
 * Deletes a variant nothing refers to. One with licence keys (the keys' foreign key restricts it) or named by
 * orders (their lines would lose the link to it) is refused: the owner hides it instead.
 */
export async function deleteVariant(
  db: Database,
  productId: number,
  variantId: number,
  admin: string,
): Promise<DeleteResult> {
  let sku = "This variant";
  try {
    return await db.transaction(async (tx): Promise<DeleteResult> => {
      const [before] = await tx
        .select()
        .from(productVariants)
        .where(ofProduct(productId, variantId))
        .for("update");
      if (!before) return NOT_FOUND;
      sku = before.sku;
      const [[keys], [lines]] = await Promise.all([
        tx.select({ n: count() }).from(licenceKeys).where(eq(licenceKeys.variantId, variantId)),
        tx.select({ n: count() }).from(orderLines).where(eq(orderLines.variantId, variantId)),
      ]);
      const used = [plural(keys?.n ?? 0, "licence key"), plural(lines?.n ?? 0, "order line")].filter(Boolean);
      if (used.length) return inUse(before.sku, used.join(" and "));
      await tx.delete(productVariants).where(ofProduct(productId, variantId));
      await recordAudit(tx, {
        actor: admin,
        action: "variant.delete",
        entity: "product",
        entityId: productId,
        before,
      });
      return { ok: true };
    });
  } catch (error) {
    // Keys added after the count above: the database's own refusal, told the same way.
    if (isForeignKeyViolation(error)) return inUse(sku, "licence keys");
    throw error;
  }
}

const plural = (n: number, word: string) => (n === 0 ? "" : `${n} ${word}${n === 1 ? "" : "s"}`);

/** The Variants section's posts on a product's edit page. */
export const VARIANT_INTENTS = [
  "variant-create",
  "variant-update",
  "variant-delete",
  "variant-hide",
  "variant-show",
];

/**
 * Answers one of the Variants section's posts: back to the product's page with a notice, or the refusal with
 * its messages (400 for the form, 404 for a variant that is gone, 409 for one that cannot be deleted).
 */
export async function variantAction(
  db: Database,
  productId: number,
  posted: Record<string, string>,
  admin: string,
) {
  const { intent, id: rawId, ...values } = posted;
  const back = (done: string) => redirect(`/admin/products/${productId}?done=${done}#variants`);
  const gone = () =>
    reply(404, { message: "This variant no longer exists: it may have been deleted.", intent });
  const id = rowId.safeParse(rawId).data;
  if (intent !== "variant-create" && id === undefined) return gone();
  if (intent === "variant-delete") {
    const result = await deleteVariant(db, productId, id!, admin);
    if (result.ok) return back("variant-deleted");
    return result.reason === "not-found" ? gone() : reply(409, { message: result.message, intent });
  }
  if (intent === "variant-hide" || intent === "variant-show") {
    const hide = intent === "variant-hide";
    const result = await setVariantHidden(db, productId, id!, hide, admin);
    return result.ok ? back(hide ? "variant-hidden" : "variant-shown") : gone();
  }
  const parsed = variantFormSchema.safeParse(values);
  if (!parsed.success)
    return reply(400, { message: FIX_FIELDS, intent, errors: fieldErrors(parsed.error), values });
  const result =
    intent === "variant-update"
      ? await updateVariant(db, productId, id!, parsed.data, admin)
      : await createVariant(db, productId, parsed.data, admin);
  if (result.ok) return back(intent === "variant-update" ? "variant-saved" : "variant-created");
  return result.reason === "not-found"
    ? gone()
    : reply(400, { message: FIX_FIELDS, intent, errors: result.errors, values });
}
