import type { ActionReply } from "~/lib/action-reply";
import { Form, Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { PostalAddress } from "~/ui/postal-address";
import type { Address } from "~db/schema/orders";
import type { BuyerOrderView } from "../order-view";
import { OrderDocuments } from "./order-documents";
import { OrderItems } from "./order-items";
import { KeysAgain, OrderLinkSection, StoreNote } from "./order-life";

/** What the order page's own requests answer: an error, or where a new link or the keys went. */
/** What the order page's requests answer: a refusal's message, or where the new link or the keys went. */
export type OrderPageReply = ActionReply<{ linkSentTo?: string; keysSentTo?: string }>;

/**
 * The buyer's order page: status, how to pay what is still due, the items with their keys and delivery, the
 * invoice and credit notes, the addresses, the history, and the requests the buyer can make (keys again, a new link).
 */
export function OrderScreen({
  order,
  placed,
  stripeEnabled,
  documentKey,
  reply,
}: {
  order: BuyerOrderView;
  /** Opened right after checkout. */
  placed: boolean;
  stripeEnabled: boolean;
  /** The key of the link this page was opened with, for the documents' links (signed in, there is none). */
  documentKey: string | null;
  reply?: OrderPageReply;
}) {
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
          {order.statusLabel}
        </span>
      </div>
      {order.cancelReason ? (
        <p className="mt-2 text-sm font-medium text-ink-900" data-testid="cancel-reason">
          {order.cancelReason}.
        </p>
      ) : null}
      {/* A long e-mail address breaks rather than widen a phone's page. */}
      <p className="mt-2 break-words text-sm text-slate-600">
        Placed{" "}
        {new Date(order.placedAt).toLocaleString("en-US", {
          dateStyle: "long",
          timeStyle: "short",
          timeZone: "UTC",
        })}{" "}
        UTC · {order.email}
      </p>

      <BankInstructions order={order} />
      {order.status === "pending_payment" && order.paymentMethod === "stripe" && stripeEnabled ? (
        <Form method="post" className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
          <p className="text-sm">This order is waiting for its card payment.</p>
          {reply?.ok === false && !reply.intent ? (
            <p className="mt-2 text-sm text-red-700" role="alert">
              {reply.message}
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
      {order.heldCheckHours !== null ? (
        <p
          className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
          data-testid="order-held"
        >
          Your payment is in. We check some orders before delivering them, and are checking this one: expect
          your licence keys by e-mail within {order.heldCheckHours} hours (or, if we cannot approve the order,
          your money back).
        </p>
      ) : null}
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

      <OrderItems order={order} />

      {order.documents.length > 0 || order.invoiceDue ? (
        <section
          className="mt-8 rounded-2xl border border-slate-200 bg-white px-5 py-3"
          aria-labelledby="documents-heading"
        >
          <h2 id="documents-heading" className="font-bold">
            Invoice
            {order.documents.some((document) => document.kind === "credit_note") ? " and credit notes" : ""}
          </h2>
          <OrderDocuments
            documents={order.documents}
            currency={order.currency}
            invoiceDue={order.invoiceDue}
            href={(file) =>
              `/order/${order.number}/documents/${file}${documentKey ? `?key=${encodeURIComponent(documentKey)}` : ""}`
            }
            className="mt-1"
          />
        </section>
      ) : null}

      <div className="mt-8 grid gap-6 sm:grid-cols-2">
        <AddressCard title="Billing address" address={order.billingAddress} testId="order-billing-address" />
        {order.shippingAddress ? (
          <AddressCard
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
          {order.history.map((event, index) => (
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
      {order.hasKeys ? (
        <KeysAgain
          email={order.email}
          sentTo={reply?.keysSentTo}
          error={reply?.ok === false && reply.intent === "keys-again" ? reply.message : undefined}
        />
      ) : null}
      <OrderLinkSection
        email={order.email}
        sentTo={reply?.linkSentTo}
        error={reply?.ok === false && reply.intent === "new-link" ? reply.message : undefined}
      />
      <p className="mt-10 text-sm">
        <Link to="/" className="font-semibold text-brand-700 hover:underline">
          Continue shopping
        </Link>
      </p>
    </div>
  );
}

/** How to pay an order still waiting for its bank transfer: the store's details, the amount and its note. */
function BankInstructions({ order }: { order: BuyerOrderView }) {
  const bankTransfer = order.bankTransfer;
  if (!bankTransfer) return null;
  return (
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
        <dd>{formatMoney(order.totalCents, order.currency)}</dd>
      </dl>
      {bankTransfer.note ? <p className="mt-2 text-sm text-amber-900">{bankTransfer.note}</p> : null}
    </section>
  );
}

/** One of the order's addresses, as a card of its own. */
function AddressCard({ title, address, testId }: { title: string; address: Address; testId: string }) {
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
