import { createHash } from "node:crypto";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orders, savedCartOptOuts, savedCarts, user } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import type { Env } from "~/lib/env.server";
import type { Currency } from "~/lib/money";
import type { Logger } from "~/lib/logger.server";
import { repeatEvery } from "~/lib/repeating-job.server";
import { readSignedToken, signToken } from "~/lib/signed-token.server";
import { type CartRequestLine, parseCartRequest } from "~/modules/cart/cart";
import { priceCart } from "~/modules/cart/pricing.server";
import { nameWithVariant } from "~/modules/catalogue/variants";
import { enqueueEmail, type Mailer } from "~/modules/email/outbox.server";
import { savedCartReminderEmail } from "./emails/restock-emails";
import { getSettings, inrRateOf, storeIdentity } from "./settings.server";

/**
 * Saved carts: the cart lives in the browser, and a signed-in customer's browser tells the server what is in it
 * (POST /api/cart/saved, a moment after each change; an empty cart deletes it). A cart left unchanged for the
 * settings' hours gets one reminder e-mail, with its lines at today's prices and a link that puts them back in the
 * browser's cart. The same cart (the same lines and quantities) is never reminded twice; a changed cart is a new
 * cart. None goes to a customer who ordered since the cart last changed, nor to one who unsubscribed.
 */

/** A saved line: what names the thing to buy and how many; names and prices are looked up when they are needed. */
type SavedLine = Pick<CartRequestLine, "groupKey" | "id" | "variant" | "quantity">;

/** The same lines and quantities, in any order, give the same fingerprint. */
function fingerprintOf(lines: SavedLine[]): string {
  const canonical = lines
    .map((line) => [line.groupKey, line.id, line.variant ?? "", line.quantity] as const)
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url");
}

export type SaveCartAnswer = { ok: true; saved: boolean } | { ok: false; message: string };

/**
 * Keeps the customer's cart as their browser sent it (an empty one deletes it), with the currency they shop in. The
 * same cart sent again changes nothing, not even its time: a reminder counts from the last change of its lines; a
 * new currency alone only changes how the reminder prices them.
 */
export async function saveCart(
  db: Database,
  userId: string,
  value: unknown,
  currency: Currency,
  now = new Date(),
): Promise<SaveCartAnswer> {
  if (Array.isArray(value) && value.length === 0) {
    await db.delete(savedCarts).where(eq(savedCarts.userId, userId));
    return { ok: true, saved: false };
  }
  const parsed = parseCartRequest(value);
  if (!parsed.ok) return parsed;
  const lines: SavedLine[] = parsed.lines.map(({ groupKey, id, variant, quantity }) => ({
    groupKey,
    id,
    ...(variant === undefined ? {} : { variant }),
    quantity,
  }));
  const fingerprint = fingerprintOf(lines);
  await db
    .insert(savedCarts)
    .values({ userId, lines, fingerprint, currency, updatedAt: now })
    .onConflictDoUpdate({
      target: savedCarts.userId,
      set: {
        lines,
        fingerprint,
        currency,
        updatedAt: sql`case when ${savedCarts.fingerprint} = ${fingerprint} then ${savedCarts.updatedAt} else ${now.toISOString()}::timestamptz end`,
      },
      setWhere: sql`${savedCarts.fingerprint} <> ${fingerprint} or ${savedCarts.currency} <> ${currency}`,
    });
  return { ok: true, saved: true };
}

/** The customer's saved cart, priced now: what the reminder's link puts back in the browser's cart. */
export async function savedCartOf(db: Database, userId: string) {
  const [row] = await db
    .select({ lines: savedCarts.lines })
    .from(savedCarts)
    .where(eq(savedCarts.userId, userId));
  if (!row) return [];
  const priced = await priceCart(db, row.lines as SavedLine[]);
  return priced.lines.map((line) => ({
    groupKey: line.groupKey,
    id: line.id,
    ...(line.variant ? { variant: line.variant } : {}),
    name: nameWithVariant(line.name, line.variantLabel),
    priceCents: line.unitPriceCents,
    quantity: line.quantity,
  }));
}

const PURPOSE = "saved-cart-unsubscribe";
export const savedCartUnsubscribeToken = (secret: string, userId: string) =>
  signToken(secret, PURPOSE, userId);
export const userOfUnsubscribeToken = (secret: string, token: string | null) =>
  readSignedToken(secret, PURPOSE, token) || null;

/** Whether the customer said no to saved-cart reminders. */
export async function savedCartRemindersOff(db: Database, userId: string) {
  const [row] = await db.select().from(savedCartOptOuts).where(eq(savedCartOptOuts.userId, userId));
  return row !== undefined;
}

