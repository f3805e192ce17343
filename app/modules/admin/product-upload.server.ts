/**
 * Reads an admin form that brings a text file (a CSV of products or of licence keys): a file part or a pasted text
 * field. The server bounds the whole post to `textUploadLimit(maxBytes)` while it arrives (server/body-limit.ts);
 * here the file itself is held to `maxBytes`, with a message that says what to do.
 */
import { formatBytes } from "~/lib/byte-size";

/** Room for the multipart framing and the form's small fields beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The most bytes a post bringing a file of at most `maxBytes` may have. */
export const textUploadLimit = (maxBytes: number) => maxBytes + FORM_OVERHEAD_BYTES;

export type TextUpload =
  | { ok: true; values: Record<string, string>; text: string; fileName: string | null }
  | { ok: false; status: 400 | 413; error: string };

/** What an import past its limit is told, by this reader or by the server's body limit before it. */
export const importTooLargeMessage = (maxBytes: number) =>
  `The file is larger than ${formatBytes(maxBytes)}, the most one import takes: split it into smaller files.`;

export async function readTextUpload(
  request: Request,
  { maxBytes, fileField, textField }: { maxBytes: number; fileField: string; textField: string },
): Promise<TextUpload> {
  const tooLarge = {
    ok: false as const,
    status: 413 as const,
    error: importTooLargeMessage(maxBytes),
  };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, error: "The form could not be read: reload the page and try again." };
  }
  const values: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && !(name in values)) values[name] = value;
  }
  const file = form.get(fileField);
  if (file instanceof Blob && file.size > 0) {
    if (file.size > maxBytes) return tooLarge;
    const bytes = new Uint8Array(await file.arrayBuffer());
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return {
        ok: false,
        status: 400,
        error: "The file is not UTF-8 text: save it as CSV UTF-8 and try again.",
      };
    }
    return { ok: true, values, text, fileName: "name" in file ? String(file.name) : null };
  }
  const text = values[textField] ?? "";
  if (new TextEncoder().encode(text).byteLength > maxBytes) return tooLarge;
  return { ok: true, values, text, fileName: null };
}
