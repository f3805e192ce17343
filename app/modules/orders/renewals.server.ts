import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import {
  licenceKeys,
  orderLines,
  orders,
  products,
  productVariants,
  renewalReminderOptOuts,
  renewalReminders,
  user,
} from "~db/schema";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import { recordAudit } from "~/lib/audit-log.server";
import { repeatEvery } from "~/lib/repeating-job.server";
import { readSignedToken, signToken } from "~/lib/signed-token.server";
import { enqueueEmail, type Mailer } from "~/modules/email/outbox.server";
import { renewalReminderEmail } from "./emails/renewal-emails";
import { getSettings, storeIdentity } from "./settings.server";

/**
 * Renewal reminders: an e-mail to a licence's owner at each of the settings' days before it expires, once per key
 * and day across every process (the `renewal_reminders` row and its e-mail are written in one transaction, and the
 * row's unique pair lets only one process write it). A customer who unsubscribed, or who bought the same product and
 * variant again after the key's order (a renewal won), gets none.
 */

const DAY = 24 * 60 * 60 * 1000;

/** The start of `now`'s day, UTC: reminders count whole UTC days, as every date the store prints. */
const startOfDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** Whole UTC days from today to the day a key expires: 0 on the day itself, negative after it. */
const daysUntil = (expiresAt: Date, now: Date) =>
  Math.round((startOfDay(expiresAt).getTime() - startOfDay(now).getTime()) / DAY);

/**
 * The one reminder a key is due on a day: the nearest of the days whose mark it has reached (30 days left reaches
 * 30; 5 days left reaches 30 and 7, and 7 is nearer). Marks passed before (a key 5 days from expiry when reminders
 * are switched on) are not sent late; a key that expired on an earlier day is due none. Null: none due.
 */
export function dueReminder(days: readonly number[], daysLeft: number): number | null {
  if (daysLeft < 0) return null;
  const reached = days.filter((day) => day >= daysLeft);
  return reached.length === 0 ? null : Math.min(...reached);
}

/** Whom a reminder is about: an account, or a guest by the address of the order. */
type ReminderCustomer = { userId: string } | { email: string };

const customerSubject = (customer: ReminderCustomer) =>
  "userId" in customer ? `u:${customer.userId}` : `e:${customer.email.toLowerCase()}`;

const PURPOSE = "renewal-unsubscribe";

/** The unsubscribe link's token: the customer, and the server's signature of it (no sign-in needed to use it). */
export function unsubscribeToken(secret: string, customer: ReminderCustomer): string {
  return signToken(secret, PURPOSE, customerSubject(customer));
}

/** The customer a token names, when the server signed it; null for anything else. */
export function customerOfToken(secret: string, token: string | null | undefined): ReminderCustomer | null {
  const subject = readSignedToken(secret, PURPOSE, token);
  if (subject === null) return null;
  if (subject.startsWith("u:") && subject.length > 2) return { userId: subject.slice(2) };
  if (subject.startsWith("e:") && subject.includes("@")) return { email: subject.slice(2) };
  return null;
}

const unsubscribePath = (secret: string, customer: ReminderCustomer) =>
  `/reminders/unsubscribe?token=${unsubscribeToken(secret, customer)}`;

const optOutWhere = (customer: ReminderCustomer) =>
  "userId" in customer
    ? eq(renewalReminderOptOuts.userId, customer.userId)
    : eq(renewalReminderOptOuts.email, customer.email.toLowerCase());

/**
 * The opt-outs that hold for a customer: a guest's address; for an account, its own, and those of the addresses it
 * has and its orders were placed with (a guest who unsubscribed, then made an account that the orders joined).
 */
async function optOutsOf(db: Database | Transaction, customer: ReminderCustomer, accountEmail?: string) {
  if (!("userId" in customer)) return optOutWhere(customer);
  const placedWith = await db
    .selectDistinct({ email: sql<string>`lower(${orders.email})` })
    .from(orders)
    .where(eq(orders.userId, customer.userId));
  const addresses = [...new Set([accountEmail, ...placedWith.map((row) => row.email)])]
    .filter((email): email is string => Boolean(email))
    .map((email) => email.toLowerCase());
  return addresses.length > 0
    ? or(optOutWhere(customer), inArray(renewalReminderOptOuts.email, addresses))
    : optOutWhere(customer);
}

