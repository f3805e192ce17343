import { and, asc, count, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { brandGroups, products, productVariants, stockAlerts } from "~db/schema";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import { consumeLimits, LIMITS } from "~/lib/rate-limit.server";
import { repeatEvery } from "~/lib/repeating-job.server";
import { readSignedToken, signToken } from "~/lib/signed-token.server";
import { availabilityOf } from "~/modules/catalogue/availability";
import { stockOf, variantStockOf } from "~/modules/catalogue/stock.server";
import { nameWithVariant, variantPath } from "~/modules/catalogue/variants";
import { enqueueEmail, type Mailer } from "~/modules/email/outbox.server";
import { backInStockEmail, stockAlertConfirmationEmail } from "./emails/restock-emails";
import { storeIdentity } from "./settings.server";

/**
 * Back-in-stock alerts: a visitor leaves an address on the page of a product (or variant) that cannot be ordered
 * now; the address gets a confirmation link and nothing else until it is used; once the product can be ordered
 * again, one e-mail goes and the request is done. Every process looks now and then (sendStockAlerts): whatever
 * brought the stock back (keys imported, a stock count raised, an order cancelled), the look sees it, and the
 * update that marks a request notified lets only one process write its e-mail.
 */

/** Requests an address may have waiting at once (confirmed or not). */
export const MAX_PENDING_PER_ADDRESS = 10;
/** A request not confirmed within this long is dropped. */
const UNCONFIRMED_DAYS = 7;
const DAY = 24 * 60 * 60 * 1000;

export const stockAlertFormSchema = z.object({
  product: z.coerce.number().int().positive().max(2_147_483_647),
  variant: z.string().trim().max(64).optional().default(""),
  email: z.email("Enter a valid e-mail address").max(254, "The e-mail address is too long"),
});

export type StockAlertContext = {
  db: Database;
  env: Pick<Env, "PUBLIC_URL" | "AUTH_SECRET">;
  mailer: Pick<Mailer, "kick">;
};

const CONFIRM = "stock-alert-confirm";
const STOP = "stock-alert-stop";

export const confirmToken = (secret: string, id: number) => signToken(secret, CONFIRM, String(id));
export const stopToken = (secret: string, email: string) => signToken(secret, STOP, email.toLowerCase());

/** The request a confirmation token names; null when the server did not sign it. */
export function alertOfToken(secret: string, token: string | null): number | null {
  const subject = readSignedToken(secret, CONFIRM, token);
  const id = subject === null ? Number.NaN : Number(subject);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The address a stop token names; null when the server did not sign it. */
export function addressOfToken(secret: string, token: string | null): string | null {
  const subject = readSignedToken(secret, STOP, token);
  return subject && subject.includes("@") ? subject : null;
}

/** A product (and variant) as alerts see it: what it is called, where it is, and whether it can be ordered. */
async function subjectOf(db: Database, productId: number, variantSku: string) {
  const [product] = await db
    .select({
      id: products.id,
      name: products.name,
      route: products.route,
      hidden: products.hidden,
      waitingOrders: products.waitingOrders,
      section: brandGroups.section,
    })
    .from(products)
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .where(eq(products.id, productId))
    .limit(1);
  if (!product || product.hidden) return null;
  const variants = await db
    .select({ id: productVariants.id, sku: productVariants.sku, label: productVariants.label })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.hidden, false)))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  // A product sold in variants is asked for by one of them (the first when none is named, as its page shows).
  const variant = variantSku
    ? variants.find((candidate) => candidate.sku.toLowerCase() === variantSku.toLowerCase())
    : variants[0];
  if (variantSku && !variant) return null;
  return { ...product, variant: variant ?? null };
}

type Subject = NonNullable<Awaited<ReturnType<typeof subjectOf>>>;

const subjectName = (subject: Pick<Subject, "name" | "variant">) =>
  nameWithVariant(subject.name, subject.variant?.label);
const subjectPath = (subject: Pick<Subject, "route" | "variant">, first: boolean) =>
  variantPath(subject.route, first ? null : subject.variant?.sku);

/** Whether one unit of it can be ordered now. */
async function orderable(db: Database, subject: Omit<Subject, "name" | "route" | "hidden">) {
  const stockSubject = {
    productId: subject.id,
    section: subject.section,
    waitingOrders: subject.waitingOrders,
  };
  const stock = subject.variant
    ? (await variantStockOf(db, [{ ...stockSubject, variantId: subject.variant.id }])).get(
        subject.variant.id,
      )!
    : (await stockOf(db, [stockSubject])).get(subject.id)!;
  return availabilityOf(stock, 1, 1).status !== "unavailable";
}

