import { eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { ACTIVITY_STATUSES, type ActivityStatus, user } from "~db/schema";
import type { Logger } from "~/lib/logger.server";
import type { ActivityResult } from "./activity";

export const isActivityStatus = (value: unknown): value is ActivityStatus =>
  typeof value === "string" && (ACTIVITY_STATUSES as readonly string[]).includes(value);

/**
 * The spec's status update of a user record: `Active` sets lastLogin and timestamp, `InActive` sets lastLogout
 * and timestamp. Any other value writes nothing ("unknown-status", shown as Internal Error); a write that fails,
 * or finds no such user, is "write-failed" (shown as Error while updating activity).
 */
export async function setActivity(
  db: Database,
  uid: string,
  status: unknown,
  logger?: Logger,
): Promise<ActivityResult> {
  if (!isActivityStatus(status)) {
    logger?.warn({ uid, status: String(status).slice(0, 40) }, "refused an unknown activity status");
    return { ok: false, problem: "unknown-status" };
  }
  const now = new Date();
  try {
    const updated = await db
      .update(user)
      .set(
        status === "Active"
          ? { status, lastLogin: now, timestamp: now }
          : { status, lastLogout: now, timestamp: now },
      )
      .where(eq(user.id, uid))
      .returning({ id: user.id });
    if (updated.length === 0) {
      logger?.warn({ uid, status }, "activity update: no such user");
      return { ok: false, problem: "write-failed" };
    }
    return { ok: true, at: now.toISOString() };
  } catch (error) {
    logger?.error({ err: error, uid, status }, "could not update the activity status");
    return { ok: false, problem: "write-failed" };
  }
}

/** When the account last signed in: null for one that never has (or no such account). */
export async function lastLoginOf(db: Database, uid: string): Promise<Date | null> {
  const [row] = await db.select({ lastLogin: user.lastLogin }).from(user).where(eq(user.id, uid));
  return row?.lastLogin ?? null;
}
