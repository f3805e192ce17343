import { useState } from "react";
import type { z } from "zod";
import { checkForm, type FieldErrors, formToObject } from "./forms";

/**
 * The browser's check of a form, with the schema the action uses (none: the form is sent as it is): the first message per field, or null to send.
 * Field names like "features.0" or "benefits.1.title" are read as lists and objects, as the action reads them.
 */
export function useFormCheck(schema: z.ZodType | undefined, serverErrors?: FieldErrors) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    if (!schema) return;
    const form = event.currentTarget;
    const found = checkForm(schema, formToObject(new FormData(form)));
    setClientErrors(found);
    if (found) {
      event.preventDefault();
      // Take the admin to the first field that needs a fix, once the messages show.
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
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
  return { errors, onSubmit, onChange, reset: () => setClientErrors({}) };
}
