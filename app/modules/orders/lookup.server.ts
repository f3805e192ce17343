import { consumeLimits, LIMITS, type LimitResult } from "~/lib/rate-limit.server";
import { orderPath } from "./access.server";
import {
  emailKeysAgain,
  findOrderByNumberAndEmail,
  type OrdersContext,
  sendNewOrderLink,
} from "./orders.server";

export type Refused = { ok: false; status: 404 | 429; message: string; retryAfterSeconds?: number };

const NOT_FOUND = "We could not find an order with that number and e-mail address.";

const tooMany = (limited: Extract<LimitResult, { ok: false }>): Refused => ({
  ok: false,
  status: 429,
  message: limited.message,
  retryAfterSeconds: limited.retryAfterSeconds,
});

/**
 * Order numbers are sequential, so a number and an e-mail address are a guessable secret: every try counts against
 * the client's address and against the e-mail address (which catches guesses from many addresses).
 */
const lookupLimits = (client: string, email: string) => [
  { limit: LIMITS.orderLookupPerClient, key: client },
  { limit: LIMITS.orderLookupPerEmail, key: email.trim().toLowerCase() },
];

/** A guest finds an order by its number and e-mail address: the path of its current secret link. */
export async function findGuestOrder(
  ctx: Pick<OrdersContext, "db" | "env">,
  client: string,
  input: { number: number; email: string },
): Promise<{ ok: true; path: string } | Refused> {
  const limited = await consumeLimits(ctx.db, lookupLimits(client, input.email));
  if (!limited.ok) return tooMany(limited);
  const found = await findOrderByNumberAndEmail(ctx.db, input.number, input.email);
  if (!found) return { ok: false, status: 404, message: NOT_FOUND };
  return { ok: true, path: orderPath(ctx.env.AUTH_SECRET, found) };
}

/**
 * A guest asks for a new link to an order: it goes to the address the order was placed with (never another one),
 * and every older link stops working. The answer is the same whether or not the number and address match.
 */
export async function emailGuestOrderLink(
  ctx: OrdersContext,
  client: string,
  input: { number: number; email: string },
): Promise<{ ok: true; message: string } | Refused> {
  const limited = await consumeLimits(ctx.db, lookupLimits(client, input.email));
  if (!limited.ok) return tooMany(limited);
  const found = await findOrderByNumberAndEmail(ctx.db, input.number, input.email);
  if (found) {
    const sent = await renewOrderLink(ctx, client, input.number);
    if (!sent.ok) return sent;
  }
  return {
    ok: true,
    message: `If order #${input.number} was placed with that address, a new link to it is on its way there. Links sent before no longer work.`,
  };
}

/** E-mails a new link to an order's buyer (limited per client and per order); older links stop working. */
export async function renewOrderLink(
  ctx: OrdersContext,
  client: string,
  number: number,
): Promise<{ ok: true; sentTo: string } | Refused> {
  const limited = await consumeLimits(ctx.db, [
    { limit: LIMITS.orderLinkPerClient, key: client },
    { limit: LIMITS.orderLinkPerOrder, key: String(number) },
  ]);
  if (!limited.ok) return tooMany(limited);
  const sentTo = await sendNewOrderLink(ctx, number);
  return sentTo ? { ok: true, sentTo } : { ok: false, status: 404, message: NOT_FOUND };
}

/** The buyer asks for their licence keys again from the order page (limited per client and per order). */
export async function resendKeys(
  ctx: OrdersContext,
  client: string,
  number: number,
): Promise<{ ok: true; sentTo: string } | Refused> {
  const limited = await consumeLimits(ctx.db, [
    { limit: LIMITS.keysAgainPerClient, key: client },
    { limit: LIMITS.keysAgainPerOrder, key: String(number) },
  ]);
  if (!limited.ok) return tooMany(limited);
  const sentTo = await emailKeysAgain(ctx, number);
  return sentTo
    ? { ok: true, sentTo }
    : { ok: false, status: 404, message: "This order has no licence keys to send yet." };
}

/** "a•••@example.com": enough for buyers to recognise their address, not enough to learn someone else's. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "your e-mail address";
  return `${email[0]}•••${email.slice(at)}`;
}
