import { data, Form, Link, redirect, useNavigation } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import {
  forgotPasswordSchema,
  MIN_PASSWORD,
  safeRedirect,
  signInSchema,
  signUpSchema,
} from "~/modules/accounts/schemas";
import { getViewer, PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { MESSAGES } from "~/modules/accounts/messages";
import { requestPasswordReset, signIn, signUp } from "~/modules/accounts/sign-in.server";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { TextField } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { useFormCheck } from "~/lib/use-form-check";
import type { Route } from "./+types/user.login";

type Intent = "sign-in" | "sign-up" | "forgot";

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  // Already signed in: straight on to where they were going.
  if (await getViewer(request, context)) throw redirect(redirectTo, { headers: PRIVATE_HEADERS });
  return {
    seo: await seoForPath(context, url.pathname, {
      page: {
        title: "Sign in",
        description: "Sign in to your account, or create one, to see your orders and licence keys.",
      },
    }),
    redirectTo,
    resetLinkInvalid: url.searchParams.get("error") === "INVALID_TOKEN",
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData?.seo),
  { name: "robots", content: "noindex" },
];

type Reply = {
  intent: Intent;
  errors: FieldErrors;
  values?: Record<string, string>;
  sent?: boolean;
};

const reply = (body: Reply, status: number) => data(body, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) {
    return reply(
      { intent: "sign-in", errors: { form: "The form could not be read: reload the page and try again" } },
      400,
    );
  }
  const values = body.values;
  const intent = values.intent;
  // What to show again in the form: never a password.
  const kept = { email: values.email ?? "", name: values.name ?? "" };

  if (intent === "sign-in") {
    const parsed = signInSchema.safeParse(values);
    if (!parsed.success) return reply({ intent, errors: fieldErrors(parsed.error), values: kept }, 400);
    const result = await signIn(context, request, parsed.data);
    if (!result.ok) return reply({ intent, errors: result.errors, values: kept }, result.status);
    return redirect(parsed.data.redirectTo, { headers: result.headers });
  }
  if (intent === "sign-up") {
    const parsed = signUpSchema.safeParse(values);
    if (!parsed.success) return reply({ intent, errors: fieldErrors(parsed.error), values: kept }, 400);
    const result = await signUp(context, request, parsed.data);
    if (!result.ok) return reply({ intent, errors: result.errors, values: kept }, result.status);
    // The same answer whether or not the address had an account: the e-mail tells its owner which.
    return reply({ intent, errors: {}, sent: true }, 200);
  }
  if (intent === "forgot") {
    const parsed = forgotPasswordSchema.safeParse(values);
    if (!parsed.success) return reply({ intent, errors: fieldErrors(parsed.error), values: kept }, 400);
    const result = await requestPasswordReset(context, request, parsed.data.email);
    if (!result.ok) return reply({ intent, errors: result.errors, values: kept }, result.status);
    return reply({ intent, errors: {}, values: kept, sent: true }, 200);
  }
  return reply({ intent: "sign-in", errors: { form: "Choose sign in or create an account" } }, 400);
}

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

