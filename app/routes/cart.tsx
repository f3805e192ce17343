import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { type Currency, formatMoney } from "~/lib/money";
import {
  type CartLine,
  isOrderable,
  MAX_QUANTITY,
  quantityProblem,
  removeFromCart,
  sameProduct,
  setQuantity,
} from "~/modules/cart/cart";
import { updateCart, useCart } from "~/modules/cart/cart-store";
import { DiscountCodeField, useCartQuoteWithCode } from "~/modules/cart/components/discount-code-field";
import { OrderTotals } from "~/modules/orders/components/order-totals";
import type { CartQuote } from "~/modules/cart/quote";
import { availabilityText } from "~/modules/catalogue/availability";
import { ProductImage } from "~/modules/catalogue/components/product-image";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { Button, ButtonLink } from "~/ui/button";
import { PageHeader } from "~/ui/page-header";
import { variantPath } from "~/modules/catalogue/variants";
import type { Route } from "./+types/cart";

export async function loader({ context, request }: Route.LoaderArgs) {
  return {
    seo: await seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "Your cart",
        description: "The products in your cart, at today's prices, ready for checkout.",
      },
    }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export default function CartPage() {
  const cart = useCart();
  const { quote, failed, toFix, problem, codeEntry } = useCartQuoteWithCode(cart);
  const navigate = useNavigate();
  // The spec's to-payment flag: the text "false" until the visitor goes on to payment.
  const [toPayment, setToPayment] = useState<"false" | "true">("false");
  const ready = quote !== undefined;
  return (
    <div data-testid="cart-page" data-to-payment={toPayment}>
      <PageHeader title="Your cart" />
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-8 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_22rem]">
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
          {cart.length === 0 ? <EmptyCart /> : <CartLines cart={cart} quote={quote} />}
        </section>
        {cart.length > 0 && ready ? (
          <aside
            className="h-fit rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            aria-label="Order summary"
          >
            <h2 className="text-lg font-bold">Summary</h2>
            <p className="mt-4 text-sm text-slate-600">
              {quote.itemCount} {quote.itemCount === 1 ? "item" : "items"}
            </p>
            <OrderTotals
              prefix="cart"
              totals={{ ...quote, discountCode: quote.discount?.code ?? "" }}
              shippingFree={quote.hasPhysical ? "Free" : "Free (delivered by e-mail)"}
              note={quote.taxNote}
              className="mt-2 space-y-2 text-sm"
            />
            <DiscountCodeField entry={codeEntry} />
            {quote.hasPhysical && quote.shippingCents > 0 ? (
              <p className="mt-2 text-xs text-slate-500">
                Free shipping when your printers and routers come to{" "}
                {formatMoney(quote.freeShippingThresholdCents, quote.currency)} or more.
              </p>
            ) : null}
            <Button
              className="mt-6 w-full"
              disabled={
                quote.lines.length === 0 ||
                quote.unavailable.length > 0 ||
                quote.overStock ||
                toFix.length > 0
              }
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
            ) : toFix.length > 0 || quote.overStock ? (
              <p className="mt-3 text-sm text-red-700" role="alert" data-testid="cart-fix-notice">
                Fix the quantities marked in red to continue.
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
      <p className="mt-6 text-sm text-slate-600">
        Ordered already?{" "}
        <Link to="/order/lookup" className="font-semibold text-brand-700 underline">
          Find my order
        </Link>{" "}
        with its number and your e-mail address.
      </p>
    </div>
  );
}

function CartLines({ cart, quote }: { cart: CartLine[]; quote: CartQuote | undefined }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {cart.map((line) => {
        const key = `${line.groupKey}/${line.id}/${line.variant ?? ""}`;
        const gone = quote?.unavailable.find((other) => sameProduct(other, line));
        if (gone) {
          return (
            <li
              key={key}
              className="flex items-center justify-between gap-4 bg-red-50 p-4"
              data-testid="cart-line-unavailable"
            >
              <p className="text-sm">
                <span className="font-semibold">{gone.name || line.name || "A product"}</span> is no longer
                available.
              </p>
              <Button variant="secondary" onClick={() => updateCart((lines) => removeFromCart(lines, line))}>
                Remove
              </Button>
            </li>
          );
        }
        // Until the quote for a changed quantity arrives, the line shows the last one.
        const priced = isOrderable(line) ? quote?.lines.find((other) => sameProduct(other, line)) : undefined;
        return (
          <CartLineRow
            key={key}
            line={line}
            priced={priced}
            currency={quote?.currency ?? "USD"}
            waitingHours={quote?.waitingOrderHours ?? 0}
            lowStockAt={quote?.lowStockThreshold ?? 0}
          />
        );
      })}
    </ul>
  );
}

/**
 * One line of the cart. Priced by the server when its quantity is one the store accepts; otherwise shown with
 * what is wrong and the quantity to fix, never hidden or changed behind the shopper's back.
 */
