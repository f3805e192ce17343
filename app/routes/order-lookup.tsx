import { data, Form, redirect } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { orderPath } from "~/modules/orders/access.server";
import { findOrderByNumberAndEmail } from "~/modules/orders/orders.server";
import { orderLookupSchema } from "~/modules/orders/schemas";
import { TextField } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/order-lookup";

export const meta: Route.MetaFunction = () => [
  { title: "Find your order" },
  { name: "robots", content: "noindex" },
];

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  const form = body.ok ? body.values : {};
  // The page shows the fields again, never more than they hold: the post itself is not echoed.
  const values = { number: (form.number ?? "").slice(0, 20), email: (form.email ?? "").slice(0, 254) };
  const parsed = orderLookupSchema.safeParse(form);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values }, { status: 400 });
  const found = await findOrderByNumberAndEmail(context.db, parsed.data.number, parsed.data.email);
  if (!found) {
    return data(
      { errors: { form: "We could not find an order with that number and e-mail address." }, values },
      { status: 404 },
    );
  }
  return redirect(orderPath(context.env.AUTH_SECRET, found.number));
}

export default function OrderLookup({ actionData }: Route.ComponentProps) {
  const errors: FieldErrors = actionData?.errors ?? {};
  const values: Partial<Record<string, string>> = actionData?.values ?? {};
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
          autoComplete="email"
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
