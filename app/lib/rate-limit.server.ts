import { createHash } from "node:crypto";
import { lt } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "~db/client.server";
import { rateLimits } from "~db/schema";
import type { Logger } from "./logger.server";

/** How many attempts a key may make in a window of `seconds`. */
export type Limit = { name: string; points: number; seconds: number };

/**
 * The store's own limits on endpoints that check a guessable secret or write and send things on request.
 * better-auth limits its own endpoints (sign-in, sign-up, password reset) itself.
 */
export const LIMITS = {
  /** Order number and e-mail guesses from one client address... */
  orderLookupPerClient: { name: "order-lookup:client", points: 10, seconds: 15 * 60 },
  /** ...and for one e-mail address from anywhere, so rotating addresses does not help. */
  orderLookupPerEmail: { name: "order-lookup:email", points: 10, seconds: 60 * 60 },
  /** New order links e-mailed at the request of one client address... */
  orderLinkPerClient: { name: "order-link:client", points: 5, seconds: 60 * 60 },
  /** ...and to the buyer of one order. */
  orderLinkPerOrder: { name: "order-link:order", points: 3, seconds: 60 * 60 },
  /** Licence keys e-mailed again at the buyer's request, per client address... */
  keysAgainPerClient: { name: "keys-again:client", points: 5, seconds: 60 * 60 },
  /** ...and per order. */
  keysAgainPerOrder: { name: "keys-again:order", points: 3, seconds: 60 * 60 },
  /**
   * Orders left unpaid when placed (bank transfer, card checkouts), per client address... An unpaid order holds
   * stock and a code use until it expires, and sends an e-mail to the address typed: a flood of them empties the
   * shelves and bombs a stranger's inbox. Orders paid at once do not count.
   */
  unpaidOrdersPerClient: { name: "unpaid-orders:client", points: 10, seconds: 60 * 60 },
  /** ...and per buyer's e-mail address, from any client address. */
  unpaidOrdersPerEmail: { name: "unpaid-orders:email", points: 5, seconds: 60 * 60 },
  /**
   * Account e-mails (sign-up confirmations, "you already have an account", password resets, links sent again, new
   * address confirmations) to one address, whoever asks and from wherever: limits per client address alone let a
   * few clients fill a stranger's inbox. Order e-mails are not counted: they have their own limits, per order.
   */
  accountEmailsPerAddress: { name: "account-emails:address", points: 5, seconds: 60 * 60 },
  contactPerClient: { name: "contact:client", points: 10, seconds: 60 * 60 },
  quotePerClient: { name: "quote:client", points: 10, seconds: 60 * 60 },
  /**
   * Discount codes refused as not valid, per client address, at the cart's quote and at placing an order: enough for
   * a shopper's typos, far too few to find private codes by trying a list of words.
   */
  codeGuessesPerClient: { name: "code-guesses:client", points: 20, seconds: 15 * 60 },
  /**
   * Back-in-stock requests from one client address (each may send a confirmation e-mail)...
   */
  stockAlertsPerClient: { name: "stock-alerts:client", points: 10, seconds: 60 * 60 },
  /** ...and confirmation e-mails to one address from anywhere, so the form cannot fill a stranger's inbox. */
  stockAlertsPerAddress: { name: "stock-alerts:address", points: 3, seconds: 60 * 60 },
} satisfies Record<string, Limit>;

export type LimitCheck = { limit: Limit; key: string };
export type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number; message: string };

const limiters = new WeakMap<Database, Map<string, RateLimiterDrizzle>>();

function limiterFor(db: Database, limit: Limit): RateLimiterDrizzle {
  let byName = limiters.get(db);
  if (!byName) limiters.set(db, (byName = new Map()));
  let limiter = byName.get(limit.name);
  if (!limiter) {
    // One row per key, counted by a single INSERT ... ON CONFLICT DO UPDATE ... RETURNING: atomic on PostgreSQL
    // (the row is locked) and on PGlite (one connection), and shared by every process on the database.
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: limit.name,
      points: limit.points,
      duration: limit.seconds,
      // A client far over its limit is refused from memory until its window ends, without a write each time.
      inMemoryBlockOnConsumed: limit.points * 2,
      // Expired counts are cleared by the server (startLimitCleanup), on a timer that stops with it: each limiter's
      // own would outlive the database it was made for.
      clearExpiredByTimeout: false,
    });
    byName.set(limit.name, limiter);
  }
  return limiter;
}

/** Keys are hashed: the table never holds client addresses or e-mail addresses. */
const hashed = (key: string) => createHash("sha256").update(key).digest("base64url").slice(0, 32);

/**
 * Counts one attempt against each check in turn; the first that is over its limit refuses, with how long to wait.
 * The attempt is counted even when it later fails: a guess is a guess.
 */
export async function consumeLimits(db: Database, checks: LimitCheck[]): Promise<LimitResult> {
  for (const { limit, key } of checks) {
    try {
      await limiterFor(db, limit).consume(hashed(key));
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfterSeconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      return {
        ok: false,
        retryAfterSeconds,
        message: `Too many attempts. Please wait ${waitText(retryAfterSeconds)} and try again.`,
      };
    }
  }
  return { ok: true };
}

/**
 * Gives back the attempt consumeLimits counted against each check (an attempt that turned out not to count): never
 * below nothing, and a check that refused it gets nothing back, since it counted nothing.
 */
export async function giveBackLimits(db: Database, checks: LimitCheck[]): Promise<void> {
  for (const { limit, key } of checks) {
    const limiter = limiterFor(db, limit);
    const now = await limiter.get(hashed(key));
    if (now && now.consumedPoints > 0) await limiter.reward(hashed(key), 1);
  }
}

/** How long a count is kept once its window has ended. */
const KEPT_AFTER_EXPIRY_MS = 60 * 60_000;

/** Deletes the counts whose window ended an hour or more before `now`; resolves to how many went. */
export async function clearExpiredLimits(db: Database, now = new Date()): Promise<number> {
  const cleared = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expire, new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS)))
    .returning({ key: rateLimits.key });
  return cleared.length;
}

/**
 * Clears expired counts now and then every `intervalMs` (every process may: deleting what has expired is the same
 * whoever does it); a failed pass is logged and the next one tries again.
 */
export function startLimitCleanup(db: Database, logger: Logger, intervalMs = 10 * 60_000) {
  const tick = () =>
    clearExpiredLimits(db).catch((error: unknown) =>
      logger.error({ err: error }, "clearing expired attempt counts failed"),
    );
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}

/** "a minute", "12 minutes", "an hour": how long to wait, as a person says it. */
export function waitText(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return "a minute";
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? "an hour" : `${hours} hours`;
}

/** The headers of a refusal: how long until the client may try again. */
export const retryAfterHeaders = (retryAfterSeconds: number | undefined): Record<string, string> =>
  retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : {};
