import { Link } from "react-router";

const LINK_BUTTON =
  "mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800";

/** The page an old order link opens: it says why it no longer works and how to get the current one. */
export function RetiredLink({ number, sentTo }: { number: number; sentTo?: string }) {
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
      <Link to={`/order/lookup?number=${number}`} className={LINK_BUTTON}>
        Get a new link
      </Link>
    </section>
  );
}

/** An old link to an order whose customer deleted their account: no new link can reach them. */
export function ErasedOrder({ number }: { number: number }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center" data-testid="order-link-erased">
      <h1 className="text-3xl font-extrabold tracking-tight">This order link no longer works</h1>
      <p className="mt-4 text-slate-600">
        Order #{number} was placed from an account that has since been deleted, and its personal details went
        with it: its links stopped working then, and we cannot send a new one. For anything about this order,
        write to us with its number.
      </p>
      <Link to="/contact" className={LINK_BUTTON}>
        Contact us
      </Link>
    </section>
  );
}
