import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { formatMoney } from "~/lib/money";
import { OrderTotals } from "~/modules/orders/components/order-totals";
import { LineAdjustments } from "~/modules/orders/components/line-adjustments";
import { cartStore, discountCodeStore } from "~/modules/cart/cart-store";
import { clearCheckoutDraft } from "~/modules/orders/checkout-draft";
import { clientAddress } from "~/lib/client-address";
import { readFormBody } from "~/lib/form-data.server";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { buyerAccess } from "~/modules/orders/buyer-access.server";
import { orderDocuments } from "~/modules/orders/invoices.server";
import { maskEmail, renewOrderLink, resendKeys } from "~/modules/orders/lookup.server";
import { KeysAgain, LineDelivery, StoreNote } from "~/modules/orders/components/order-life";
import { OrderDocuments } from "~/modules/orders/components/order-documents";
import { orderForBuyer, ordersContext } from "~/modules/orders/orders.server";
import { CheckoutTooLateError, startStripeCheckout } from "~/modules/orders/stripe.server";
import { ORDER_STATUS_LABELS } from "~/modules/orders/labels";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import type { Address } from "~db/schema/orders";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { PostalAddress } from "~/ui/postal-address";
import type { Route } from "./+types/order";

const STATUS_LABELS = ORDER_STATUS_LABELS;

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
      order: {
        number: view.order.number,
        status: view.order.status,
        cancelReason: view.order.cancelReason,
        paymentMethod: view.order.paymentMethod,
        email: view.order.email,
        createdAt: view.order.createdAt.toISOString(),
        subtotalCents: view.order.subtotalCents,
        shippingCents: view.order.shippingCents,
        totalCents: view.order.totalCents,
        discountCode: view.order.discountCode,
        discountCents: view.order.discountCents,
        taxes: view.order.taxBreakdown,
        taxCents: view.order.taxCents,
        pricesIncludeTax: view.order.pricesIncludeTax,
        buyerTaxId: view.order.buyerTaxId,
        awaitingKeys: view.order.awaitingKeys,
        refundedCents: view.order.refundedCents,
        customerNote: view.order.customerNote,
        billingAddress: view.order.billingAddress,
        shippingAddress: view.order.shippingAddress,
      },
      lines: view.lines.map((line) => ({
        id: line.id,
        name: line.name,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        lineTotalCents: line.lineTotalCents,
        discountCents: line.discountCents,
        taxes: line.taxes,
        kind: line.kind,
        keys: line.keys,
        state: line.state,
        shipment: line.shipment,
      })),
      events: view.events.map((event) => ({
        message: event.message || EVENT_LABELS[event.type] || "Order updated",
        createdAt: event.createdAt.toISOString(),
      })),
      bankTransfer: view.bankTransfer,
      documents: await orderDocuments(args.context.db, view.order.id),
      invoiceDue: view.order.paidAt !== null,
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
  { name: "robots", content: "noindex" },
];

type ActionReply = { error?: string; intent?: string; linkSentTo?: string; keysSentTo?: string };

