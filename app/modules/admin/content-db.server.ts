/** Whether a failed query broke a unique constraint (PostgreSQL 23505), on either driver, however it is wrapped. */
export const isUniqueViolation = (error: unknown) => hasErrorCode(error, "23505");

/** Whether a failed query broke a foreign key (PostgreSQL 23503), on either driver, however it is wrapped. */
export const isForeignKeyViolation = (error: unknown) => hasErrorCode(error, "23503");

function hasErrorCode(error: unknown, code: string): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current === "object" && (current as { code?: unknown }).code === code) return true;
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