function SubmitButton({ intent, label, busy }: { intent: Intent; label: string; busy: string }) {
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

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const server = (intent: Intent): FieldErrors => (actionData?.intent === intent ? actionData.errors : {});
  const values = (intent: Intent) => (actionData?.intent === intent ? (actionData.values ?? {}) : {});
  const {
    errors: signInErrors,
    onSubmit: checkSignIn,
    formRef: signInForm,
  } = useFormCheck(signInSchema, server("sign-in"));
  const {
    errors: signUpErrors,
    onSubmit: checkSignUp,
    formRef: signUpForm,
  } = useFormCheck(signUpSchema, server("sign-up"));
  const {
    errors: forgotErrors,
    onSubmit: checkForgot,
    formRef: forgotForm,
  } = useFormCheck(forgotPasswordSchema, server("forgot"));
  const forgotSent = actionData?.intent === "forgot" && actionData.sent;
  const signUpSent = actionData?.intent === "sign-up" && actionData.sent;
  const forgotOpen = loaderData.resetLinkInvalid || actionData?.intent === "forgot";

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
        <section
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          aria-labelledby="sign-in-heading"
        >
          <h2 id="sign-in-heading" className="text-xl font-bold">
            Sign in to your account
          </h2>
          <Form
            method="post"
            noValidate
            className="mt-6 space-y-4"
            ref={signInForm}
            onSubmit={checkSignIn}
            data-testid="sign-in-form"
          >
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
            <FormError message={signInErrors.form} />
            <TextField
              label="E-mail address"
              name="email"
              type="email"
              autoComplete="username"
              defaultValue={values("sign-in").email}
              error={signInErrors.email}
              id="sign-in-email"
            />
            <TextField
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              error={signInErrors.password}
              id="sign-in-password"
            />
            <SubmitButton intent="sign-in" label="Sign in" busy="Signing in…" />
          </Form>

          <details className="group mt-6 border-t border-slate-100 pt-4" open={forgotOpen}>
            <summary className="cursor-pointer text-sm font-semibold text-brand-700 hover:underline">
              Forgot your password?
            </summary>
            {loaderData.resetLinkInvalid ? (
              <p
                className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
                role="alert"
              >
                {MESSAGES.resetInvalid}
              </p>
            ) : null}
            {forgotSent ? (
              <p
                className="mt-3 rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900"
                role="status"
                data-testid="reset-sent"
              >
                {MESSAGES.resetSent}
              </p>
            ) : (
              <Form
                method="post"
                noValidate
                className="mt-3 space-y-4"
                ref={forgotForm}
                onSubmit={checkForgot}
                data-testid="forgot-form"
              >
                <p className="text-sm text-slate-600">We will e-mail you a link to choose a new password.</p>
                <FormError message={forgotErrors.form} />
                <TextField
                  label="E-mail address"
                  name="email"
                  type="email"
                  autoComplete="email"
                  defaultValue={values("forgot").email}
                  error={forgotErrors.email}
                  id="forgot-email"
                />
                <SubmitButton intent="forgot" label="Send me a link" busy="Sending…" />
              </Form>
            )}
          </details>
          <p className="mt-4 border-t border-slate-100 pt-4 text-sm text-slate-600">
            Ordered without an account?{" "}
            <Link to="/order/lookup" className="font-semibold text-brand-700 hover:underline">
              Find my order
            </Link>
          </p>
        </section>

        <section
          className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          aria-labelledby="sign-up-heading"
        >
          <h2 id="sign-up-heading" className="text-xl font-bold">
            New here? Create an account
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            Check out faster with saved addresses, and find every licence key again later.
          </p>
          {signUpSent ? (
            <p
              className="mt-6 rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900"
              role="status"
              data-testid="sign-up-sent"
            >
              {MESSAGES.signUpSent}
            </p>
          ) : (
            <Form
              method="post"
              noValidate
              className="mt-6 space-y-4"
              ref={signUpForm}
              onSubmit={checkSignUp}
              data-testid="sign-up-form"
            >
              <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
              <FormError message={signUpErrors.form} />
              <TextField
                label="Your name"
                name="name"
                autoComplete="name"
                defaultValue={values("sign-up").name}
                error={signUpErrors.name}
                id="sign-up-name"
              />
              <TextField
                label="E-mail address"
                name="email"
                type="email"
                autoComplete="email"
                defaultValue={values("sign-up").email}
                error={signUpErrors.email}
                id="sign-up-email"
              />
              <TextField
                label="Choose a password"
                name="password"
                type="password"
                autoComplete="new-password"
                hint={`At least ${MIN_PASSWORD} characters.`}
                error={signUpErrors.password}
                id="sign-up-password"
              />
              <SubmitButton intent="sign-up" label="Create my account" busy="Creating your account…" />
            </Form>
          )}
        </section>
      </div>
    </div>
  );
}