/** Pay again by card for an order still waiting for payment, or e-mail a new link and retire this one. */
export async function action(args: Route.ActionArgs) {
  const access = await authorizedOrder(args);
  if (access.kind === "retired")
    return data<ActionReply>(
      {
        error: access.erased
          ? "This link no longer works: the order was placed from an account that has since been deleted."
          : "This link no longer works: use the newest link we e-mailed you.",
      },
      { status: 410, headers: PRIVATE_HEADERS },
    );
  const { view } = access;
  const body = await readFormBody(args.request);
  if (body.ok && body.values.intent === "new-link") {
    const sent = await renewOrderLink(
      await ordersContext(args.context),
      clientAddress(args.request),
      view.order.number,
    );
    if (!sent.ok)
      return data<ActionReply>(
        { error: sent.message },
        {
          status: sent.status,
          headers: { ...PRIVATE_HEADERS, ...retryAfterHeaders(sent.retryAfterSeconds) },
        },
      );
    return data<ActionReply>({ linkSentTo: maskEmail(sent.sentTo) }, { headers: PRIVATE_HEADERS });
  }
  if (body.ok && body.values.intent === "keys-again") {
    const sent = await resendKeys(
      await ordersContext(args.context),
      clientAddress(args.request),
      view.order.number,
    );
    if (!sent.ok)
      return data<ActionReply>(
        { error: sent.message, intent: "keys-again" },
        {
          status: sent.status,
          headers: { ...PRIVATE_HEADERS, ...retryAfterHeaders(sent.retryAfterSeconds) },
        },
      );
    return data<ActionReply>({ keysSentTo: maskEmail(sent.sentTo) }, { headers: PRIVATE_HEADERS });
  }
  if (view.order.status !== "pending_payment" || view.order.paymentMethod !== "stripe") {
    return data<ActionReply>({ error: "This order is not waiting for a card payment." }, { status: 400 });
  }
  try {
    return redirect(await startStripeCheckout(await ordersContext(args.context), view.order.id));
  } catch (error) {
    if (error instanceof CheckoutTooLateError)
      return data<ActionReply>(
        {
          error:
            "This order expires unpaid in a few minutes, too soon to pay it by card: place the order again to pay for it.",
        },
        { status: 409 },
      );
    args.context.logger.error({ err: error }, "could not restart a Stripe checkout");
    return data<ActionReply>(
      { error: "Card payment could not be started. Please try again in a moment." },
      { status: 502 },
    );
  }
}

/** What a history entry without a message of its own says. */
const EVENT_LABELS: Record<string, string> = {
  placed: "Order placed",
  paid: "Payment received",
  keys_delivered: "Licence keys delivered",
  keys_waiting: "Licence keys to follow by e-mail",
  shipped: "Shipped",
  fulfilled: "Everything delivered",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
  refunded: "Refunded",
  keys_resent: "Licence keys e-mailed again",
  claimed: "Added to the customer's account",
  link_renewed: "A new link to this order was e-mailed",
};

/** The page an old order link opens: it says why it no longer works and how to get the current one. */
function RetiredLink({ number, sentTo }: { number: number; sentTo?: string }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center" data-testid="order-link-retired">
      {sentTo ? (
        <p
          className="mb-6 rounded-xl border border-green-300 bg-green-50 p-4 text-green-900"
          role="status"
          data-testid="order-link-sent"
        >
          We sent a new link to {sentTo}. This one no longer works.
        </p>
      ) : null}
      <h1 className="text-3xl font-extrabold tracking-tight">This order link no longer works</h1>
      <p className="mt-4 text-slate-600">
        A newer link to order #{number} was e-mailed to the address the order was placed with, and older links
        stop working when that happens. Open the newest e-mail about your order, or find the order with its
        number and your e-mail address and we send you a new link.
      </p>
      <Link
        to={`/order/lookup?number=${number}`}
        className="mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
      >
        Get a new link
      </Link>
    </section>
  );
}