/** Whether the customer said no to reminders (an account: see optOutsOf). */
export async function remindersOff(
  db: Database | Transaction,
  customer: ReminderCustomer,
  accountEmail?: string,
) {
  const [row] = await db
    .select({ id: renewalReminderOptOuts.id })
    .from(renewalReminderOptOuts)
    .where(await optOutsOf(db, customer, accountEmail))
    .limit(1);
  return row !== undefined;
}

/**
 * Reminders off (`on` false) or on again for a customer, audited; asking for what is already so changes nothing.
 * Turning an account's back on also drops the guest opt-outs of its addresses, which would keep them off.
 */
export async function setReminders(
  db: Database,
  customer: ReminderCustomer,
  on: boolean,
  actor: string,
  accountEmail?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = on
      ? await tx
          .delete(renewalReminderOptOuts)
          .where(await optOutsOf(tx, customer, accountEmail))
          .returning({ id: renewalReminderOptOuts.id })
      : await tx
          .insert(renewalReminderOptOuts)
          .values(
            "userId" in customer ? { userId: customer.userId } : { email: customer.email.toLowerCase() },
          )
          .onConflictDoNothing()
          .returning({ id: renewalReminderOptOuts.id });
    if (changed.length > 0)
      await recordAudit(tx, {
        actor,
        action: on ? "renewals.subscribe" : "renewals.unsubscribe",
        entity: "renewal_reminders",
        entityId: "userId" in customer ? customer.userId : "guest",
      });
  });
}

const later = sql.raw("later");
const account = sql.raw("account");
const laterLine = sql.raw("later_line");

/**
 * Whether the key's customer bought the same product and variant again, in an order placed after the key's and
 * paid (a line not refunded): the licence is renewed, and needs no reminder.
 */
const renewedSince: SQL = sql`exists (
  select 1 from ${orderLines} ${laterLine}
  join ${orders} ${later} on ${later}.id = ${laterLine}.order_id
  where ${laterLine}.product_id = ${orderLines.productId}
    and ${laterLine}.variant_id is not distinct from ${orderLines.variantId}
    and ${laterLine}.refunded_at is null
    and ${later}.paid_at is not null and ${later}.status in ('paid', 'fulfilled')
    and ${later}.created_at > ${orders.createdAt}
    and ((${orders.userId} is not null and ${later}.user_id = ${orders.userId})
      or lower(${later}.email) = lower(${orders.email})
      or (${user.email} is not null and lower(${later}.email) = lower(${user.email})))
)`;

/** Whether the key's customer said no; an account's "no" holds for guest orders placed with its address too. */
const optedOut: SQL = sql`exists (
  select 1 from ${renewalReminderOptOuts}
  where (${orders.userId} is not null and ${renewalReminderOptOuts.userId} = ${orders.userId})
    or ${renewalReminderOptOuts.email} = lower(${orders.email})
    or (${user.email} is not null and ${renewalReminderOptOuts.email} = lower(${user.email}))
    or ${renewalReminderOptOuts.userId} in (
      select ${account}.id from ${user} ${account} where lower(${account}.email) = lower(${orders.email})
    )
)`;

/** Keys of customers whose term ends, on `now`'s day or later: not revoked, with their owner and what renews them. */
function ownedExpiring(db: Database | Transaction, from: Date, until: Date) {
  return db
    .select({
      id: licenceKeys.id,
      hint: licenceKeys.keyHint,
      expiresAt: licenceKeys.expiresAt,
      orderId: orders.id,
      orderNumber: orders.number,
      userId: orders.userId,
      orderEmail: orders.email,
      accountEmail: user.email,
      productName: orderLines.name,
      variantLabel: orderLines.variantLabel,
      soldVariantSku: orderLines.variantSku,
      product: { route: products.route, hidden: products.hidden },
      variant: { sku: productVariants.sku, hidden: productVariants.hidden },
      renewed: sql<boolean>`${renewedSince}`,
      optedOut: sql<boolean>`${optedOut}`,
      reminded: sql<number[]>`coalesce((
        select array_agg(${renewalReminders.days}) from ${renewalReminders}
        where ${renewalReminders.licenceKeyId} = ${licenceKeys.id}
      ), '{}')`,
    })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(user, eq(user.id, orders.userId))
    .leftJoin(products, eq(products.id, orderLines.productId))
    .leftJoin(productVariants, eq(productVariants.id, orderLines.variantId))
    .where(
      and(
        isNotNull(licenceKeys.orderLineId),
        isNull(licenceKeys.revokedAt),
        gte(licenceKeys.expiresAt, from),
        lt(licenceKeys.expiresAt, until),
      ),
    )
    .orderBy(asc(licenceKeys.expiresAt), asc(licenceKeys.id));
}

