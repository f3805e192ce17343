import { data, Form, redirect } from "react-router";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { orderPath } from "~/modules/orders/access.server";
import { findOrderByNumberAndEmail } from "~/modules/orders/orders.server";
import { orderLookupSchema } from "~/modules/orders/schemas";
import { TextField } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/order-lookup";

export async function loader({ context, request }: Route.LoaderArgs) {
  return {
    seo: await seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "Find your order",
        description: "Open your order with its number and the e-mail address you used at checkout.",
      },
    }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData?.seo),
  { name: "robots", content: "noindex" },
];

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = orderLookupSchema.safeParse(form);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values: form }, { status: 400 });
  const found = await findOrderByNumberAndEmail(context.db, parsed.data.number, parsed.data.email);
  if (!found) {
    return data(
      { errors: { form: "We could not find an order with that number and e-mail address." }, values: form },
      { status: 404 },
    );
  }
  return redirect(orderPath(context.env.AUTH_SECRET, found.number));
}

export default function OrderLookup({ actionData }: Route.ComponentProps) {
  const errors: FieldErrors = actionData?.errors ?? {};
  const values = (actionData?.values ?? {}) as Record<string, string>;
  return (
    <div>
      <PageHeader
        title="Find your order"
        intro="Enter your order number and the e-mail address you used at checkout."
      />
      <Form method="post" noValidate className="mx-auto max-w-md space-y-4 px-4 py-10">
        {errors.form ? (
          <p className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900" role="alert">
            {errors.form}
          </p>
        ) : null}
        <TextField
          label="Order number"
          name="number"
          inputMode="numeric"
          defaultValue={values.number}
          error={errors.number}
        />
        <TextField
          label="E-mail address"
          name="email"
          type="email"
          defaultValue={values.email}
          error={errors.email}
        />
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Find my order
        </button>
      </Form>
    </div>
  );
}
