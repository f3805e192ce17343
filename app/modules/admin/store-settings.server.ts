import { asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "~db/client.server";
import { companyDetails, products, webInfo } from "~db/schema";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import {
  readSettings,
  saveSettings,
  settingDefault,
  type StoreSettings,
} from "~/modules/orders/settings.server";
import { recordAudit } from "~/lib/audit-log.server";
import { parseMoney } from "~/lib/money";
import { type SETTINGS_SCHEMAS, type SettingsSection } from "./settings-schemas";

export type SettingsForm<Section extends SettingsSection> = z.infer<(typeof SETTINGS_SCHEMAS)[Section]>;

/** Everything the settings page shows: the settings, the store's identity, and what they depend on. */
export async function settingsPage(ctx: {
  db: Database;
  env: Pick<Env, "NODE_ENV" | "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET">;
  logger: Pick<Logger, "error">;
}) {
  const [stored, [info], [company], strict] = await Promise.all([
    readSettings(ctx.db),
    ctx.db.select().from(webInfo).limit(1),
    ctx.db.select().from(companyDetails).limit(1),
    // Products that are unavailable when their pool is empty (the per-product choice of the product form).
    ctx.db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(eq(products.waitingOrders, false))
      .orderBy(asc(products.name))
      .limit(50),
  ]);
  // A stored value that does not decode is shown to the owner to fix; its field shows what is stored when that is
  // text or a number, so saving the form again does not put the default in its place unseen.
  const settings = { ...stored.values } as Record<string, unknown>;
  for (const { key, stored: value } of stored.unreadable) {
    ctx.logger.error({ setting: key, stored: value }, "a stored setting cannot be read");
    const fallback = settingDefault(key as keyof StoreSettings);
    settings[key] =
      typeof fallback === "string" && (typeof value === "string" || typeof value === "number")
        ? String(value)
        : fallback;
  }
  return {
    settings: settings as StoreSettings,
    unreadable: stored.unreadable.map(({ key, stored: value, problem }) => ({
      key,
      stored: JSON.stringify(value) ?? "nothing",
      problem,
    })),
    identity: {
      name: info?.name ?? "",
      email: info?.email ?? "",
      phone: company?.phone ?? "",
      phonecall: company?.phonecall ?? "",
    },
    production: ctx.env.NODE_ENV === "production",
    stripeConfigured: Boolean(ctx.env.STRIPE_SECRET_KEY && ctx.env.STRIPE_WEBHOOK_SECRET),
    unavailableWhenEmpty: strict,
  };
}

/** The settings a section's form sets, from its parsed form. */
function settingsOf(
  section: Exclude<SettingsSection, "store">,
  form: SettingsForm<typeof section>,
): Partial<StoreSettings> {
  switch (section) {
    case "shipping": {
      const f = form as SettingsForm<"shipping">;
      return {
        shippingFlatCents: f.shippingFlat,
        freeShippingThresholdCents: f.freeShippingThreshold,
        shipsTo: f.shipsTo,
      };
    }
    case "currencies": {
      const f = form as SettingsForm<"currencies">;
      return { inrPaisePerUsd: f.inrRate, inrRounding: f.inrRounding };
    }
    case "holds": {
      const f = form as SettingsForm<"holds">;
      return {
        holdsEnabled: f.holdsEnabled,
        holdFirstOrderAboveCents: f.holdFirstOrderAbove ? parseMoney(f.holdFirstOrderAbove) : 0,
        holdOrdersPerHour: f.holdOrdersPerHour ? Number(f.holdOrdersPerHour) : 0,
        holdOnRadarRisk: f.holdOnRadarRisk,
        holdCheckHours: f.holdCheckHours,
      };
    }
    default:
      return form as Partial<StoreSettings>;
  }
}

/**
 * Saves one section of the settings page with its audit entry, in one transaction. Every process reads settings
 * from the database on each request, so the change is live everywhere at once.
 */
export async function saveSettingsSection<Section extends SettingsSection>(
  db: Database,
  section: Section,
  form: SettingsForm<Section>,
  admin: string,
) {
  await db.transaction(async (tx) => {
    if (section === "store") {
      // The name and e-mail are the web info's; the phone is the company details', as /admin/company edits it.
      const f = form as SettingsForm<"store">;
      const named = { name: f.name, email: f.email };
      const phone = { phone: f.phone, phonecall: f.phonecall };
      const [before] = await tx.select().from(webInfo).where(eq(webInfo.id, 1)).for("update");
      const [after] = await tx
        .insert(webInfo)
        .values({ id: 1, ...named, address: "", address2: "" })
        .onConflictDoUpdate({ target: webInfo.id, set: { ...named, updatedAt: sql`now()` } })
        .returning();
      const [phoneBefore] = await tx
        .select()
        .from(companyDetails)
        .where(eq(companyDetails.id, 1))
        .for("update");
      const [phoneAfter] = await tx
        .insert(companyDetails)
        .values({ id: 1, ...phone })
        .onConflictDoUpdate({ target: companyDetails.id, set: { ...phone, updatedAt: sql`now()` } })
        .returning();
      for (const [entity, was, is] of [
        ["web_info", before, after],
        ["company_details", phoneBefore, phoneAfter],
      ] as const)
        await recordAudit(tx, {
          actor: admin,
          action: "settings.store",
          entity,
          entityId: 1,
          before: was,
          after: is,
        });
      return;
    }
    const values = settingsOf(section as Exclude<SettingsSection, "store">, form as never);
    // Saving is how the owner mends a stored value that cannot be read: the audit's "before" keeps what was stored.
    const current = await readSettings(tx);
    const stored = new Map(current.unreadable.map(({ key, stored: value }) => [key, value]));
    const before = Object.fromEntries(
      Object.keys(values).map((key) => [
        key,
        stored.has(key) ? stored.get(key) : current.values[key as keyof StoreSettings],
      ]),
    );
    await saveSettings(tx, values);
    await recordAudit(tx, {
      actor: admin,
      action: `settings.${section}`,
      entity: "settings",
      entityId: section,
      before,
      after: values,
    });
  });
}