type Candidate = Awaited<ReturnType<typeof ownedExpiring>>[number];

/** What Renew in the e-mail opens: the product page with the same variant chosen, if the store still sells it. */
function renewPath(row: Candidate): string | null {
  if (!row.product || row.product.hidden) return null;
  if (row.soldVariantSku === null) return row.product.route;
  if (!row.variant || row.variant.hidden) return null;
  return `${row.product.route}?variant=${encodeURIComponent(row.variant.sku)}`;
}

export type ReminderContext = {
  db: Database;
  env: Pick<Env, "PUBLIC_URL" | "AUTH_SECRET">;
  mailer: Pick<Mailer, "kick">;
};

/** Keys reminded in one pass at most; the next pass takes the rest. */
const BATCH = 200;

/**
 * Writes the reminders due on `now`'s day, each with its e-mail, and returns them (key and day). Every process runs
 * it; two passes at the same moment write each reminder once.
 */
export async function sendRenewalReminders(
  ctx: ReminderContext,
  now = new Date(),
): Promise<Array<{ keyId: number; days: number }>> {
  const settings = await getSettings(ctx.db);
  if (!settings.renewalReminders) return [];
  const days = settings.renewalReminderDays;
  const today = startOfDay(now);
  const until = new Date(today.getTime() + (Math.max(...days) + 1) * DAY);
  const candidates = await ownedExpiring(ctx.db, today, until);
  const due = candidates.flatMap((row) => {
    if (row.renewed || row.optedOut || !row.expiresAt) return [];
    const daysLeft = daysUntil(row.expiresAt, now);
    const day = dueReminder(days, daysLeft);
    // A nearer reminder sent already (the days changed since) stands for this one.
    if (day === null || row.reminded.some((sent) => sent <= day)) return [];
    return [{ row, day, daysLeft }];
  });
  if (due.length === 0) return [];
  const identity = await storeIdentity(ctx.db);
  const written: Array<{ keyId: number; days: number }> = [];
  for (const { row, day, daysLeft } of due.slice(0, BATCH)) {
    const sent = await ctx.db.transaction(async (tx) => {
      const [reminder] = await tx
        .insert(renewalReminders)
        .values({ licenceKeyId: row.id, days: day })
        .onConflictDoNothing({ target: [renewalReminders.licenceKeyId, renewalReminders.days] })
        .returning({ id: renewalReminders.id });
      // Another process wrote it (and its e-mail) first.
      if (!reminder) return false;
      const customer: ReminderCustomer = row.userId ? { userId: row.userId } : { email: row.orderEmail };
      const path = renewPath(row);
      const emailId = await enqueueEmail(tx, {
        ...renewalReminderEmail({
          to: row.accountEmail ?? row.orderEmail,
          storeName: identity.name,
          supportEmail: identity.email,
          productName: row.productName,
          variantLabel: row.variantLabel,
          hint: row.hint,
          orderNumber: row.orderNumber,
          expiresAt: row.expiresAt!.toISOString(),
          daysLeft,
          renewLink: path ? `${ctx.env.PUBLIC_URL}${path}` : null,
          licencesLink: row.userId ? `${ctx.env.PUBLIC_URL}/user/licences` : null,
          unsubscribeLink: `${ctx.env.PUBLIC_URL}${unsubscribePath(ctx.env.AUTH_SECRET, customer)}`,
        }),
        orderId: row.orderId,
      });
      await tx.update(renewalReminders).set({ emailId }).where(eq(renewalReminders.id, reminder.id));
      return true;
    });
    if (sent) written.push({ keyId: row.id, days: day });
  }
  if (written.length > 0) ctx.mailer.kick();
  return written;
}

/** Looks for reminders due now and then every `intervalMs`, logging what it did; a failed pass is logged and retried. */
export function startRenewalReminders(server: ReminderContext & { logger: Logger }, intervalMs = 300_000) {
  return repeatEvery(server.logger, "writing renewal reminders", intervalMs, async () => {
    const sent = await sendRenewalReminders(server);
    if (sent.length > 0) server.logger.info({ reminders: sent.length }, "renewal reminders written");
  });
}

