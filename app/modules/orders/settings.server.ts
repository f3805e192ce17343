import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Transaction } from "~db/client.server";
import { settings } from "~db/schema";
import { LOW_STOCK_DEFAULT } from "~/modules/catalogue/availability";

const settingsSchema = z.object({
  /** Flat shipping charged when an order has physical goods... */
  shippingFlatCents: z.number().int().min(0).catch(1499),
  /** ...unless its subtotal reaches this. */
  freeShippingThresholdCents: z.number().int().min(0).catch(19900),
  /**
   * The sandbox method pays at once: for development and the demo store only. In production it is offered only
   * when this is stored as true (the demo store's file says so; importing a catalogue of one's own turns it off).
   */
  sandboxPayments: z.boolean().catch(false),
  /** What a waiting order is promised: keys of an out-of-stock product are sent within this many hours. */
  waitingOrderHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .catch(24),
  /** A printer or router with this many units or fewer shows "Only N left" and is listed as low stock. */
  lowStockThreshold: z.number().int().min(0).max(10_000).catch(LOW_STOCK_DEFAULT),
  bankTransferInstructions: z
    .string()
    .catch(
      "Transfer the order total to KeyHaven Tech Store, account 000123456789, routing 021000021 (sample details), " +
        "with your order number as the reference. We ship and send licence keys once the payment arrives, usually within two business days.",
    ),
});

export type StoreSettings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof StoreSettings;

export async function getSettings(db: Database | Transaction): Promise<StoreSettings> {
  const rows = await db.select().from(settings);
  return settingsSchema.parse(Object.fromEntries(rows.map((row) => [row.key, row.value])));
}

export async function saveSettings(db: Database | Transaction, values: Partial<StoreSettings>) {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
  }
}

/** Flat rate for orders with physical goods, free from the threshold on; software ships by e-mail, free. */
export function shippingCost(
  store: Pick<StoreSettings, "shippingFlatCents" | "freeShippingThresholdCents">,
  subtotalCents: number,
  hasPhysical: boolean,
) {
  if (!hasPhysical) return 0;
  return subtotalCents >= store.freeShippingThresholdCents ? 0 : store.shippingFlatCents;
}