export type StockAlertAnswer =
  | { ok: true; state: "sent" | "already" | "available"; productName: string; productPath: string }
  | { ok: false; status: 400 | 404 | 429; message: string; retryAfterSeconds?: number };

/**
 * A visitor asks to be told when a product (or variant) is back. A new request e-mails a confirmation link to the
 * address (limited per client and per address); a request already confirmed sends nothing.
 */
export async function requestStockAlert(
  ctx: StockAlertContext,
  client: string,
  input: z.infer<typeof stockAlertFormSchema>,
): Promise<StockAlertAnswer> {
  const email = input.email.trim().toLowerCase();
  const subject = await subjectOf(ctx.db, input.product, input.variant);
  if (!subject) return { ok: false, status: 404, message: "We do not sell this product (any more)." };
  const firstVariant = await isFirstVariant(ctx.db, subject);
  const about = { productName: subjectName(subject), productPath: subjectPath(subject, firstVariant) };
  if (await orderable(ctx.db, subject)) return { ok: true, state: "available", ...about };
  const variantId = subject.variant?.id ?? null;
  const samePending = and(
    eq(stockAlerts.productId, subject.id),
    sql`coalesce(${stockAlerts.variantId}, 0) = ${variantId ?? 0}`,
    eq(stockAlerts.email, email),
    isNull(stockAlerts.notifiedAt),
  );
  const [existing] = await ctx.db
    .select({ id: stockAlerts.id, confirmedAt: stockAlerts.confirmedAt })
    .from(stockAlerts)
    .where(samePending)
    .limit(1);
  if (existing?.confirmedAt) return { ok: true, state: "already", ...about };
  if (!existing) {
    const [pending] = await ctx.db
      .select({ n: count() })
      .from(stockAlerts)
      .where(and(eq(stockAlerts.email, email), isNull(stockAlerts.notifiedAt)));
    if ((pending?.n ?? 0) >= MAX_PENDING_PER_ADDRESS)
      return {
        ok: false,
        status: 429,
        message: `This address already waits for ${MAX_PENDING_PER_ADDRESS} products: we take no more for it until some are back.`,
      };
  }
  const limited = await consumeLimits(ctx.db, [
    { limit: LIMITS.stockAlertsPerClient, key: client },
    { limit: LIMITS.stockAlertsPerAddress, key: email },
  ]);
  if (!limited.ok)
    return { ok: false, status: 429, message: limited.message, retryAfterSeconds: limited.retryAfterSeconds };
  const identity = await storeIdentity(ctx.db);
  await ctx.db.transaction(async (tx) => {
    const [row] = existing
      ? [existing]
      : await tx
          .insert(stockAlerts)
          .values({ productId: subject.id, variantId, email })
          .onConflictDoNothing()
          .returning({ id: stockAlerts.id });
    // The same request made at the same moment elsewhere: that one sends the confirmation.
    if (!row) return;
    await enqueueEmail(
      tx,
      stockAlertConfirmationEmail({
        to: email,
        storeName: identity.name,
        productName: about.productName,
        confirmLink: `${ctx.env.PUBLIC_URL}/stock-alerts/confirm?token=${confirmToken(ctx.env.AUTH_SECRET, row.id)}`,
        stopLink: stopLink(ctx.env, email),
      }),
    );
  });
  ctx.mailer.kick();
  return { ok: true, state: "sent", ...about };
}

const stopLink = (env: StockAlertContext["env"], email: string) =>
  `${env.PUBLIC_URL}/stock-alerts/stop?token=${stopToken(env.AUTH_SECRET, email)}`;

/** Whether the subject's variant is the product's first on sale (whose page is the product's own). */
async function isFirstVariant(db: Database, subject: Pick<Subject, "id" | "variant">) {
  if (!subject.variant) return true;
  const [first] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(and(eq(productVariants.productId, subject.id), eq(productVariants.hidden, false)))
    .orderBy(asc(productVariants.position), asc(productVariants.id))
    .limit(1);
  return first?.id === subject.variant.id;
}