/** A key's order as the dashboard lists it, among those expiring within the next 30 days. */
export type ExpiringLicence = {
  keyId: number;
  productName: string;
  variantLabel: string | null;
  orderNumber: number;
  email: string;
  expiresAt: string;
  renewed: boolean;
  reminded: boolean;
};

/**
 * Licences of customers that expire within `days` whole UTC days of `now` (not revoked; a key whose reminder says
 * "in 30 days" is among the next 30 days whatever the hour): how many, and the soonest few, each saying whether it
 * was renewed already and whether a reminder went out.
 */
export async function expiringLicences(db: Database, now = new Date(), days = 30, listed = 5) {
  const until = new Date(startOfDay(now).getTime() + (days + 1) * DAY);
  const window = and(
    isNotNull(licenceKeys.orderLineId),
    isNull(licenceKeys.revokedAt),
    gte(licenceKeys.expiresAt, now),
    lt(licenceKeys.expiresAt, until),
  );
  const [[total], soonest] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(licenceKeys)
      .where(window),
    db
      .select({
        keyId: licenceKeys.id,
        productName: orderLines.name,
        variantLabel: orderLines.variantLabel,
        orderNumber: orders.number,
        email: sql<string>`coalesce(${user.email}, ${orders.email})`,
        expiresAt: licenceKeys.expiresAt,
        renewed: sql<boolean>`${renewedSince}`,
        reminded: sql<boolean>`exists (select 1 from ${renewalReminders} where ${renewalReminders.licenceKeyId} = ${licenceKeys.id})`,
      })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .leftJoin(user, eq(user.id, orders.userId))
      .where(window)
      .orderBy(asc(licenceKeys.expiresAt), asc(licenceKeys.id))
      .limit(listed),
  ]);
  return {
    count: total?.n ?? 0,
    soonest: soonest.map((row): ExpiringLicence => ({ ...row, expiresAt: row.expiresAt!.toISOString() })),
  };
}

/**
 * Renewals won in the 30 days up to `now`: paid lines (not test orders, not refunded) of a product and variant the
 * same customer had bought before with a term, as a key that expires; the orders they are in, their revenue (the
 * lines' totals less their discount), and how many of those customers had had a reminder for it before paying.
 */
export async function renewalsWon(db: Database, now = new Date(), days = 30) {
  const from = new Date(now.getTime() - days * DAY);
  const earlier = sql.raw("earlier");
  const earlierLine = sql.raw("earlier_line");
  const earlierKey = sql.raw("earlier_key");
  const renewing = (extra: SQL = sql`true`) => sql`exists (
    select 1 from ${orderLines} ${earlierLine}
    join ${orders} ${earlier} on ${earlier}.id = ${earlierLine}.order_id
    join ${licenceKeys} ${earlierKey} on ${earlierKey}.order_line_id = ${earlierLine}.id
    where ${earlierLine}.product_id = ${orderLines.productId}
      and ${earlierLine}.variant_id is not distinct from ${orderLines.variantId}
      and ${earlierKey}.expires_at is not null
      and ${earlier}.paid_at is not null
      and ${earlier}.created_at < ${orders.createdAt}
      and ((${orders.userId} is not null and ${earlier}.user_id = ${orders.userId})
        or lower(${earlier}.email) = lower(${orders.email}))
      and ${extra}
  )`;
  const reminded = renewing(
    sql`exists (select 1 from ${renewalReminders} where ${renewalReminders.licenceKeyId} = ${earlierKey}.id and ${renewalReminders.sentAt} < ${orders.paidAt})`,
  );
  const [row] = await db
    .select({
      orders: sql<number>`count(distinct ${orders.id})`.mapWith(Number),
      revenueCents:
        sql<number>`coalesce(sum(${orderLines.lineTotalCents} - ${orderLines.discountCents}), 0)`.mapWith(
          Number,
        ),
      afterReminder: sql<number>`count(distinct ${orders.id}) filter (where ${reminded})`.mapWith(Number),
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      and(
        gte(orders.paidAt, from),
        inArray(orders.status, ["paid", "fulfilled"]),
        eq(orders.isTest, false),
        isNull(orderLines.refundedAt),
        renewing(),
      ),
    );
  return {
    orders: row?.orders ?? 0,
    revenueCents: row?.revenueCents ?? 0,
    afterReminder: row?.afterReminder ?? 0,
  };
}
