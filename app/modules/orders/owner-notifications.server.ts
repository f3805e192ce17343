import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { orders, scheduledJobs } from "~db/schema";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import { enqueueEmail, type Mailer } from "~/modules/email/outbox.server";
import {
  type LowStockItem,
  type OwnerMessage,
  type OwnerOrder,
  ownerBankTransferEmail,
  ownerHeldOrderEmail,
  ownerLowStockEmail,
  ownerMessageEmail,
  ownerPaidOrderEmail,
} from "./emails/owner-emails";
import { orderSource } from "./order-source.server";
import { orderView } from "./order-view";
import { getSettings, storeIdentity } from "./settings.server";
import { lowKeyPools, lowPhysicalStock } from "~/modules/catalogue/stock.server";

/**
 * E-mails to the store's owner: the support e-mail of the store's settings (web info), each kind switched on or
 * off in /admin/settings. Each is written in the transaction of the change it reports, through the outbox.
 */

type Db = Database | Transaction;
type UrlEnv = Pick<Env, "PUBLIC_URL">;

/** The owner's address and the switches, or null when this kind is off or no support e-mail is set. */
async function owner(
  db: Db,
  kind: "notifyPaidOrder" | "notifyBankTransfer" | "notifyMessages" | "notifyLowStock",
) {
  const [store, identity] = await Promise.all([getSettings(db), storeIdentity(db)]);
  if (!store[kind] || !identity.email) return null;
  return { store, identity };
}

/** The order as the owner's notice tells it: the view every reader of it shares, with its admin page. */
async function ownerOrder(tx: Db, env: UrlEnv, orderId: number): Promise<OwnerOrder | null> {
  const source = await orderSource(tx, eq(orders.id, orderId));
  if (!source) return null;
  return {
    ...orderView(source),
    adminUrl: `${env.PUBLIC_URL}/admin/orders/${source.order.number}`,
    isTest: source.order.isTest,
  };
}

/** A new paid order (any payment method), or a bank-transfer order now waiting for its payment. */
export async function notifyOwnerOfOrder(
  tx: Db,
  env: UrlEnv,
  orderId: number,
  event: "paid" | "awaiting-bank-transfer",
): Promise<boolean> {
  const found = await owner(tx, event === "paid" ? "notifyPaidOrder" : "notifyBankTransfer");
  if (!found) return false;
  const order = await ownerOrder(tx, env, orderId);
  if (!order) return false;
  const write = event === "paid" ? ownerPaidOrderEmail : ownerBankTransferEmail;
  await enqueueEmail(tx, { ...write(found.identity.name, found.identity.email, order), orderId });
  return true;
}

/**
 * A paid order on hold: it waits for the owner's decision, so it is told whatever the switches say (the store's
 * support e-mail must be set, as for every notice).
 */
export async function notifyOwnerOfHold(
  tx: Db,
  env: UrlEnv,
  orderId: number,
  reasons: string[],
  checkHours: number,
): Promise<boolean> {
  const identity = await storeIdentity(tx);
  if (!identity.email) return false;
  const order = await ownerOrder(tx, env, orderId);
  if (!order) return false;
  await enqueueEmail(tx, {
    ...ownerHeldOrderEmail(identity.name, identity.email, { ...order, reasons, checkHours }),
    orderId,
  });
  return true;
}

/** A contact message or quote request: the owner answers from their mail program (reply-to is the sender). */
export async function notifyOwnerOfMessage(
  tx: Db,
  env: UrlEnv,
  message: Omit<OwnerMessage, "adminUrl">,
): Promise<boolean> {
  const found = await owner(tx, "notifyMessages");
  if (!found) return false;
  await enqueueEmail(
    tx,
    ownerMessageEmail(found.identity.name, found.identity.email, {
      ...message,
      adminUrl: `${env.PUBLIC_URL}/admin/messages`,
    }),
  );
  return true;
}

/** Software on sale with fewer unused licence keys than the threshold. */
async function lowKeyPoolItems(db: Db, env: UrlEnv, threshold: number): Promise<LowStockItem[]> {
  return (await lowKeyPools(db, threshold)).map((row) => ({
    source: "keys" as const,
    name: row.name,
    left: row.available,
    adminUrl: `${env.PUBLIC_URL}/admin/products/${row.productId}`,
  }));
}

/** Counted printers and routers at or below the threshold. */
async function lowStockItemsOfGoods(db: Db, env: UrlEnv, threshold: number): Promise<LowStockItem[]> {
  return (await lowPhysicalStock(db, threshold)).map((row) => ({
    source: "stock" as const,
    name: row.name,
    left: row.stock,
    adminUrl: `${env.PUBLIC_URL}/admin/products/${row.productId}`,
  }));
}

/** Every source of the daily digest, in the order the e-mail lists them. Add a source here. */
const LOW_STOCK_SOURCES = [lowKeyPoolItems, lowStockItemsOfGoods];

export async function lowStockItems(db: Db, env: UrlEnv, threshold: number): Promise<LowStockItem[]> {
  const lists = await Promise.all(LOW_STOCK_SOURCES.map((source) => source(db, env, threshold)));
  return lists.flat();
}

export const LOW_STOCK_DIGEST = "owner-low-stock-digest";

export type DigestOutcome = "sent" | "nothing-low" | "off" | "not-due";

/**
 * The daily low-stock digest, once across every process: the run is claimed by moving the job's last run time in
 * the database (a process that finds it moved less than a day ago skips), in the same transaction as the e-mail.
 */
export async function runLowStockDigest(db: Database, env: UrlEnv): Promise<DigestOutcome> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(scheduledJobs)
      .values({ name: LOW_STOCK_DIGEST, lastRunAt: sql`now()` })
      .onConflictDoUpdate({
        target: scheduledJobs.name,
        set: { lastRunAt: sql`now()` },
        setWhere: sql`${scheduledJobs.lastRunAt} <= now() - interval '23 hours 50 minutes'`,
      })
      .returning({ name: scheduledJobs.name });
    if (!claimed) return "not-due";
    const found = await owner(tx, "notifyLowStock");
    if (!found) return "off";
    const items = await lowStockItems(tx, env, found.store.lowStockThreshold);
    if (items.length === 0) return "nothing-low";
    await enqueueEmail(
      tx,
      ownerLowStockEmail(found.identity.name, found.identity.email, items, found.store.lowStockThreshold),
    );
    return "sent";
  });
}

/** Tries the daily jobs now and then every `intervalMs` (every process does; the database picks one). */
export function startDailyJobs(
  { db, env, logger, mailer }: { db: Database; env: UrlEnv; logger: Logger; mailer: Pick<Mailer, "kick"> },
  intervalMs = 10 * 60_000,
) {
  const tick = async () => {
    try {
      const outcome = await runLowStockDigest(db, env);
      if (outcome === "sent") mailer.kick();
      if (outcome !== "not-due") logger.info({ outcome }, "daily low-stock digest");
    } catch (error) {
      logger.error({ err: error }, "the daily low-stock digest failed");
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
