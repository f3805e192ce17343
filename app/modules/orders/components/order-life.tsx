import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { LINE_STATE_LABELS, type LineState } from "../tracking";

type Line = {
  kind: string;
  state: LineState;
  keysWithdrawn: boolean;
  shipment: { carrier: string; trackingNumber: string; link: string | null } | null;
};

/** Where a line of the customer's order stands: awaiting shipment, shipped (with the tracking link), keys. */
export function LineDelivery({ line, orderStatus }: { line: Line; orderStatus: string }) {
  if (orderStatus === "pending_payment") {
    return line.kind === "physical" ? <p className="mt-2 text-sm text-slate-600">Ships once paid</p> : null;
  }
  const label = LINE_STATE_LABELS[line.state];
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="line-delivery" data-state={line.state}>
      <span className="font-semibold">
        {line.state === "keys to follow" ? "Keys to follow by e-mail" : label}
      </span>
      {line.state === "shipped" && line.shipment ? (
        <>
          {" "}
          with {line.shipment.carrier} · tracking number{" "}
          <span className="font-mono" data-testid="tracking-number">
            {line.shipment.trackingNumber}
          </span>
          {line.shipment.link ? (
            <>
              {" · "}
              <a
                href={line.shipment.link}
                className="font-semibold text-brand-700 underline"
                rel="noreferrer"
                data-testid="tracking-link"
              >
                Track your parcel
              </a>
            </>
          ) : null}
        </>
      ) : null}
      {line.state === "refunded" && line.keysWithdrawn ? (
        <span className="text-slate-600"> · its licence keys no longer work</span>
      ) : null}
    </p>
  );
}

/** A note the store left for the customer on this order. */
export function StoreNote({ note }: { note: string }) {
  if (!note) return null;
  return (
    <section
      className="mt-6 rounded-xl border border-sky-300 bg-sky-50 p-4 text-sm text-sky-950"
      aria-labelledby="store-note-heading"
      data-testid="customer-note"
    >
      <h2 id="store-note-heading" className="font-bold">
        A note from the store
      </h2>
      <p className="mt-1 whitespace-pre-wrap break-words">{note}</p>
    </section>
  );
}

/** Lost the e-mail with the keys? The buyer asks for them again (limited: a clear message when over). */
export function KeysAgain({ email, sentTo, error }: { email: string; sentTo?: string; error?: string }) {
  return (
    <RequestCard id="keys-again-heading" title="Lost your licence keys?" testId="keys-again">
      <p className="mt-2 text-slate-600">We can e-mail every key of this order again to {email}.</p>
      {sentTo ? (
        <p className="mt-3 font-semibold text-green-800" role="status" data-testid="keys-sent">
          We sent your licence keys to {sentTo}.
        </p>
      ) : null}
      {error ? (
        <p className="mt-3 font-semibold text-red-700" role="alert" data-testid="keys-again-error">
          {error}
        </p>
      ) : null}
      <RequestButton intent="keys-again">E-mail my keys again</RequestButton>
    </RequestCard>
  );
}

/** Forwarded the link by mistake? The buyer asks for a new one, and every older link stops working. */
export function OrderLinkSection({
  email,
  sentTo,
  error,
}: {
  email: string;
  sentTo?: string;
  error?: string;
}) {
  return (
    <RequestCard id="link-heading" title="The link to this order" testId="order-link">
      <p className="mt-2 text-slate-600">
        Anyone with the link from your e-mails can see this order and its licence keys. Forwarded it by
        mistake? Ask for a new link: we e-mail it to {email}, and every older link stops working.
      </p>
      {error ? (
        <p className="mt-3 font-semibold text-red-700" role="alert" data-testid="order-link-error">
          {error}
        </p>
      ) : null}
      {sentTo ? (
        <p className="mt-3 font-semibold text-green-800" role="status" data-testid="order-link-sent">
          We sent a new link to {sentTo}. Older links no longer work.
        </p>
      ) : (
        <RequestButton intent="new-link">E-mail me a new link</RequestButton>
      )}
    </RequestCard>
  );
}

/** The card of a request the buyer can make of their order page, under its heading. */
function RequestCard({
  id,
  title,
  testId,
  children,
}: {
  id: string;
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section
      // Its text names the buyer's e-mail address: a long one breaks rather than widen a phone's page.
      className="mt-8 break-words rounded-2xl border border-slate-200 bg-white p-5 text-sm"
      aria-labelledby={id}
      data-testid={testId}
    >
      <h2 id={id} className="font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A request the buyer makes of their order page (keys again, a new link): one button posting its intent. */
function RequestButton({ intent, children }: { intent: string; children: string }) {
  const navigation = useNavigation();
  return (
    <Form method="post" className="mt-3">
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={navigation.state === "submitting"}
        className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-ink-900 hover:bg-slate-50 disabled:text-slate-400"
      >
        {children}
      </button>
    </Form>
  );
}
