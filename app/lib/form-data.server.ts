/** Reads a form post with a size limit, so an oversized body is refused politely instead of read into memory. */

/** Big enough for every text form of the store (a 5,000-character message in any script, percent-encoded). */
export const DEFAULT_FORM_LIMIT_BYTES = 128 * 1024;

export type FormBody =
  | { ok: true; values: Record<string, string> }
  | { ok: false; reason: "too-large" | "unreadable" };

/**
 * The text fields of a url-encoded or multipart form post (files are ignored; a repeated name keeps its first value).
 * A body over the limit is not read beyond it.
 */
export async function readFormBody(
  request: Request,
  maxBytes: number = DEFAULT_FORM_LIMIT_BYTES,
): Promise<FormBody> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    if (request.body && declared <= DRAIN_LIMIT_BYTES)
      await discardRest(request.body.getReader(), DRAIN_LIMIT_BYTES);
    return { ok: false, reason: "too-large" };
  }
  const bytes = await readLimited(request, maxBytes);
  if (bytes === "too-large") return { ok: false, reason: "too-large" };
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.startsWith("multipart/form-data")) {
      const form = await new Response(bytes, { headers: { "content-type": type } }).formData();
      return { ok: true, values: textValues(form.entries()) };
    }
    // Browsers post forms url-encoded unless told otherwise; anything else is read the same way.
    return { ok: true, values: textValues(new URLSearchParams(new TextDecoder().decode(bytes)).entries()) };
  } catch {
    return { ok: false, reason: "unreadable" };
  }
}

async function readLimited(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | "too-large"> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await discardRest(reader, DRAIN_LIMIT_BYTES);
      return "too-large";
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads and drops the rest of an oversized body (up to a bound), so the browser is still listening when the
 * "too large" answer comes; beyond the bound the connection is cut.
 */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  let drained = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
    if (drained > limit) {
      await reader.cancel();
      return;
    }
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
