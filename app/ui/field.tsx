import { useId, type ComponentProps } from "react";

type FieldProps = {
  label: string;
  /** The message shown beside the field when the value was refused. */
  error?: string;
  hint?: string;
};

/** A file picker's look: the browser's own control, its button styled like the store's. */
export const fileInputClass =
  "mt-1 block text-sm file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-ink-900 hover:file:bg-slate-50";

const inputClass = (error?: string) =>
  `mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-ink-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 ${
    error ? "border-red-500" : "border-slate-300"
  }`;

function FieldFrame({
  id,
  label,
  error,
  hint,
  children,
}: FieldProps & { id: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink-800">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const describedBy = (id: string, error?: string, hint?: string) =>
  error ? `${id}-error` : hint ? `${id}-hint` : undefined;

export function TextField({ label, error, hint, id, ...props }: FieldProps & ComponentProps<"input">) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint}>
      <input
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, error, hint)}
        className={inputClass(error)}
        {...props}
      />
    </FieldFrame>
  );
}

export function TextAreaField({ label, error, hint, id, ...props }: FieldProps & ComponentProps<"textarea">) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint}>
      <textarea
        id={fieldId}
        rows={5}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, error, hint)}
        className={inputClass(error)}
        {...props}
      />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  id,
  children,
  ...props
}: FieldProps & ComponentProps<"select">) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldFrame id={fieldId} label={label} error={error} hint={hint}>
      <select
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, error, hint)}
        className={inputClass(error)}
        {...props}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/**
 * A box to tick that the form may refuse unticked (the terms, a confirmation): its label beside it, and the refusal's
 * message below, named by `errorId`, which the page gives so its tests and links can find it.
 */
export function CheckboxField({
  name,
  error,
  errorId,
  children,
}: {
  name: string;
  error?: string;
  errorId: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={name}
          className="mt-0.5"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {children}
      </label>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
