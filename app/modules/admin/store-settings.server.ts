import { asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "~db/client.server";
import { products, webInfo } from "~db/schema";
import type { Env } from "~/lib/env.server";
import { getSettings, saveSettings, type StoreSettings } from "~/modules/orders/settings.server";
import { recordAudit } from "./audit.server";
import { type SETTINGS_SCHEMAS, type SettingsSection } from "./settings-schemas";

export type SettingsForm<Section extends SettingsSection> = z.infer<(typeof SETTINGS_SCHEMAS)[Section]>;

/** Everything the settings page shows: the settings, the store's identity, and what they depend on. */
export async function settingsPage(ctx: {
  db: Database;
  env: Pick<Env, "NODE_ENV" | "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET">;
}) {
  const [store, [info], strict] = await Promise.all([
    getSettings(ctx.db),
    ctx.db.select().from(webInfo).limit(1),
    // Products that are unavailable when their pool is empty (the per-product choice of the product form).
    ctx.db
      .select({ id: products.id, name: products.name })
      .from(products)
      .where(eq(products.waitingOrders, false))
      .orderBy(asc(products.name))
      .limit(50),
  ]);
  return {
    settings: store,
    identity: info
      ? { name: info.name, email: info.email, phone: info.phone, phonecall: info.phonecall }
      : null,
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
      const f = form as SettingsForm<"store">;
      const values = { name: f.name, email: f.email, phone: f.phone, phonecall: f.phonecall };
      const [before] = await tx.select().from(webInfo).where(eq(webInfo.id, 1)).for("update");
      const [after] = await tx
        .insert(webInfo)
        .values({ id: 1, ...values, address: f.address, address2: f.address2 })
        .onConflictDoUpdate({ target: webInfo.id, set: { ...values, updatedAt: sql`now()` } })
        .returning();
      await recordAudit(tx, {
        actor: admin,
        action: "settings.store",
        entity: "web_info",
        entityId: 1,
        before,
        after,
      });
      return;
    }
    const values = settingsOf(section as Exclude<SettingsSection, "store">, form as never);
    const current = await getSettings(tx);
    const before = Object.fromEntries(
      Object.keys(values).map((key) => [key, current[key as keyof StoreSettings]]),
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
