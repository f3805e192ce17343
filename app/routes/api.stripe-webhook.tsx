import { ordersContext } from "~/modules/orders/orders.server";
import { handleStripeWebhook } from "~/modules/orders/stripe.server";
import type { Route } from "./+types/api.stripe-webhook";

export async function action({ request, context }: Route.ActionArgs) {
  const payload = await request.text();
  const result = await handleStripeWebhook(
    await ordersContext(context),
    payload,
    request.headers.get("stripe-signature"),
  );
  return Response.json(result.body, { status: result.status });
}
