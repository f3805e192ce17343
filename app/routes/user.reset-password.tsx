import { useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { refusal } from "~/lib/action-reply";
import { readFormBody } from "~/lib/form-data.server";
import { checkForm, type FieldErrors, fieldErrors } from "~/lib/forms";
import { flashCookie } from "~/modules/accounts/flash";
import { resetPasswordSchema } from "~/modules/accounts/schemas";
import { NewPasswordField } from "~/modules/accounts/components/new-password-field";
import { MESSAGES } from "~/modules/accounts/messages";
import { resetPassword } from "~/modules/accounts/sign-in.server";
import { TextField } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.reset-password";

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  return {
    token,
    invalid: url.searchParams.get("error") === "INVALID_TOKEN" || token === "",
    seo: await seoForPath(context, url.pathname, {
      page: { title: "Choose a new password", description: "Set a new password for your account." },
    }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) return refusal(400, { errors: { form: "The form could not be read: reload the page" } });
  const parsed = resetPasswordSchema.safeParse(body.values);
  if (!parsed.success) return refusal(400, { errors: fieldErrors(parsed.error) });
  const result = await resetPassword(context, request, parsed.data.token, parsed.data.password);
  if (!result.ok) return refusal(result.status, { errors: result.errors });
  return redirect("/user/login", {
    headers: { "Set-Cookie": flashCookie(["password-reset"], context.env.PUBLIC_URL.startsWith("https://")) },
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors: FieldErrors = clientErrors ?? actionData?.errors ?? {};
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div>
      <PageHeader title="Choose a new password" />
      <section className="mx-auto max-w-md px-4 py-10" data-testid="reset-page">
        {loaderData.invalid ? (
          <div className="rounded-2xl border border-amber-300 bg-amber-50 p-6 text-amber-900" role="alert">
            <p>{MESSAGES.resetInvalid}</p>
            <Link to="/user/login" className="mt-3 inline-block font-semibold underline">
              Ask for a new link
            </Link>
          </div>
        ) : (
          <Form
            method="post"
            noValidate
            className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            onSubmit={(event) => {
              const values = Object.fromEntries(
                [...new FormData(event.currentTarget).entries()].filter(
                  (entry): entry is [string, string] => typeof entry[1] === "string",
                ),
              );
              const found = checkForm(resetPasswordSchema, values);
              setClientErrors(found);
              if (found) event.preventDefault();
            }}
          >
            <input type="hidden" name="token" value={loaderData.token} />
            {errors.form || errors.token ? (
              <p
                className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
                role="alert"
                data-testid="form-error"
              >
                {errors.form ?? errors.token}{" "}
                <Link to="/user/login" className="font-semibold underline">
                  Ask for a new link
                </Link>
              </p>
            ) : null}
            <NewPasswordField label="New password" name="password" error={errors.password} />
            <TextField
              label="Repeat the new password"
              name="confirm"
              type="password"
              autoComplete="new-password"
              error={errors.confirm}
            />
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
            >
              {busy ? "Saving…" : "Save the new password"}
            </button>
            <p className="text-xs text-slate-500">Every device signed in to your account is signed out.</p>
          </Form>
        )}
      </section>
    </div>
  );
}
