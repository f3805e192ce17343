import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { fieldLimits } from "./field-limits";
import { checkForm, type FieldErrors, formToObject } from "./forms";

/**
 * The browser's check of a form, with the schema the action uses (none: the form is sent as it is): the first message per field, or null to send.
 * Field names like "features.0" or "benefits.1.title" are read as lists and objects, as the action reads them.
 * `field(name)` gives a text field its props: its name, the limits its schema gives (required, maxLength,
 * inputMode), its value from `values` (what was just posted, or what is stored) and its message.
 */
export function useFormCheck(
  schema: z.ZodType | undefined,
  serverErrors?: FieldErrors,
  values?: Readonly<Record<string, string | undefined>>,
) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};
  // The server's refusal gives the focus to its first field as the browser's check does; also when the form is
  // drawn afresh with the answer (many pages key their form to the location, which every post changes).
  const formRef = useFocusOnFirstError(serverErrors);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (!schema) return;
    const form = event.currentTarget;
    const found = checkForm(schema, formToObject(new FormData(form)));
    setClientErrors(found);
    if (found) {
      event.preventDefault();
      // Take the admin to the first field that needs a fix, once the messages show.
      requestAnimationFrame(() => focusFirstInvalid(form, found));
    }
  };
  // Once a field with a message is changed, its message follows the new value (and goes when it is fixed).
  const onChange = (event: React.FormEvent<HTMLFormElement>) => {
    const name = (event.target as Partial<HTMLInputElement>).name;
    if (!schema || !name || errors[name] === undefined) return;
    const found = checkForm(schema, formToObject(new FormData(event.currentTarget))) ?? {};
    const next: FieldErrors = { ...errors };
    if (found[name]) next[name] = found[name];
    else delete next[name];
    setClientErrors(next);
  };
  const field = (name: string) => ({
    name,
    ...(schema ? fieldLimits(schema)[name] : undefined),
    defaultValue: values?.[name] ?? "",
    error: errors[name],
  });
  /** Give `formRef` to the form. */
  return { errors, onSubmit, onChange, formRef, field, reset: () => setClientErrors({}) };
}

/**
 * For a form that shows messages from the server or its own check: whenever new messages arrive, the first field
 * marked invalid takes the focus (also on the first render, for a page the server answered with its messages).
 * Give the returned ref to the form.
 */
export function useFocusOnFirstError(errors: object | null | undefined) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => focusFirstInvalid(form.current, errors), [errors]);
  return form;
}

function focusFirstInvalid(form: HTMLFormElement | null, errors: object | null | undefined) {
  if (form && errors && Object.keys(errors).length > 0)
    form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
}
