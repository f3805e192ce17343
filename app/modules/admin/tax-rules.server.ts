import { and, asc, eq, max, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { settings, taxRules } from "~db/schema";
import type { TaxRule } from "~db/schema/pricing";
import {
  getSettings,
  saveSettings,
  type StoreSettings,
  type TaxRegistration,
} from "~/modules/orders/settings.server";
import { recordAudit } from "~/lib/audit-log.server";
import { moveRow } from "./reorder.server";
import type { TaxRegistrationInput, TaxRuleInput } from "./tax-schemas";

/**
 * The owner's side of taxes: the rules checkout charges (by country, region and product kind), whether prices
 * include tax, and the store's registrations. Each write is one transaction with its audit entry. Orders keep the
 * taxes they were charged, so nothing here touches an order.
 */

/** Every rule, by country and region, then in its order within them (the order checkout and invoices list them). */
export async function listTaxRules(db: Database): Promise<TaxRule[]> {
  return db
    .select()
    .from(taxRules)
    .orderBy(asc(taxRules.country), asc(taxRules.region), asc(taxRules.position), asc(taxRules.id));
}

export async function getTaxRule(db: Database, id: number): Promise<TaxRule | null> {
  const [row] = await db.select().from(taxRules).where(eq(taxRules.id, id));
  return row ?? null;
}

const samePlace = (rule: Pick<TaxRule, "country" | "region">) =>
  and(eq(taxRules.country, rule.country), eq(taxRules.region, rule.region));

/** The position after the last rule of a country and region. */
async function nextPosition(tx: Transaction, place: Pick<TaxRule, "country" | "region">) {
  const [last] = await tx
    .select({ max: max(taxRules.position) })
    .from(taxRules)
    .where(samePlace(place));
  return (last?.max ?? -1) + 1;
}

/** Adds a rule, last among the rules of its country and region. */
export async function createTaxRule(db: Database, input: TaxRuleInput, admin: string) {
  return db.transaction(async (tx) => {
    const [after] = await tx
      .insert(taxRules)
      .values({ ...input, position: await nextPosition(tx, input) })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "tax_rule.create",
      entity: "tax_rule",
      entityId: after!.id,
      after,
    });
    return after!.id;
  });
}

/** Changes a rule; moved to another country or region, it goes last there. False when there is no such rule. */
export async function updateTaxRule(db: Database, id: number, input: TaxRuleInput, admin: string) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(taxRules).where(eq(taxRules.id, id)).for("update");
    if (!before) return false;
    const moved = before.country !== input.country || before.region !== input.region;
    const [after] = await tx
      .update(taxRules)
      .set({
        ...input,
        position: moved ? await nextPosition(tx, input) : before.position,
        updatedAt: sql`now()`,
      })
      .where(eq(taxRules.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "tax_rule.update",
      entity: "tax_rule",
      entityId: id,
      before,
      after,
    });
    return true;
  });
}

export async function deleteTaxRule(db: Database, id: number, admin: string) {
  return db.transaction(async (tx) => {
    const [before] = await tx.delete(taxRules).where(eq(taxRules.id, id)).returning();
    if (!before) return false;
    await recordAudit(tx, {
      actor: admin,
      action: "tax_rule.delete",
      entity: "tax_rule",
      entityId: id,
      before,
    });
    return true;
  });
}

/**
 * Moves a rule one place up or down among the rules of its country and region (the order they are listed in at
 * checkout and on invoices: CGST before SGST). They are numbered 0, 1, 2... again, so ties stop mattering. False
 * when there is no such rule; the first moved up or the last moved down stays.
 */
export async function moveTaxRule(db: Database, id: number, direction: "up" | "down", admin: string) {
  return db.transaction(async (tx) => {
    const [rule] = await tx.select().from(taxRules).where(eq(taxRules.id, id));
    if (!rule) return false;
    return moveRow(tx, taxRules, { id, direction, where: samePlace(rule), actor: admin, entity: "tax_rule" });
  });
}

/** Saves whether catalogue prices include tax, with its audit entry. */
export async function savePricesIncludeTax(db: Database, pricesIncludeTax: boolean, admin: string) {
  await db.transaction(async (tx) => {
    const before = (await getSettings(tx)).pricesIncludeTax;
    await saveSettings(tx, { pricesIncludeTax });
    await recordAudit(tx, {
      actor: admin,
      action: "settings.taxes",
      entity: "settings",
      entityId: "taxes",
      before: { pricesIncludeTax: before },
      after: { pricesIncludeTax },
    });
  });
}

/** The most registrations the settings keep (settings.server.ts). */
export const MAX_REGISTRATIONS = 20;

export type RegistrationOutcome = { ok: true } | { ok: false; reason: "changed" | "full" | "duplicate" };

/**
 * Changes the store's registrations under a lock on their settings row, so two admins saving at once are taken one
 * after the other. `change` gets the list as stored and returns the new one, or why it refuses.
 */
async function changeRegistrations(
  db: Database,
  admin: string,
  action: string,
  change: (current: TaxRegistration[]) => TaxRegistration[] | Exclude<RegistrationOutcome, { ok: true }>,
): Promise<RegistrationOutcome> {
  return db.transaction(async (tx) => {
    const key: keyof StoreSettings = "taxRegistrations";
    await tx.insert(settings).values({ key, value: [] }).onConflictDoNothing();
    await tx.select({ key: settings.key }).from(settings).where(eq(settings.key, key)).for("update");
    const before = (await getSettings(tx)).taxRegistrations;
    const after = change(before);
    if (!Array.isArray(after)) return after;
    await saveSettings(tx, { taxRegistrations: after });
    await recordAudit(tx, {
      actor: admin,
      action,
      entity: "settings",
      entityId: "taxRegistrations",
      before,
      after,
    });
    return { ok: true };
  });
}

/**
 * Where a registration is in the list, checked against the number the form was opened with (`was`): a list changed
 * meanwhile by another admin is refused rather than the wrong entry changed.
 */
const stillAt = (current: TaxRegistration[], index: number, was: string) => current[index]?.number === was;

const sameRegistration = (a: TaxRegistration, b: TaxRegistration) =>
  a.country === b.country && a.label.toLowerCase() === b.label.toLowerCase() && a.number === b.number;

/** Adds a registration (`at` null) or replaces the one at `at.index`. */
export function saveTaxRegistration(
  db: Database,
  at: { index: number; was: string } | null,
  input: TaxRegistrationInput,
  admin: string,
) {
  return changeRegistrations(db, admin, "settings.tax_registrations", (current) => {
    if (at && !stillAt(current, at.index, at.was)) return { ok: false, reason: "changed" };
    if (current.some((entry, index) => index !== at?.index && sameRegistration(entry, input)))
      return { ok: false, reason: "duplicate" };
    if (!at) return current.length >= MAX_REGISTRATIONS ? { ok: false, reason: "full" } : [...current, input];
    return current.map((entry, index) => (index === at.index ? input : entry));
  });
}

export function deleteTaxRegistration(db: Database, at: { index: number; was: string }, admin: string) {
  return changeRegistrations(db, admin, "settings.tax_registrations", (current) =>
    stillAt(current, at.index, at.was)
      ? current.filter((_, index) => index !== at.index)
      : { ok: false, reason: "changed" },
  );
}
