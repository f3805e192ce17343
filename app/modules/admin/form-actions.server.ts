import { data } from "react-router";
import type { z } from "zod";
import { readFormBody } from "~/lib/form-data.server";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";

/**
 * What a content page's action answers when it does not redirect: a message for the page and, for a refused
 * form, a message per field and the values to show again. Nothing was written.
 */
export type ContentReply = {
  ok: false;
  message: string;
  intent?: string;
  errors?: FieldErrors;
  values?: Record<string, string>;
};

export const reply = (status: number, body: Omit<ContentReply, "ok">) =>
  data<ContentReply>({ ok: false, ...body }, { status, headers: PRIVATE_HEADERS });

export const FIX_FIELDS = "Some fields need a fix: see the messages next to them.";

/** The posted form's text fields, or the 400/413 answer to return at once. */
export async function readContentForm(
  request: Request,
  maxBytes?: number,
): Promise<{ ok: true; values: Record<string, string> } | { ok: false; response: ReturnType<typeof reply> }> {
  const body = await readFormBody(request, maxBytes);
  if (body.ok) return body;
  return {
    ok: false,
    response:
      body.reason === "too-large"
        ? reply(413, { message: "The form is too large to save: shorten the longest texts." })
        : reply(400, { message: "The form could not be read: reload the page and try again." }),
  };
}

/** What an admin record page's action answers: the outcome of one of its buttons, or why the post was refused. */
export type ActionReply = { ok: boolean; message?: string; intent?: string; errors?: FieldErrors };

/**
 * A record page's posted form, read and checked with the page's schema; or the answer to return at once (413 for
 * a form over the size limit, 400 with a message per field for a form that fails the schema).
 */
export async function parseActionForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<
  { ok: true; form: z.infer<Schema> } | { ok: false; response: ReturnType<typeof data<ActionReply>> }
> {
  const body = await readFormBody(request);
  if (!body.ok) {
    const message =
      body.reason === "too-large"
        ? "The form is too large to save: shorten the longest texts."
        : "The form could not be read: reload the page and try again";
    return {
      ok: false,
      response: data<ActionReply>({ ok: false, message }, body.reason === "too-large" ? 413 : 400),
    };
  }
  const parsed = schema.safeParse(body.values);
  if (parsed.success) return { ok: true, form: parsed.data };
  const errors = fieldErrors(parsed.error);
  return {
    ok: false,
    response: data<ActionReply>(
      { ok: false, intent: body.values.intent, errors, message: errors.intent ?? errors.form },
      400,
    ),
  };
}

/**
 * Where to go after a write: the same list (search, sort and page kept), without the open form, with a word
 * for the notice.
 */
export function backToList(request: Request, done: string, drop: string[] = ["edit", "new"]): string {
  const url = new URL(request.url);
  for (const key of [...drop, "done", "index"]) url.searchParams.delete(key);
  url.searchParams.set("done", done);
  return `${url.pathname}?${url.searchParams.toString()}`;
}
