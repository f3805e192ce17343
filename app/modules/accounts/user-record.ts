import { z } from "zod";
import { storedValue, useStoredValue } from "~/lib/stored-value";

/** A seconds-based timestamp as the server sends it (the shape of a document store's timestamps). */
export type SecondsTimestamp = { seconds: number; nanoseconds: number };

const secondsObject = z.union([
  z.object({ seconds: z.number(), nanoseconds: z.number().optional() }),
  z.object({ _seconds: z.number(), _nanoseconds: z.number().optional() }),
]);

/**
 * An order entry's timestamp as ISO text when it is seconds-based ({seconds, nanoseconds}, {_seconds, …} or a
 * number of seconds); anything else is kept as it is.
 */
export function toIsoTimestamp(value: unknown): unknown {
  let ms: number | undefined;
  if (typeof value === "number" && Number.isFinite(value)) ms = value * 1000;
  else {
    const parsed = secondsObject.safeParse(value);
    if (parsed.success) {
      const data = parsed.data;
      ms =
        "seconds" in data
          ? data.seconds * 1000 + (data.nanoseconds ?? 0) / 1e6
          : data._seconds * 1000 + (data._nanoseconds ?? 0) / 1e6;
    }
  }
  if (ms === undefined) return value;
  const date = new Date(Math.floor(ms));
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

const orderEntry = z.object({
  number: z.number().int(),
  status: z.string(),
  totalCents: z.number().int(),
  timestamp: z.unknown().transform(toIsoTimestamp),
});

/** The spec's user record (uid, status, lastLogin, lastLogout, timestamp, orders), plus name and e-mail. */
export const userRecordSchema = z.object({
  uid: z.string().min(1),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  status: z.enum(["Active", "InActive"]),
  lastLogin: z.string().nullable(),
  lastLogout: z.string().nullable(),
  timestamp: z.string().nullable(),
  orders: z.array(orderEntry),
});

export type UserRecord = z.infer<typeof userRecordSchema>;
/** What the server sends: order timestamps are seconds-based. */
export type WireUserRecord = Omit<UserRecord, "orders"> & {
  orders: Array<Omit<UserRecord["orders"][number], "timestamp"> & { timestamp: SecondsTimestamp }>;
};

/** A record from the server, ready to keep: null when it is not a user record. */
export function normalizeUserRecord(raw: unknown): UserRecord | null {
  const parsed = userRecordSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

const isUserRecord = (value: unknown): value is UserRecord | null =>
  value === null || userRecordSchema.safeParse(value).success;

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

/** Signing out: forget the user and everything this site kept in local storage (the spec's logout). */
export function clearLocalData() {
  userStore.set(null);
  try {
    window.localStorage.clear();
  } catch (error) {
    console.error("Could not clear local storage", error);
  }
  // Every stored value of this tab re-reads (other tabs hear the storage event by themselves).
  window.dispatchEvent(new StorageEvent("storage", { key: null }));
}