function CartLineRow({
  line,
  priced,
  currency,
  waitingHours,
  lowStockAt,
}: {
  line: CartLine;
  priced: CartQuote["lines"][number] | undefined;
  /** What the quote's amounts are in. */
  currency: Currency;
  waitingHours: number;
  lowStockAt: number;
}) {
  const name = priced?.name ?? (line.name || "A product");
  const max = priced?.availability.maxQuantity ?? MAX_QUANTITY;
  const problem =
    quantityProblem(line.quantity) ??
    (priced?.availability.status === "unavailable"
      ? availabilityText(priced.availability, line.quantity, priced.kind, waitingHours, lowStockAt)
      : null);
  return (
    <li
      className={`flex gap-3 p-4 sm:gap-4 ${problem ? "bg-red-50" : ""}`}
      data-testid={priced ? "cart-line" : problem ? "cart-line-to-fix" : "cart-line-pending"}
    >
      {priced ? (
        <Link to={variantPath(priced.route, priced.variant)} className="shrink-0">
          <ProductImage
            product={priced}
            size={96}
            className="h-16 w-16 rounded-lg bg-slate-100 object-cover sm:h-24 sm:w-24"
          />
        </Link>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          {priced ? (
            <>
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                {priced.brandName}
              </p>
              <Link
                to={variantPath(priced.route, priced.variant)}
                className="font-semibold hover:text-brand-700"
                data-testid="cart-line-name"
              >
                {priced.name}
              </Link>
              {priced.variantLabel ? (
                <p className="text-sm text-slate-700" data-testid="cart-line-variant">
                  {priced.variantLabel}
                </p>
              ) : null}
              <p className="text-sm text-slate-600">
                <span data-testid="cart-line-price">{formatMoney(priced.unitPriceCents, currency)}</span> each
              </p>
              {priced.availability.status === "unavailable" ? null : (
                <p
                  className={`text-sm ${priced.availability.status === "in-stock" ? "text-emerald-800" : "text-amber-800"}`}
                  data-testid="cart-line-availability"
                >
                  {availabilityText(
                    priced.availability,
                    line.quantity,
                    priced.kind,
                    waitingHours,
                    lowStockAt,
                  )}
                </p>
              )}
              {priced.previousPriceCents !== undefined ? (
                <p className="mt-1 text-sm font-medium text-amber-800" data-testid="price-changed">
                  The price changed from {formatMoney(priced.previousPriceCents, currency)} to{" "}
                  {formatMoney(priced.unitPriceCents, currency)} since you added it.
                </p>
              ) : null}
            </>
          ) : (
            <p className="font-semibold" data-testid="cart-line-name">
              {name}
            </p>
          )}
          {problem ? (
            <p
              id={`qty-problem-${line.groupKey}-${line.id}`}
              className="mt-1 text-sm font-medium text-red-800"
              role="alert"
              data-testid="cart-line-problem"
            >
              {problem}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <QuantityControl line={line} name={name} max={max} invalid={problem !== null} />
          {priced && !problem ? (
            <p className="ml-auto text-right font-semibold sm:w-28" data-testid="cart-line-total">
              {formatMoney(priced.lineTotalCents, currency)}
              {priced.discountCents > 0 ? (
                <span
                  className="block whitespace-nowrap text-xs font-medium text-emerald-800"
                  data-testid="cart-line-discount"
                >
                  −{formatMoney(priced.discountCents, currency)} discount
                </span>
              ) : null}
            </p>
          ) : null}
        </div>
      </div>
    </li>
  );
}

const quantityText = (quantity: number) => (Number.isFinite(quantity) ? String(quantity) : "");

function QuantityControl({
  line,
  name,
  max,
  invalid,
}: {
  line: CartLine;
  name: string;
  max: number;
  invalid: boolean;
}) {
  const change = (quantity: number) => updateCart((lines) => setQuantity(lines, line, quantity));
  // What is typed stays as typed (also while it is not a quantity yet); the cart follows it, and a change made
  // elsewhere (the buttons, another tab) shows here.
  const [text, setText] = useState(quantityText(line.quantity));
  const typed = text.trim() === "" ? Number.NaN : Number(text);
  if (!Object.is(typed, line.quantity) && !(Number.isNaN(typed) && Number.isNaN(line.quantity)))
    setText(quantityText(line.quantity));
  const { quantity } = line;
  const step =
    "h-9 w-9 rounded-lg border border-slate-300 text-lg leading-none hover:bg-slate-50 disabled:opacity-40";
  const inputId = `qty-${line.groupKey}-${line.id}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className={step}
        onClick={() => change(Math.min(Math.ceil(quantity) - 1, max))}
        disabled={!Number.isFinite(quantity) || quantity <= 1}
        aria-label={`One fewer ${name}`}
      >
        −
      </button>
      <label className="sr-only" htmlFor={inputId}>
        Quantity of {name}
      </label>
      <input
        id={inputId}
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          change(event.target.value.trim() === "" ? Number.NaN : Number(event.target.value));
        }}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `qty-problem-${line.groupKey}-${line.id}` : undefined}
        className={`h-9 w-14 rounded-lg border text-center text-sm ${invalid ? "border-red-500" : "border-slate-300"}`}
        data-testid="cart-line-quantity"
      />
      <button
        type="button"
        className={step}
        onClick={() => change(Number.isFinite(quantity) ? Math.max(1, Math.floor(quantity) + 1) : 1)}
        disabled={Number.isFinite(quantity) && quantity >= max}
        aria-label={`One more ${name}`}
      >
        +
      </button>
      <button
        type="button"
        className="ml-2 text-sm font-semibold text-red-700 hover:underline"
        onClick={() => updateCart((lines) => removeFromCart(lines, line))}
        data-testid="cart-line-remove"
      >
        Remove<span className="sr-only"> {name}</span>
      </button>
    </div>
  );
}
