import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { fieldLimits } from "~/lib/field-limits";
import { Form, Link, useNavigation } from "react-router";
import { useFocusOnFirstError } from "~/lib/use-form-check";
import type { z } from "zod";
import { Button } from "~/ui/button";
import { checkForm, type FieldErrors, type FormFeedback, HONEYPOT_FIELD } from "../schemas";

const NO_ERRORS = {};

/**
 * The behaviour the contact and quote forms share: the same zod schema as the action checks the values before they
 * are sent (the action checks again), the messages beside the fields come from whichever check refused them, and
 * the first refused field gets the focus.
 */
export function useInquiryForm<Field extends string>(
  schema: z.ZodType,
  feedback: FormFeedback<Field> | undefined,
) {
  const [clientErrors, setClientErrors] = useState<FieldErrors<Field> | null>(null);
  const [lastFeedback, setLastFeedback] = useState(feedback);
  // A new answer from the server replaces what the browser found.
  if (feedback !== lastFeedback) {
    setLastFeedback(feedback);
    setClientErrors(null);
  }
  const errors: FieldErrors<Field> = clientErrors ?? feedback?.errors ?? NO_ERRORS;
  const formRef = useFocusOnFirstError(errors);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const found = checkForm<Field>(schema, values);
    if (found) event.preventDefault();
    setClientErrors(found);
  };

  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const values: Partial<Record<Field, string>> = feedback?.values ?? {};
  /** A field's props: its name, its limits from the schema, what was posted and its message. */
  const field = (name: Field) => ({
    name,
    ...fieldLimits(schema)[name],
    defaultValue: values[name],
    error: errors[name],
  });
  return { formRef, errors, values, formError: feedback?.message, onSubmit, submitting, field };
}

/** A field people never see; bots that fill in every field give themselves away, and their post is dropped. */
function Honeypot() {
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** A message about the whole form (the post was too large, say), above its fields. */
function FormAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
      data-testid="form-error"
    >
      {message}
    </p>
  );
}

function SubmitButton({ submitting, children }: { submitting: boolean; children: ReactNode }) {
  return (
    <Button type="submit" disabled={submitting} className="w-full sm:w-auto">
      {submitting ? "Sending…" : children}
    </Button>
  );
}

/**
 * What the contact and quote forms have around their fields: the check before sending, a message about the whole
 * form, the note on required fields, the field bots fall for, and below, what the store does with the details
 * (`privacyNote`, before the link to the policy) beside the send button.
 */
export function InquiryForm({
  form: { formRef, onSubmit, formError, submitting },
  labelledBy,
  testId,
  privacyNote,
  submitLabel,
  children,
}: {
  form: Pick<ReturnType<typeof useInquiryForm>, "formRef" | "onSubmit" | "formError" | "submitting">;
  labelledBy: string;
  testId: string;
  privacyNote: string;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      className="relative space-y-5"
      aria-labelledby={labelledBy}
      data-testid={testId}
    >
      <FormAlert message={formError} />
      <p className="text-sm text-slate-600">All fields are required unless marked optional.</p>
      {children}
      <Honeypot />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          {`${privacyNote} See our`}{" "}
          <Link to="/privacypolicy" className="font-medium text-brand-700 underline underline-offset-2">
            privacy policy
          </Link>
          .
        </p>
        <SubmitButton submitting={submitting}>{submitLabel}</SubmitButton>
      </div>
    </Form>
  );
}

/** Shown in place of the form once the post was stored; takes the focus so it is seen and read out. */
export function SentNotice({
  title,
  children,
  again,
}: {
  title: string;
  children: ReactNode;
  again: { to: string; label: string };
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After the page has settled (a navigation scrolls to the top first).
    const frame = window.requestAnimationFrame(() => ref.current?.focus());
    return () => window.cancelAnimationFrame(frame);
  }, []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      className="scroll-mt-24 rounded-2xl border border-emerald-200 bg-emerald-50 p-6 focus:outline-none sm:p-8"
      data-testid="form-sent"
    >
      <div className="flex items-start gap-4">
        <span
          aria-hidden="true"
          className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white"
        >
          <svg viewBox="0 0 20 20" fill="currentColor" className="h-5 w-5">
            <path
              fillRule="evenodd"
              d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
              clipRule="evenodd"
            />
          </svg>
        </span>
        <div>
          <p className="text-lg font-semibold text-emerald-900">{title}</p>
          <div className="mt-1 text-sm text-emerald-900">{children}</div>
          <Link
            to={again.to}
            className="mt-4 inline-block text-sm font-semibold text-emerald-800 underline underline-offset-2 hover:text-emerald-900"
          >
            {again.label}
          </Link>
        </div>
      </div>
    </div>
  );
}
