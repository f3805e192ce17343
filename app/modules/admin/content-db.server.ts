/** Whether a failed query broke a unique constraint (PostgreSQL 23505), on either driver, however it is wrapped. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current === "object" && (current as { code?: unknown }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The outcome of an admin form write: saved (with the row's id), refused with a message per field, or missing. */
export type WriteResult<Id = number> =
  | { ok: true; id: Id }
  | { ok: false; reason: "invalid"; errors: Partial<Record<string, string>> }
  | { ok: false; reason: "not-found" };

export const NOT_FOUND = { ok: false, reason: "not-found" } as const;
export const refused = (errors: Partial<Record<string, string>>) =>
  ({ ok: false, reason: "invalid", errors }) as const;
