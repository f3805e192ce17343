import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { formatMoney } from "~/lib/money";
import { MAX_QUANTITY, removeFromCart, setQuantity } from "~/modules/cart/cart";
import { updateCart, useCart } from "~/modules/cart/cart-store";
import { type CartQuote, useCartQuote } from "~/modules/cart/quote";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { Button, ButtonLink } from "~/ui/button";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/cart";

export async function loader({ context, request }: Route.LoaderArgs) {
  return { seo: await seoForPath(context, new URL(request.url).pathname) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function CartPage() {
  const cart = useCart();
  const { quote, failed, problem } = useCartQuote(cart);
  const navigate = useNavigate();
  // The spec's to-payment flag: the text "false" until the visitor goes on to payment.
  const [toPayment, setToPayment] = useState<"false" | "true">("false");
  const ready = quote !== undefined;
  return (
    <div data-testid="cart-page" data-to-payment={toPayment}>
      <PageHeader title="Your cart" />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 lg:grid-cols-[1fr_22rem]">
        <section aria-label="Cart items">
          {failed ? (
            <p
              className="mb-4 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
              role="alert"
            >
              {problem}
            </p>
          ) : null}
          {!ready && cart.length > 0 && !failed ? <p className="text-slate-600">Checking prices…</p> : null}
          {cart.length === 0 ? <EmptyCart /> : null}
          {ready ? <CartLines quote={quote} /> : null}
        </section>
        {cart.length > 0 && ready ? (
          <aside
            className="h-fit rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            aria-label="Order summary"
          >
            <h2 className="text-lg font-bold">Summary</h2>
            <dl className="mt-4 space-y-2 text-sm">
              <div className="flex justify-between">
                <dt>
                  Subtotal ({quote.itemCount} {quote.itemCount === 1 ? "item" : "items"})
                </dt>
                <dd data-testid="cart-subtotal">{formatMoney(quote.subtotalCents)}</dd>
              </div>
              <div className="flex justify-between">
                <dt>Shipping</dt>
                <dd data-testid="cart-shipping">
                  {quote.hasPhysical
                    ? quote.shippingCents === 0
                      ? "Free"
                      : formatMoney(quote.shippingCents)
                    : "Free (delivered by e-mail)"}
                </dd>
              </div>
              <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-bold">
                <dt>Total</dt>
                <dd data-testid="cart-total">{formatMoney(quote.totalCents)}</dd>
              </div>
            </dl>
            {quote.hasPhysical && quote.shippingCents > 0 ? (
              <p className="mt-2 text-xs text-slate-500">
                Free shipping when your printers and routers come to{" "}
                {formatMoney(quote.freeShippingThresholdCents)} or more.
              </p>
            ) : null}
            <Button
              className="mt-6 w-full"
              disabled={quote.lines.length === 0 || quote.unavailable.length > 0}
              onClick={() => {
                setToPayment("true");
                void navigate("/payment");
              }}
              data-testid="to-payment"
            >
              Proceed to payment
            </Button>
            {quote.unavailable.length > 0 ? (
              <p className="mt-3 text-sm text-red-700" role="alert">
                Remove the products that are no longer available to continue.
              </p>
            ) : null}
            <Link
              to="/categories"
              className="mt-4 block text-center text-sm font-semibold text-brand-700 hover:underline"
            >
              Continue shopping
            </Link>
          </aside>
        ) : null}
      </div>
    </div>
  );
}

function EmptyCart() {
  return (
    <div
      className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center"
      data-testid="empty-cart"
    >
      <p className="text-lg font-semibold">Your cart is empty.</p>
      <p className="mt-2 text-slate-600">
        Find antivirus suites, Windows licences, printers and routers in our catalogue.
      </p>
      <ButtonLink to="/best-sellers" className="mt-6">
        See our best sellers
      </ButtonLink>
    </div>
  );
}

function CartLines({ quote }: { quote: CartQuote }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {quote.lines.map((line) => (
        <li key={`${line.groupKey}/${line.id}`} className="flex gap-4 p-4" data-testid="cart-line">
          <Link to={line.route} className="shrink-0">
            <img
              src={line.img}
              alt={line.name}
              width={96}
              height={96}
              className="h-24 w-24 rounded-lg bg-slate-100 object-cover"
            />
          </Link>
          <div className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
            <div>
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{line.brandName}</p>
              <Link
                to={line.route}
                className="font-semibold hover:text-brand-700"
                data-testid="cart-line-name"
              >
                {line.name}
              </Link>
              <p className="text-sm text-slate-600">
                <span data-testid="cart-line-price">{formatMoney(line.unitPriceCents)}</span> each
                {line.kind === "software" ? " · licence key by e-mail" : " · shipped"}
              </p>
              {line.previousPriceCents !== undefined ? (
                <p className="mt-1 text-sm font-medium text-amber-800" data-testid="price-changed">
                  The price changed from {formatMoney(line.previousPriceCents)} to{" "}
                  {formatMoney(line.unitPriceCents)} since you added it.
                </p>
              ) : null}
            </div>
            <div className="flex items-center gap-4">
              <QuantityControl line={line} />
              <p className="w-24 text-right font-semibold" data-testid="cart-line-total">
                {formatMoney(line.lineTotalCents)}
              </p>
            </div>
          </div>
        </li>
      ))}
      {quote.unavailable.map((line) => (
        <li
          key={`${line.groupKey}/${line.id}`}
          className="flex items-center justify-between gap-4 bg-red-50 p-4"
          data-testid="cart-line-unavailable"
        >
          <p className="text-sm">
            <span className="font-semibold">{line.name || "A product"}</span> is no longer available.
          </p>
          <Button variant="secondary" onClick={() => updateCart((lines) => removeFromCart(lines, line))}>
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}

function QuantityControl({
  line,
}: {
  line: { groupKey: string; id: string; name: string; quantity: number };
}) {
  const change = (quantity: number) => updateCart((lines) => setQuantity(lines, line, quantity));
  const step =
    "h-9 w-9 rounded-lg border border-slate-300 text-lg leading-none hover:bg-slate-50 disabled:opacity-40";
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        className={step}
        onClick={() => change(line.quantity - 1)}
        disabled={line.quantity <= 1}
        aria-label={`One fewer ${line.name}`}
      >
        −
      </button>
      <label className="sr-only" htmlFor={`qty-${line.groupKey}-${line.id}`}>
        Quantity of {line.name}
      </label>
      <input
        id={`qty-${line.groupKey}-${line.id}`}
        type="number"
        min={1}
        max={MAX_QUANTITY}
        value={line.quantity}
        onChange={(event) => {
          const value = Math.trunc(Number(event.target.value));
          if (value >= 1) change(Math.min(MAX_QUANTITY, value));
        }}
        className="h-9 w-14 rounded-lg border border-slate-300 text-center text-sm"
        data-testid="cart-line-quantity"
      />
      <button
        type="button"
        className={step}
        onClick={() => change(line.quantity + 1)}
        disabled={line.quantity >= MAX_QUANTITY}
        aria-label={`One more ${line.name}`}
      >
        +
      </button>
      <button
        type="button"
        className="ml-2 text-sm font-semibold text-red-700 hover:underline"
        onClick={() => updateCart((lines) => removeFromCart(lines, line))}
        data-testid="cart-line-remove"
      >
        Remove<span className="sr-only"> {line.name}</span>
      </button>
    </div>
  );
}
