import type { z } from "zod";

/** Turns form fields named like "billing.city" into nested objects. */
export function formToObject(form: FormData | Record<string, string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, value] of form instanceof FormData ? form.entries() : Object.entries(form)) {
    if (typeof value !== "string") continue;
    const path = name.split(".");
    if (path.some((key) => key === "__proto__" || key === "constructor" || key === "prototype")) continue;
    let target = result;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      target = (typeof next === "object" && next !== null ? next : (target[key] = {})) as Record<
        string,
        unknown
      >;
    }
    target[path[path.length - 1]!] = value;
  }
  return result;
}

/**
 * Whether text a one-line field takes (a name, a title) has no line break, tab or other control character: such
 * text ends up in e-mail subjects, headings and PDF lines, where a break would split it.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const isOneLine = (value: string) => !/[\u0000-\u001f\u007f]/.test(value);
export const ONE_LINE_MESSAGE = "Keep it on one line: no line breaks or tabs";

export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;

/** The first message for each field ("email", "billing.city"), to show beside it; "form" for the form as a whole. */
export function fieldErrors<Field extends string = string>(error: z.ZodError): FieldErrors<Field> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    errors[key] ??= issue.message;
  }
  return errors as FieldErrors<Field>;
}

/** Validates form values in the browser with the same schema the server uses; null when they are fine. */
export function checkForm<Field extends string>(
  schema: z.ZodType,
  values: Record<string, unknown>,
): FieldErrors<Field> | null {
  const result = schema.safeParse(values);
  return result.success ? null : fieldErrors<Field>(result.error);
}
