import type { ComponentProps } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { z } from "zod";
import type { ActionReply } from "~/lib/action-reply";
import type { FieldErrors } from "~/lib/forms";
import { useFormCheck } from "~/lib/use-form-check";
import { TextField } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { MESSAGES } from "../messages";
import { forgotPasswordSchema, signInSchema, signUpSchema } from "../schemas";
import { NewPasswordField } from "./new-password-field";

type SignInIntent = "sign-in" | "sign-up" | "forgot";

/** What the sign-in page's action tells besides the usual: which of its three forms was sent, and `sent` once a link is on its way. */
export type SignInAnswer = { intent: SignInIntent; errors: FieldErrors; sent?: boolean };
type SignInReply = ActionReply<SignInAnswer>;

/**
 * One field of the page's forms; what was posted comes back into it (never a password: the action keeps none).
 * `choosesPassword`: the field of a new password, with the store's rule as its hint.
 */
type CredentialField = { name: string; id: string; label: string; choosesPassword?: true } & Pick<
  ComponentProps<"input">,
  "type" | "autoComplete"
>;

type FormSpec = {
  schema: z.ZodType;
  testId: string;
  /** The space above the form, and above the notice that takes its place once `sent`. */
  margin: string;
  /** Whether signing in follows, to the page the visitor came for. */
  keepsRedirect: boolean;
  intro?: string;
  sent?: { message: string; testId: string };
  fields: CredentialField[];
  submit: { label: string; busy: string };
};

const email = { name: "email", label: "E-mail address", type: "email", autoComplete: "email" } as const;

/** The page's three forms, by the intent their button sends. */
const FORMS: Record<SignInIntent, FormSpec> = {
  "sign-in": {
    schema: signInSchema,
    testId: "sign-in-form",
    margin: "mt-6",
    keepsRedirect: true,
    fields: [
      { ...email, id: "sign-in-email", autoComplete: "username" },
      {
        name: "password",
        id: "sign-in-password",
        label: "Password",
        type: "password",
        autoComplete: "current-password",
      },
    ],
    submit: { label: "Sign in", busy: "Signing in…" },
  },
  forgot: {
    schema: forgotPasswordSchema,
    testId: "forgot-form",
    margin: "mt-3",
    keepsRedirect: false,
    intro: "We will e-mail you a link to choose a new password.",
    sent: { message: MESSAGES.resetSent, testId: "reset-sent" },
    fields: [{ ...email, id: "forgot-email" }],
    submit: { label: "Send me a link", busy: "Sending…" },
  },
  "sign-up": {
    schema: signUpSchema,
    testId: "sign-up-form",
    margin: "mt-6",
    keepsRedirect: true,
    sent: { message: MESSAGES.signUpSent, testId: "sign-up-sent" },
    fields: [
      { name: "name", id: "sign-up-name", label: "Your name", autoComplete: "name" },
      { ...email, id: "sign-up-email" },
      { name: "password", id: "sign-up-password", label: "Choose a password", choosesPassword: true },
    ],
    submit: { label: "Create my account", busy: "Creating your account…" },
  },
};

function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
      role="alert"
      data-testid="form-error"
    >
      {message}
    </p>
  );
}

function SubmitButton({ intent, label, busy }: { intent: SignInIntent; label: string; busy: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      disabled={pending}
      className="w-full rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-brand-300"
    >
      {pending ? busy : label}
    </button>
  );
}

/**
 * One of the page's forms (`FORMS[intent]`): checked in the browser with the schema its action uses, it shows the
 * action's answer only when that answer is about this form, and gives way to a notice once its e-mail is sent.
 */
function CredentialsForm({
  intent,
  reply,
  redirectTo,
}: {
  intent: SignInIntent;
  reply: SignInReply | undefined;
  redirectTo: string;
}) {
  const form = FORMS[intent];
  const answer = reply?.intent === intent ? reply : undefined;
  const { errors, onSubmit, formRef } = useFormCheck(form.schema, answer ? answer.errors : {});
  const values = answer?.values ?? {};
  if (form.sent && answer?.sent)
    return (
      <p
        className={`${form.margin} rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900`}
        role="status"
        data-testid={form.sent.testId}
      >
        {form.sent.message}
      </p>
    );
  return (
    <Form
      method="post"
      noValidate
      className={`${form.margin} space-y-4`}
      ref={formRef}
      onSubmit={onSubmit}
      data-testid={form.testId}
    >
      {form.keepsRedirect ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      {form.intro ? <p className="text-sm text-slate-600">{form.intro}</p> : null}
      <FormError message={errors.form} />
      {form.fields.map(({ name, choosesPassword, ...field }) =>
        choosesPassword ? (
          <NewPasswordField key={name} name={name} {...field} error={errors[name]} />
        ) : (
          <TextField key={name} name={name} {...field} defaultValue={values[name]} error={errors[name]} />
        ),
      )}
      <SubmitButton intent={intent} {...form.submit} />
    </Form>
  );
}

/** One of the page's two halves (signing in, signing up), named by its heading. */
function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
      aria-labelledby={id}
    >
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** /user/login: sign in, ask for a password reset link, or create an account. */
export function SignInPage({
  redirectTo,
  resetLinkInvalid,
  reply,
}: {
  redirectTo: string;
  resetLinkInvalid: boolean;
  reply: SignInReply | undefined;
}) {
  const forgotOpen = resetLinkInvalid || reply?.intent === "forgot";

  return (
    <div>
      <PageHeader
        title="Sign in"
        intro="Your orders, licence keys and saved addresses in one place. New here? Creating an account takes a minute."
      />
      <div
        className="mx-auto grid max-w-5xl gap-8 px-4 py-10 md:grid-cols-2 md:items-start"
        data-testid="login-page"
      >
        <Panel id="sign-in-heading" title="Sign in to your account">
          <CredentialsForm intent="sign-in" reply={reply} redirectTo={redirectTo} />

          <details className="group mt-6 border-t border-slate-100 pt-4" open={forgotOpen}>
            <summary className="cursor-pointer text-sm font-semibold text-brand-700 hover:underline">
              Forgot your password?
            </summary>
            {resetLinkInvalid ? (
              <p
                className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
                role="alert"
              >
                {MESSAGES.resetInvalid}
              </p>
            ) : null}
            <CredentialsForm intent="forgot" reply={reply} redirectTo={redirectTo} />
          </details>
          <p className="mt-4 border-t border-slate-100 pt-4 text-sm text-slate-600">
            Ordered without an account?{" "}
            <Link to="/order/lookup" className="font-semibold text-brand-700 hover:underline">
              Find my order
            </Link>
          </p>
        </Panel>

        <Panel id="sign-up-heading" title="New here? Create an account">
          <p className="mt-2 text-sm text-slate-600">
            Check out faster with saved addresses, and find every licence key again later.
          </p>
          <CredentialsForm intent="sign-up" reply={reply} redirectTo={redirectTo} />
        </Panel>
      </div>
    </div>
  );
}
