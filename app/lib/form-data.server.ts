/**
 * Reads a form post. The server has already bounded the body while it arrived (server/body-limit.ts decides the
 * limit per path and answers 413 itself), so what reaches an action is never larger than that.
 */

export type FormBody = { ok: true; values: Record<string, string> } | { ok: false; reason: "unreadable" };

/** The text fields of a url-encoded or multipart form post (files are ignored; a repeated name keeps its first value). */
export async function readFormBody(request: Request): Promise<FormBody> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.startsWith("multipart/form-data")) {
      return { ok: true, values: textValues((await request.formData()).entries()) };
    }
    // Browsers post forms url-encoded unless told otherwise; anything else is read the same way.
    return { ok: true, values: textValues(new URLSearchParams(await request.text()).entries()) };
  } catch {
    return { ok: false, reason: "unreadable" };
  }
}

/**
 * The first text value of each name. NUL characters are dropped: no form means one, and PostgreSQL text cannot
 * store it (the write would fail instead of the field being checked).
 */
function textValues(entries: Iterable<[string, FormDataEntryValue | string]>): Record<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of entries) {
    if (typeof value === "string" && !values.has(name)) values.set(name, value.replaceAll("\0", ""));
  }
  // Own properties only, whatever the names ("__proto__" included).
  return Object.fromEntries(values);
}
