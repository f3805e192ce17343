import { data } from "react-router";
import type { FieldErrors } from "./forms";

/**
 * What a form's action answers when it does not redirect: whether it did what was asked, a message for the page,
 * which of the page's buttons was pressed and, for a refused form, a message per field and what was posted (to
 * show again). A page that tells more (a report, the address a link went to) adds its own fields, or narrows these:
 * `Extra`.
 */
export type ActionReply<Extra extends object = object> = Omit<
  {
    ok: boolean;
    message?: string;
    intent?: string;
    errors?: FieldErrors;
    values?: Record<string, string>;
  },
  keyof Extra
> &
  Extra;

/** A refused post's answer, with its status: nothing was written. */
export function refusal<Extra extends object = object>(
  status: number,
  body: Omit<ActionReply<Extra>, "ok">,
  headers?: HeadersInit,
) {
  return data({ ok: false, ...body } as unknown as ActionReply<Extra>, { status, headers });
}

/** The answer of a post that did what was asked, with its message for the page. */
export function success<Extra extends object = object>(
  body: Omit<ActionReply<Extra>, "ok">,
  headers?: HeadersInit,
) {
  return data({ ok: true, ...body } as unknown as ActionReply<Extra>, { headers });
}
