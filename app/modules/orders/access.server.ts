import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The secret in a buyer's order link: derived from the order number with the server's secret, so nothing is
 * stored and a guessed number alone shows nothing.
 */
export function orderAccessToken(secret: string, number: number): string {
  return createHmac("sha256", secret).update(`order-access:${number}`).digest("base64url").slice(0, 32);
}

export function isOrderAccessToken(
  secret: string,
  number: number,
  token: string | null | undefined,
): boolean {
  if (!token) return false;
  const expected = Buffer.from(orderAccessToken(secret, number));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const orderPath = (secret: string, number: number) =>
  `/order/${number}?key=${orderAccessToken(secret, number)}`;
