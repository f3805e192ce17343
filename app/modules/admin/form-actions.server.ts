import { redirect } from "react-router";
import type { z } from "zod";
import { refusal } from "~/lib/action-reply";
import { readFormBody } from "~/lib/form-data.server";
import { type FieldErrors, fieldErrors, formToObject } from "~/lib/forms";
import type { ServerContext } from "~/context";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import type { Database } from "~db/client.server";
import { rowId } from "./content-schemas";

/** An admin page's refusal of a post (nothing was written): its message and, for a form, what to show again. */
export const reply = (status: number, body: Parameters<typeof refusal>[1] & { message: string }) =>
  refusal(status, body, PRIVATE_HEADERS);

export const FIX_FIELDS = "Some fields need a fix: see the messages next to them.";

/** The posted form's text fields, or the 400 answer to return at once. */
export async function readContentForm(
  request: Request,
): Promise<{ ok: true; values: Record<string, string> } | { ok: false; response: ReturnType<typeof reply> }> {
  const body = await readFormBody(request);
  if (body.ok) return body;
  return {
    ok: false,
    response: reply(400, { message: "The form could not be read: reload the page and try again." }),
  };
}

/** The answer of an admin page's actions: kept under this name for the pages that import it from here. */
export type { ActionReply } from "~/lib/action-reply";

/**
 * A record page's posted form, read and checked with the page's schema; or the answer to return at once (400 with
 * a message per field for a form that fails the schema).
 */
export async function parseActionForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<{ ok: true; form: z.infer<Schema> } | { ok: false; response: ReturnType<typeof refusal> }> {
  const body = await readContentForm(request);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.values);
  if (parsed.success) return { ok: true, form: parsed.data };
  const errors = fieldErrors(parsed.error);
  return {
    ok: false,
    response: refusal(400, { intent: body.values.intent, errors, message: errors.intent ?? errors.form }),
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

/** What a module's save of one record answers. */
type SaveOutcome = { ok: true } | { ok: false; reason: "invalid" | "not-found"; errors?: FieldErrors };

/**
 * The create, update and delete buttons of a content list page (intent and id posted with the form's fields):
 * checks the form with the record's schema, calls the module, and answers with the list again or the reason for
 * refusing. Null for any other intent, which the page handles itself.
 */
export async function saveOrDeleteRecord<Form>(
  request: Request,
  posted: Record<string, string>,
  record: {
    schema: z.ZodType<Form>;
    notFound: string;
    create: (form: Form) => Promise<SaveOutcome>;
    update: (id: number, form: Form) => Promise<SaveOutcome>;
    remove: (id: number) => Promise<boolean>;
    /** Query keys of the list's open form, dropped on the way back to the list. */
    formKeys?: string[];
  },
) {
  const { intent, id: rawId, ...values } = posted;
  if (intent === "delete") {
    const id = rowId.safeParse(rawId);
    if (!id.success || !(await record.remove(id.data)))
      return reply(404, { message: record.notFound, intent });
    return redirect(backToList(request, "deleted"));
  }
  if (intent !== "create" && intent !== "update") return null;
  const parsed = record.schema.safeParse(values);
  if (!parsed.success)
    return reply(400, { message: FIX_FIELDS, intent, errors: fieldErrors(parsed.error), values });
  let result: SaveOutcome;
  if (intent === "create") result = await record.create(parsed.data);
  else {
    const id = rowId.safeParse(rawId);
    if (!id.success) return reply(404, { message: record.notFound, intent });
    result = await record.update(id.data, parsed.data);
  }
  if (!result.ok)
    return result.reason === "not-found"
      ? reply(404, { message: record.notFound, intent })
      : reply(400, { message: FIX_FIELDS, intent, errors: result.errors, values });
  return redirect(backToList(request, intent === "create" ? "created" : "saved", record.formKeys));
}

/** One form of a page of several: the schema its values are checked with, and the write of what passed. */
export type SectionForm = {
  schema: z.ZodType;
  /** Given what the schema gave (`never` here: each form's save takes its own schema's output). */
  save: (db: Database, form: never, admin: string) => Promise<unknown>;
};

/**
 * The action of an admin page of several forms that each save one part (a settings section, the company's
 * phone): the posted intent picks the form, its schema checks the values, its write saves them and the page comes
 * back with ?done=<intent>. A refused form comes back with its messages and what was posted.
 */
export async function saveSectionForm(
  { request, context }: { request: Request; context: ServerContext },
  path: string,
  forms: Readonly<Record<string, SectionForm>>,
  unknownIntent: string,
) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const { intent, ...values } = body.values;
  const form = intent && Object.hasOwn(forms, intent) ? forms[intent] : undefined;
  if (!form) return reply(400, { message: unknownIntent });
  const parsed = form.schema.safeParse(formToObject(values));
  if (!parsed.success)
    return reply(400, { message: FIX_FIELDS, intent, errors: fieldErrors(parsed.error), values });
  await form.save(context.db, parsed.data as never, admin.email);
  return redirect(`${path}?done=${intent}`);
}