/** What a confirmation link's request is about, and whether it is (now) confirmed; null when it is gone. */
export async function stockAlertOf(db: Database, id: number) {
  const [row] = await db
    .select({
      id: stockAlerts.id,
      confirmedAt: stockAlerts.confirmedAt,
      notifiedAt: stockAlerts.notifiedAt,
      productName: products.name,
      variantLabel: productVariants.label,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .leftJoin(productVariants, eq(productVariants.id, stockAlerts.variantId))
    .where(eq(stockAlerts.id, id))
    .limit(1);
  if (!row) return null;
  return {
    productName: nameWithVariant(row.productName, row.variantLabel),
    state: row.notifiedAt
      ? ("notified" as const)
      : row.confirmedAt
        ? ("confirmed" as const)
        : ("unconfirmed" as const),
  };
}

/** Confirms a request (confirming it again changes nothing); false when it is gone. */
export async function confirmStockAlert(db: Database, id: number, now = new Date()): Promise<boolean> {
  // A product back already by then is told at the next look.
  const [row] = await db
    .update(stockAlerts)
    .set({ confirmedAt: sql`coalesce(${stockAlerts.confirmedAt}, ${now})` })
    .where(eq(stockAlerts.id, id))
    .returning({ id: stockAlerts.id });
  return row !== undefined;
}

/** Every waiting request of an address is dropped (the one-click way out); resolves to how many went. */
export async function stopStockAlerts(db: Database, email: string): Promise<number> {
  const dropped = await db
    .delete(stockAlerts)
    .where(and(eq(stockAlerts.email, email.toLowerCase()), isNull(stockAlerts.notifiedAt)))
    .returning({ id: stockAlerts.id });
  return dropped.length;
}

/** Requests looked at in one pass at most; the next pass takes the rest. */
const BATCH = 200;

/**
 * E-mails every confirmed request whose product (or variant) can be ordered again, once each, and drops requests
 * left unconfirmed too long. Resolves to the ids of the requests it told. Every process runs it.
 */
export async function sendStockAlerts(ctx: StockAlertContext, now = new Date()): Promise<number[]> {
  await ctx.db
    .delete(stockAlerts)
    .where(
      and(
        isNull(stockAlerts.confirmedAt),
        lt(stockAlerts.createdAt, new Date(now.getTime() - UNCONFIRMED_DAYS * DAY)),
      ),
    );
  const waiting = await ctx.db
    .select({
      id: stockAlerts.id,
      email: stockAlerts.email,
      product: {
        id: products.id,
        name: products.name,
        route: products.route,
        hidden: products.hidden,
        waitingOrders: products.waitingOrders,
        section: brandGroups.section,
      },
      variant: { id: productVariants.id, sku: productVariants.sku, label: productVariants.label },
      variantHidden: productVariants.hidden,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .leftJoin(productVariants, eq(productVariants.id, stockAlerts.variantId))
    .where(and(isNull(stockAlerts.notifiedAt), isNotNull(stockAlerts.confirmedAt)))
    .orderBy(asc(stockAlerts.id))
    .limit(BATCH);
  if (waiting.length === 0) return [];
  // Each product (and variant) is looked at once, however many wait for it.
  const back = new Map<string, Subject | null>();
  for (const row of waiting) {
    const key = `${row.product.id}:${row.variant?.id ?? ""}`;
    if (back.has(key)) continue;
    const subject: Subject = { ...row.product, variant: row.variant };
    const shown = !row.product.hidden && row.variantHidden !== true;
    back.set(key, shown && (await orderable(ctx.db, subject)) ? subject : null);
  }
  const identity = await storeIdentity(ctx.db);
  const told: number[] = [];
  for (const row of waiting) {
    const subject = back.get(`${row.product.id}:${row.variant?.id ?? ""}`);
    if (!subject) continue;
    const first = await isFirstVariant(ctx.db, subject);
    const sent = await ctx.db.transaction(async (tx) => {
      // Only one process turns a waiting request into a notified one; the others update nothing.
      const [marked] = await tx
        .update(stockAlerts)
        .set({ notifiedAt: now })
        .where(and(eq(stockAlerts.id, row.id), isNull(stockAlerts.notifiedAt)))
        .returning({ id: stockAlerts.id });
      if (!marked) return false;
      const emailId = await enqueueEmail(
        tx,
        backInStockEmail({
          to: row.email,
          storeName: identity.name,
          productName: subjectName(subject),
          productLink: `${ctx.env.PUBLIC_URL}${subjectPath(subject, first)}`,
          stopLink: stopLink(ctx.env, row.email),
        }),
      );
      await tx.update(stockAlerts).set({ emailId }).where(eq(stockAlerts.id, row.id));
      return true;
    });
    if (sent) told.push(row.id);
  }
  if (told.length > 0) ctx.mailer.kick();
  return told;
}

/** Looks for products back in stock now and then every `intervalMs`, logging what it told. */
export function startStockAlerts(server: StockAlertContext & { logger: Logger }, intervalMs = 60_000) {
  return repeatEvery(server.logger, "sending back-in-stock alerts", intervalMs, async () => {
    const told = await sendStockAlerts(server);
    if (told.length > 0) server.logger.info({ alerts: told.length }, "back-in-stock alerts written");
  });
}
