import { createHmac, timingSafeEqual } from "node:crypto";

/** What an order's secret link is made from: its number and which link of the order is the current one. */
export type OrderLinkRef = { number: number; accessVersion: number };

/**
 * The secret in a buyer's order link: derived from the order number and its link version with the server's
 * secret, so a guessed number alone shows nothing, and raising the version (a new link e-mailed) retires the
 * older links. Version 0 is the first link, as every order's confirmation carries it.
 */
export function orderAccessToken(secret: string, order: OrderLinkRef): string {
  const subject =
    order.accessVersion === 0
      ? `order-access:${order.number}`
      : `order-access:${order.number}:${order.accessVersion}`;
  return createHmac("sha256", secret).update(subject).digest("base64url").slice(0, 32);
}

const sameToken = (expected: string, given: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * What a link's key says about an order: "current" opens it, "retired" was a link of this order that a newer one
 * replaced (the buyer is told how to get the new one), anything else is no link at all.
 */
export function checkOrderLink(
  secret: string,
  order: OrderLinkRef,
  token: string | null | undefined,
): "current" | "retired" | "invalid" {
  if (!token || token.length !== 32) return "invalid";
  if (sameToken(orderAccessToken(secret, order), token)) return "current";
  for (let version = order.accessVersion - 1; version >= 0; version--) {
    if (sameToken(orderAccessToken(secret, { number: order.number, accessVersion: version }), token))
      return "retired";
  }
  return "invalid";
}

export const orderPath = (secret: string, order: OrderLinkRef) =>
  `/order/${order.number}?key=${orderAccessToken(secret, order)}`;