/** An old link to an order whose customer deleted their account: no new link can reach them. */
function ErasedOrder({ number }: { number: number }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center" data-testid="order-link-erased">
      <h1 className="text-3xl font-extrabold tracking-tight">This order link no longer works</h1>
      <p className="mt-4 text-slate-600">
        Order #{number} was placed from an account that has since been deleted, and its personal details went
        with it: its links stopped working then, and we cannot send a new one. For anything about this order,
        write to us with its number.
      </p>
      <Link
        to="/contact"
        className="mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
      >
        Contact us
      </Link>
    </section>
  );
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
  const reply = actionData as ActionReply | undefined;
  const navigation = useNavigation();
  if (loaderData.retired)
    return loaderData.erased ? (
      <ErasedOrder number={loaderData.number} />
    ) : (
      <RetiredLink number={loaderData.number} sentTo={reply?.linkSentTo} />
    );
  const { order, lines, events, bankTransfer, documents, invoiceDue, documentKey } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10" data-testid="order-page" data-status={order.status}>
      {placed ? (
        <p className="mb-6 rounded-xl border border-green-300 bg-green-50 p-4 text-green-900" role="status">
          Thank you! Your order is placed. A confirmation is on its way to {order.email}.
        </p>
      ) : null}
      <div className="flex flex-wrap items-baseline justify-between gap-4">
        <h1 className="text-3xl font-extrabold tracking-tight">Order #{order.number}</h1>
        <span
          className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold"
          data-testid="order-status"
        >
          {STATUS_LABELS[order.status] ?? order.status}
        </span>
      </div>
      {order.status === "cancelled" && order.cancelReason ? (
        <p className="mt-2 text-sm font-medium text-ink-900" data-testid="cancel-reason">
          {order.cancelReason}.
        </p>
      ) : null}
      <p className="mt-2 text-sm text-slate-600">
        Placed{" "}
        {new Date(order.createdAt).toLocaleString("en-US", {
          dateStyle: "long",
          timeStyle: "short",
          timeZone: "UTC",
        })}{" "}
        UTC · {order.email}
      </p>

      {bankTransfer ? (
        <section
          className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-5"
          data-testid="bank-instructions"
        >
          <h2 className="font-bold text-amber-900">How to pay by bank transfer</h2>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm text-amber-900 sm:grid-cols-[auto_1fr]">
            {bankTransfer.details.map(({ label, value }) => (
              <div key={label} className="contents">
                <dt className="font-semibold">{label}</dt>
                <dd className="break-all" data-testid={`bank-${label.toLowerCase().replace(/ /g, "-")}`}>
                  {value}
                </dd>
              </div>
            ))}
            <dt className="font-semibold">Amount</dt>
            <dd>{formatMoney(order.totalCents)}</dd>
          </dl>
          {bankTransfer.note ? <p className="mt-2 text-sm text-amber-900">{bankTransfer.note}</p> : null}
        </section>
      ) : null}
      {order.status === "pending_payment" && order.paymentMethod === "stripe" && loaderData.stripeEnabled ? (
        <Form method="post" className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
          <p className="text-sm">This order is waiting for its card payment.</p>
          {reply?.error ? (
            <p className="mt-2 text-sm text-red-700" role="alert">
              {reply.error}
            </p>
          ) : null}
          <button
            type="submit"
            className="mt-3 rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Pay now
          </button>
        </Form>
      ) : null}
      <StoreNote note={order.customerNote} />
      {order.awaitingKeys > 0 ? (
        <p
          className="mt-6 rounded-xl border border-slate-300 bg-white p-4 text-sm"
          data-testid="awaiting-keys"
        >
          Your payment is in. {order.awaitingKeys} licence key{order.awaitingKeys > 1 ? "s are" : " is"} being
          prepared: we e-mail
          {order.awaitingKeys > 1 ? " them" : " it"} to you shortly.
        </p>
      ) : null}

      <section className="mt-8 rounded-2xl border border-slate-200 bg-white" aria-labelledby="items-heading">
        <h2 id="items-heading" className="border-b border-slate-200 px-5 py-3 font-bold">
          Items
        </h2>
        <ul className="divide-y divide-slate-200">
          {lines.map((line) => (
            <li key={line.id} className="px-5 py-4" data-testid="order-line">
              <div className="flex justify-between gap-4">
                <span>
                  {line.quantity} × <span className="font-semibold">{line.name}</span>{" "}
                  <span className="text-sm text-slate-500">at {formatMoney(line.unitPriceCents)}</span>
                </span>
                {/* Up to half the line: room for a tax and its amount on one line beside a long name. */}
                <span className="max-w-[50%] shrink-0 text-right font-semibold">
                  <span data-testid="order-line-total">{formatMoney(line.lineTotalCents)}</span>
                  <LineAdjustments
                    line={line}
                    pricesIncludeTax={order.pricesIncludeTax}
                    prefix="order-line"
                  />
                </span>
              </div>
              {line.kind === "software" && line.keys.length > 0 ? (
                <div className="mt-3">
                  <p className="text-sm font-medium text-slate-600">
                    Licence key{line.keys.length > 1 ? "s" : ""}
                  </p>
                  <ul className="mt-1 space-y-1">
                    {line.keys.map((key) => (
                      <li key={key}>
                        <code
                          className="rounded bg-brand-50 px-2 py-1 font-mono text-sm text-ink-900"
                          data-testid="licence-key"
                        >
                          {key}
                        </code>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <LineDelivery line={line} orderStatus={order.status} />
            </li>
          ))}
        </ul>
        <div className="border-t border-slate-200 px-5 py-4">
          <OrderTotals prefix="order" totals={order} className="space-y-1 text-sm" />
          {order.buyerTaxId ? (
            <p className="mt-2 text-sm text-slate-600" data-testid="order-buyer-tax-id">
              Your tax ID: {order.buyerTaxId}
            </p>
          ) : null}
        </div>
      </section>

      {documents.length > 0 || invoiceDue ? (
        <section
          className="mt-8 rounded-2xl border border-slate-200 bg-white px-5 py-3"
          aria-labelledby="documents-heading"
        >
          <h2 id="documents-heading" className="font-bold">
            Invoice{documents.some((document) => document.kind === "credit_note") ? " and credit notes" : ""}
          </h2>
          <OrderDocuments
            documents={documents}
            invoiceDue={invoiceDue}
            href={(file) =>
              `/order/${order.number}/documents/${file}${documentKey ? `?key=${encodeURIComponent(documentKey)}` : ""}`
            }
            className="mt-1"
          />
        </section>
      ) : null}

      <div className="mt-8 grid gap-6 sm:grid-cols-2">
        <AddressBlock title="Billing address" address={order.billingAddress} testId="order-billing-address" />
        {order.shippingAddress ? (
          <AddressBlock
            title="Shipping address"
            address={order.shippingAddress}
            testId="order-shipping-address"
          />
        ) : null}
      </div>

      <section className="mt-8" aria-labelledby="history-heading">
        <h2 id="history-heading" className="font-bold">
          History
        </h2>
        <ol className="mt-3 space-y-2 text-sm">
          {events.map((event, index) => (
            <li key={index} className="flex gap-3">
              <time className="w-44 shrink-0 text-slate-500" dateTime={event.createdAt}>
                {new Date(event.createdAt).toLocaleString("en-US", {
                  dateStyle: "medium",
                  timeStyle: "short",
                  timeZone: "UTC",
                })}
              </time>
              <span>{event.message}</span>
            </li>
          ))}
        </ol>
      </section>
      {lines.some((line) => line.keys.length > 0) ? (
        <KeysAgain
          email={order.email}
          sentTo={reply?.keysSentTo}
          error={reply?.intent === "keys-again" ? reply.error : undefined}
        />
      ) : null}
      <section
        className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 text-sm"
        aria-labelledby="link-heading"
        data-testid="order-link"
      >
        <h2 id="link-heading" className="font-bold">
          The link to this order
        </h2>
        <p className="mt-2 text-slate-600">
          Anyone with the link from your e-mails can see this order and its licence keys. Forwarded it by
          mistake? Ask for a new link: we e-mail it to {order.email}, and every older link stops working.
        </p>
        {reply?.linkSentTo ? (
          <p className="mt-3 font-semibold text-green-800" role="status" data-testid="order-link-sent">
            We sent a new link to {reply.linkSentTo}. Older links no longer work.
          </p>
        ) : (
          <Form method="post" className="mt-3">
            <button
              type="submit"
              name="intent"
              value="new-link"
              disabled={navigation.state === "submitting"}
              className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-ink-900 hover:bg-slate-50 disabled:text-slate-400"
            >
              E-mail me a new link
            </button>
          </Form>
        )}
      </section>
      <p className="mt-10 text-sm">
        <Link to="/" className="font-semibold text-brand-700 hover:underline">
          Continue shopping
        </Link>
      </p>
    </div>
  );
}

function AddressBlock({ title, address, testId }: { title: string; address: Address; testId: string }) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 text-sm">
      <h2 className="font-bold">{title}</h2>
      <PostalAddress
        address={address}
        name={address.name}
        className="mt-2 not-italic text-slate-700"
        testId={testId}
      />
    </section>
  );
}
