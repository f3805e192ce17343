import { redirect } from "react-router";
import { refusal, success } from "~/lib/action-reply";
import { readFormBody } from "~/lib/form-data.server";
import { fieldErrors } from "~/lib/forms";
import { type SignInAnswer, SignInPage } from "~/modules/accounts/components/sign-in-page";
import { forgotPasswordSchema, safeRedirect, signInSchema, signUpSchema } from "~/modules/accounts/schemas";
import { getViewer, PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { requestPasswordReset, signIn, signUp } from "~/modules/accounts/sign-in.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.login";

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

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) {
    return refusal<SignInAnswer>(400, {
      intent: "sign-in",
      errors: { form: "The form could not be read: reload the page and try again" },
    });
  }
  const values = body.values;
  const intent = values.intent;
  // What to show again in the form: never a password.
  const kept = { email: values.email ?? "", name: values.name ?? "" };

  if (intent === "sign-in") {
    const parsed = signInSchema.safeParse(values);
    if (!parsed.success)
      return refusal<SignInAnswer>(400, { intent, errors: fieldErrors(parsed.error), values: kept });
    const result = await signIn(context, request, parsed.data);
    if (!result.ok)
      return refusal<SignInAnswer>(result.status, { intent, errors: result.errors, values: kept });
    return redirect(parsed.data.redirectTo, { headers: result.headers });
  }
  if (intent === "sign-up") {
    const parsed = signUpSchema.safeParse(values);
    if (!parsed.success)
      return refusal<SignInAnswer>(400, { intent, errors: fieldErrors(parsed.error), values: kept });
    const result = await signUp(context, request, parsed.data);
    if (!result.ok)
      return refusal<SignInAnswer>(result.status, { intent, errors: result.errors, values: kept });
    // The same answer whether or not the address had an account: the e-mail tells its owner which.
    return success<SignInAnswer>({ intent, errors: {}, sent: true });
  }
  if (intent === "forgot") {
    const parsed = forgotPasswordSchema.safeParse(values);
    if (!parsed.success)
      return refusal<SignInAnswer>(400, { intent, errors: fieldErrors(parsed.error), values: kept });
    const result = await requestPasswordReset(context, request, parsed.data.email);
    if (!result.ok)
      return refusal<SignInAnswer>(result.status, { intent, errors: result.errors, values: kept });
    return success<SignInAnswer>({ intent, errors: {}, values: kept, sent: true });
  }
  return refusal<SignInAnswer>(400, {
    intent: "sign-in",
    errors: { form: "Choose sign in or create an account" },
  });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SignInPage
      redirectTo={loaderData.redirectTo}
      resetLinkInvalid={loaderData.resetLinkInvalid}
      reply={actionData}
    />
  );
}