/** Saved-cart reminders off (`on` false) or on again for a customer, audited when it changes anything. */
export async function setSavedCartReminders(db: Database, userId: string, on: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The account was deleted since the link was sent: nothing is left to send to (false). Locked, so a deletion
    // cannot slip in before the opt-out's row that names it.
    const [account] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("update");
    if (!account) return false;
    const changed = on
      ? await tx.delete(savedCartOptOuts).where(eq(savedCartOptOuts.userId, userId)).returning()
      : await tx.insert(savedCartOptOuts).values({ userId }).onConflictDoNothing().returning();
    if (changed.length > 0)
      await recordAudit(tx, {
        actor: `user:${userId}`,
        action: on ? "saved-carts.subscribe" : "saved-carts.unsubscribe",
        entity: "saved_carts",
        entityId: userId,
      });
    return true;
  });
}

export type SavedCartContext = {
  db: Database;
  env: Pick<Env, "PUBLIC_URL" | "AUTH_SECRET">;
  mailer: Pick<Mailer, "kick">;
};

const BATCH = 200;

/**
 * Writes the reminders due at `now`, each with its e-mail, and resolves to the customers reminded. Every process
 * runs it; the update that records the cart's fingerprint as reminded lets only one write each reminder.
 */
export async function sendSavedCartReminders(ctx: SavedCartContext, now = new Date()): Promise<string[]> {
  const settings = await getSettings(ctx.db);
  if (!settings.savedCartReminders) return [];
  const leftBefore = new Date(now.getTime() - settings.savedCartReminderHours * 3_600_000);
  const due = await ctx.db
    .select({
      userId: savedCarts.userId,
      lines: savedCarts.lines,
      fingerprint: savedCarts.fingerprint,
      currency: savedCarts.currency,
      email: user.email,
      name: user.name,
    })
    .from(savedCarts)
    .innerJoin(user, eq(user.id, savedCarts.userId))
    .where(
      and(
        lte(savedCarts.updatedAt, leftBefore),
        sql`${savedCarts.remindedFingerprint} is distinct from ${savedCarts.fingerprint}`,
        sql`${user.banned} is not true`,
        sql`not exists (select 1 from ${savedCartOptOuts} where ${savedCartOptOuts.userId} = ${savedCarts.userId})`,
        // Ordered since the cart last changed: the cart was bought (or given up for another).
        sql`not exists (select 1 from ${orders} where ${orders.userId} = ${savedCarts.userId} and ${orders.createdAt} >= ${savedCarts.updatedAt})`,
      ),
    )
    .orderBy(asc(savedCarts.updatedAt))
    .limit(BATCH);
  if (due.length === 0) return [];
  const identity = await storeIdentity(ctx.db);
  const rate = inrRateOf(settings);
  const reminded: string[] = [];
  for (const cart of due) {
    const priced = await priceCart(ctx.db, cart.lines as SavedLine[], { currency: cart.currency, rate });
    // Nothing in it the store still sells: nothing to remind of.
    if (priced.lines.length === 0) continue;
    const sent = await ctx.db.transaction(async (tx) => {
      const [marked] = await tx
        .update(savedCarts)
        .set({ remindedFingerprint: cart.fingerprint, remindedAt: now })
        .where(
          and(
            eq(savedCarts.userId, cart.userId),
            eq(savedCarts.fingerprint, cart.fingerprint),
            sql`${savedCarts.remindedFingerprint} is distinct from ${cart.fingerprint}`,
          ),
        )
        .returning({ userId: savedCarts.userId });
      // Another process reminded it first, or the cart changed meanwhile.
      if (!marked) return false;
      const emailId = await enqueueEmail(
        tx,
        savedCartReminderEmail({
          to: cart.email,
          storeName: identity.name,
          customerName: cart.name,
          currency: cart.currency,
          lines: priced.lines.map((line) => ({
            name: nameWithVariant(line.name, line.variantLabel),
            quantity: line.quantity,
            unitPriceCents: line.unitPriceCents,
          })),
          restoreLink: `${ctx.env.PUBLIC_URL}/user/saved-cart`,
          unsubscribeLink: `${ctx.env.PUBLIC_URL}/reminders/saved-cart?token=${savedCartUnsubscribeToken(ctx.env.AUTH_SECRET, cart.userId)}`,
        }),
      );
      await tx.update(savedCarts).set({ emailId }).where(eq(savedCarts.userId, cart.userId));
      return true;
    });
    if (sent) reminded.push(cart.userId);
  }
  if (reminded.length > 0) ctx.mailer.kick();
  return reminded;
}

/** Looks for saved carts due their reminder now and then every `intervalMs`, logging what it wrote. */
export function startSavedCartReminders(server: SavedCartContext & { logger: Logger }, intervalMs = 300_000) {
  return repeatEvery(server.logger, "writing saved-cart reminders", intervalMs, async () => {
    const sent = await sendSavedCartReminders(server);
    if (sent.length > 0) server.logger.info({ reminders: sent.length }, "saved-cart reminders written");
  });
}
