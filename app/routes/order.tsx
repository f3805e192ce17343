import { useEffect } from "react";
import { data, redirect } from "react-router";
import { refusal, success } from "~/lib/action-reply";
import { cartStore, discountCodeStore } from "~/modules/cart/cart-store";
import { clearCheckoutDraft } from "~/modules/orders/checkout-draft";
import { clientAddress } from "~/lib/client-address";
import { readFormBody } from "~/lib/form-data.server";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { buyerAccess } from "~/modules/orders/buyer-access.server";
import { maskEmail, renewOrderLink, resendKeys } from "~/modules/orders/lookup.server";
import { ErasedOrder, RetiredLink } from "~/modules/orders/components/order-link";
import { type OrderPageReply, OrderScreen } from "~/modules/orders/components/order-page";
import { buyerOrderView } from "~/modules/orders/order-view";
import { orderForBuyer, ordersContext } from "~/modules/orders/orders.server";
import { CheckoutTooLateError, startStripeCheckout } from "~/modules/orders/stripe.server";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { NO_INDEX, pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/order";

/**
 * Only the buyer sees an order: with its current secret link (from the e-mails), or signed in to the account the
 * order belongs to. A link that a newer one replaced gets a page saying how to get the new one; anyone else gets
 * the same 404 as for an order that does not exist.
 */
async function authorizedOrder({ params, request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const access = await buyerAccess(request, context, params.number);
  if (access?.kind === "retired" || access?.kind === "erased")
    return { kind: "retired" as const, number: access.number, erased: access.kind === "erased" };
  const view = access ? await orderForBuyer(context, access.number) : null;
  if (!view) throw data(null, { status: 404, headers: PRIVATE_HEADERS });
  return { kind: "order" as const, view };
}

// An order page is personal, however it was opened: no shared cache may keep it.
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers(PRIVATE_HEADERS);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader(args: Route.LoaderArgs) {
  const access = await authorizedOrder(args);
  if (access.kind === "retired")
    return data(
      { retired: true as const, number: access.number, erased: access.erased },
      { status: 410, headers: PRIVATE_HEADERS },
    );
  const { view } = access;
  const url = new URL(args.request.url);
  const placed = url.searchParams.get("placed") === "1";
  const seo = await seoForPath(args.context, url.pathname, {
    page: {
      title: `Order #${view.order.number}`,
      description: "Your order's items, payment, delivery and licence keys.",
    },
  });
  return data(
    {
      retired: false as const,
      seo,
      placed,
      stripeEnabled: Boolean(args.context.env.STRIPE_SECRET_KEY && args.context.env.STRIPE_WEBHOOK_SECRET),
      order: buyerOrderView(view),
      // The key of the link this page was opened with, for the documents' links (signed in, there is none).
      documentKey: url.searchParams.get("key"),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...(loaderData && !loaderData.retired
    ? pageMeta(loaderData.seo)
    : [{ title: loaderData ? "This order link no longer works" : "Order" }]),
  NO_INDEX,
];

/** What the buyer may ask of their order page, each limited: a new link (older ones stop working), the keys again. */
const BUYER_REQUESTS = {
  "new-link": { send: renewOrderLink, sentTo: "linkSentTo" },
  "keys-again": { send: resendKeys, sentTo: "keysSentTo" },
} as const;

/** Pay again by card for an order still waiting for payment, or e-mail a new link and retire this one. */
export async function action(args: Route.ActionArgs) {
  const access = await authorizedOrder(args);
  if (access.kind === "retired")
    return refusal<OrderPageReply>(
      410,
      {
        message: access.erased
          ? "This link no longer works: the order was placed from an account that has since been deleted."
          : "This link no longer works: use the newest link we e-mailed you.",
      },
      PRIVATE_HEADERS,
    );
  const { view } = access;
  const body = await readFormBody(args.request);
  const intent = body.ok ? body.values.intent : undefined;
  if (intent === "new-link" || intent === "keys-again") {
    const { send, sentTo } = BUYER_REQUESTS[intent];
    const sent = await send(
      await ordersContext(args.context),
      clientAddress(args.request),
      view.order.number,
    );
    if (!sent.ok)
      return refusal<OrderPageReply>(
        sent.status,
        { message: sent.message, intent },
        { ...PRIVATE_HEADERS, ...retryAfterHeaders(sent.retryAfterSeconds) },
      );
    return success<OrderPageReply>({ intent, [sentTo]: maskEmail(sent.sentTo) }, PRIVATE_HEADERS);
  }
  if (view.order.status !== "pending_payment" || view.order.paymentMethod !== "stripe") {
    return refusal<OrderPageReply>(400, { message: "This order is not waiting for a card payment." });
  }
  try {
    return redirect(await startStripeCheckout(await ordersContext(args.context), view.order.id));
  } catch (error) {
    if (error instanceof CheckoutTooLateError)
      return refusal<OrderPageReply>(409, {
        message:
          "This order expires unpaid in a few minutes, too soon to pay it by card: place the order again to pay for it.",
      });
    args.context.logger.error({ err: error }, "could not restart a Stripe checkout");
    return refusal<OrderPageReply>(502, {
      message: "Card payment could not be started. Please try again in a moment.",
    });
  }
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const placed = !loaderData.retired && loaderData.placed;
  // The order is stored: only now does the cart empty.
  useEffect(() => {
    if (placed) {
      cartStore.set([]);
      discountCodeStore.set("");
      clearCheckoutDraft();
    }
  }, [placed]);
  const reply = actionData as OrderPageReply | undefined;
  if (loaderData.retired)
    return loaderData.erased ? (
      <ErasedOrder number={loaderData.number} />
    ) : (
      <RetiredLink number={loaderData.number} sentTo={reply?.linkSentTo} />
    );
  return (
    <OrderScreen
      order={loaderData.order}
      placed={placed}
      stripeEnabled={loaderData.stripeEnabled}
      documentKey={loaderData.documentKey}
      reply={reply}
    />
  );
}
