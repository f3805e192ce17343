import { Form, redirect, useNavigation } from "react-router";
import { refusal, success } from "~/lib/action-reply";
import { clientAddress } from "~/lib/client-address";
import { readFormBody } from "~/lib/form-data.server";
import { headersWithRetryAfter } from "~/lib/limit-headers";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { emailGuestOrderLink, findGuestOrder } from "~/modules/orders/lookup.server";
import { ordersContext } from "~/modules/orders/orders.server";
import { orderLookupSchema } from "~/modules/orders/schemas";
import { TextField } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/order-lookup";

export const headers = headersWithRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

/** The order number a retired link's page passes on fills the form in. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const number = url.searchParams.get("number") ?? "";
  return {
    number: /^\d{1,10}$/.test(number) ? number : "",
    seo: await seoForPath(context, url.pathname, {
      page: {
        title: "Find your order",
        description: "Open your order with its number and the e-mail address you used at checkout.",
      },
    }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  const form = body.ok ? body.values : {};
  // Only what the form shows is sent back, and only as much of it as fits the fields.
  const values = { number: (form.number ?? "").slice(0, 20), email: (form.email ?? "").slice(0, 254) };
  if (!body.ok)
    return refusal(400, { message: "The form could not be read: reload the page and try again.", values });
  const parsed = orderLookupSchema.safeParse(form);
  if (!parsed.success) return refusal(400, { errors: fieldErrors(parsed.error), values });
  const client = clientAddress(request);
  const result =
    form.intent === "email-link"
      ? await emailGuestOrderLink(await ordersContext(context), client, parsed.data)
      : await findGuestOrder(context, client, parsed.data);
  if (!result.ok)
    return refusal(
      result.status,
      { message: result.message, values },
      retryAfterHeaders(result.retryAfterSeconds),
    );
  if ("path" in result) return redirect(result.path);
  return success({ message: result.message, values });
}

export default function OrderLookup({ loaderData, actionData }: Route.ComponentProps) {
  const errors: FieldErrors = actionData?.errors ?? {};
  const formError = actionData?.ok === false ? actionData.message : undefined;
  const sent = actionData?.ok ? actionData.message : undefined;
  const values = actionData?.values ?? { number: loaderData.number, email: "" };
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div>
      <PageHeader
        title="Find your order"
        intro="Enter your order number and the e-mail address you used at checkout. Lost the link to your order, or want the old one to stop working? We e-mail you a new one."
      />
      <Form method="post" noValidate className="mx-auto max-w-md space-y-4 px-4 py-10">
        {formError ? (
          <p
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
            role="alert"
            data-testid="lookup-error"
          >
            {formError}
          </p>
        ) : null}
        {sent ? (
          <p
            className="rounded-lg border border-green-300 bg-green-50 p-3 text-sm text-green-900"
            role="status"
            data-testid="lookup-sent"
          >
            {sent}
          </p>
        ) : null}
        <TextField
          label="Order number"
          name="number"
          inputMode="numeric"
          defaultValue={values.number}
          error={errors.number}
          hint="Like 1002 or #1002"
        />
        <TextField
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={values.email}
          error={errors.email}
        />
        <div className="flex flex-wrap gap-3">
          <button
            type="submit"
            name="intent"
            value="find"
            disabled={busy}
            className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
          >
            Find my order
          </button>
          <button
            type="submit"
            name="intent"
            value="email-link"
            disabled={busy}
            className="rounded-lg border border-slate-300 bg-white px-5 py-2.5 text-sm font-semibold text-ink-900 hover:bg-slate-50 disabled:text-slate-400"
          >
            E-mail me a new link
          </button>
        </div>
      </Form>
    </div>
  );
}
