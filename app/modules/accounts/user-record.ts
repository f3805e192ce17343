import { type Currency, isCurrency } from "~/lib/money";
import { isFiniteNumber, isRecord, isText, isTextOrNull, isWholeNumber } from "~/lib/checks";
import { storedValue, useStoredValue } from "~/lib/stored-value";

/** A seconds-based timestamp as the server sends it (the shape of a document store's timestamps). */
export type SecondsTimestamp = { seconds: number; nanoseconds: number };

/** Milliseconds of `{seconds, nanoseconds?}` or `{_seconds, _nanoseconds?}`; undefined for anything else. */
function secondsObjectMs(value: unknown): number | undefined {
  if (!isRecord(value)) return undefined;
  for (const [seconds, nanoseconds] of [
    ["seconds", "nanoseconds"],
    ["_seconds", "_nanoseconds"],
  ] as const) {
    const [s, ns] = [value[seconds], value[nanoseconds]];
    if (isFiniteNumber(s) && (ns === undefined || isFiniteNumber(ns))) return s * 1000 + (ns ?? 0) / 1e6;
  }
  return undefined;
}

/**
 * An order entry's timestamp as ISO text when it is seconds-based ({seconds, nanoseconds}, {_seconds, …} or a
 * number of seconds); anything else is kept as it is.
 */
export function toIsoTimestamp(value: unknown): unknown {
  const ms = isFiniteNumber(value) ? value * 1000 : secondsObjectMs(value);
  if (ms === undefined) return value;
  const date = new Date(Math.floor(ms));
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** The spec's user record (uid, status, lastLogin, lastLogout, timestamp, orders), plus name and e-mail. */
export type UserRecord = {
  uid: string;
  name: string;
  email: string;
  emailVerified: boolean;
  status: "Active" | "InActive";
  lastLogin: string | null;
  lastLogout: string | null;
  timestamp: string | null;
  /** Each order's timestamp as ISO text when it was seconds-based (see toIsoTimestamp). */
  orders: Array<{
    number: number;
    status: string;
    totalCents: number;
    currency: Currency;
    timestamp: unknown;
  }>;
};
/** What the server sends: order timestamps are seconds-based. */
export type WireUserRecord = Omit<UserRecord, "orders"> & {
  orders: Array<Omit<UserRecord["orders"][number], "timestamp"> & { timestamp: SecondsTimestamp }>;
};

/** A record from the server, ready to keep: null when it is not a user record. */
export function normalizeUserRecord(raw: unknown): UserRecord | null {
  if (
    !isRecord(raw) ||
    !isText(raw.uid, 1) ||
    !isText(raw.name) ||
    !isText(raw.email) ||
    typeof raw.emailVerified !== "boolean" ||
    (raw.status !== "Active" && raw.status !== "InActive") ||
    !isTextOrNull(raw.lastLogin) ||
    !isTextOrNull(raw.lastLogout) ||
    !isTextOrNull(raw.timestamp) ||
    !Array.isArray(raw.orders)
  )
    return null;
  const orders: UserRecord["orders"] = [];
  for (const order of raw.orders as unknown[]) {
    if (
      !isRecord(order) ||
      !isWholeNumber(order.number) ||
      !isText(order.status) ||
      !isWholeNumber(order.totalCents)
    )
      return null;
    orders.push({
      number: order.number,
      status: order.status,
      totalCents: order.totalCents,
      // A record kept before orders had a currency: its orders were in dollars.
      currency: isCurrency(order.currency) ? order.currency : "USD",
      timestamp: toIsoTimestamp(order.timestamp),
    });
  }
  // Only the record's own fields are kept.
  return {
    uid: raw.uid,
    name: raw.name,
    email: raw.email,
    emailVerified: raw.emailVerified,
    status: raw.status,
    lastLogin: raw.lastLogin,
    lastLogout: raw.lastLogout,
    timestamp: raw.timestamp,
    orders,
  };
}

const isUserRecord = (value: unknown): value is UserRecord | null =>
  value === null || normalizeUserRecord(value) !== null;

/** The signed-in user, in local storage under `user` (the spec's key); null when nobody is signed in. */
export const userStore = storedValue<UserRecord | null>(
  "user",
  null,
  isUserRecord,
  "Stored user is not a user record; using none",
);

export function useStoredUser(): UserRecord | null {
  return useStoredValue(userStore, null);
}

/**
 * Signing out: forget the user and everything this site kept in local storage (the spec's logout), and this tab's
 * session storage too (a checkout form being filled in holds an address).
 */
export function clearLocalData() {
  userStore.set(null);
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch (error) {
    console.error("Could not clear the browser's storage", error);
  }
  // Every stored value of this tab re-reads (other tabs hear the storage event by themselves).
  window.dispatchEvent(new StorageEvent("storage", { key: null }));
}
