import { expiryText } from "~/modules/orders/labels";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a key stands on a given day: no end, ended, or the whole days left before it ends. */
export type LicenceExpiry =
  | { kind: "perpetual" }
  | { kind: "expired" }
  | { kind: "active"; expiresAt: string; daysLeft: number };

/**
 * A key's expiry seen from `now`: computed from the stored expiry only (never from the term again), so the page,
 * reminders and tests agree. A part of a day left counts as a day: a key ending tonight has "1 day left".
 */
export function licenceExpiry(expiresAt: Date | null, now: Date): LicenceExpiry {
  if (expiresAt === null) return { kind: "perpetual" };
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return { kind: "expired" };
  return { kind: "active", expiresAt: expiresAt.toISOString(), daysLeft: Math.ceil(left / DAY_MS) };
}

/** As the customer reads it: "Expires 12 March 2027 · 468 days left", "Expired" or "Does not expire". */
export function licenceExpiryText(expiry: LicenceExpiry): string {
  if (expiry.kind === "perpetual") return "Does not expire";
  if (expiry.kind === "expired") return "Expired";
  const days = `${expiry.daysLeft} day${expiry.daysLeft === 1 ? "" : "s"} left`;
  return `${expiryText(expiry.expiresAt)} · ${days}`;
}
