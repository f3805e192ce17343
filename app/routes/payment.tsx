import { useEffect, useMemo, useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { formatMoney } from "~/lib/money";
import { currencyOfCookieHeader } from "~/lib/currency";
import { useCart } from "~/modules/cart/cart-store";
import type { QuotePlace } from "~/modules/cart/quote";
import { DiscountCodeField, useCartQuoteWithCode } from "~/modules/cart/components/discount-code-field";
import { OrderTotals } from "~/modules/orders/components/order-totals";
import { quantityProblem } from "~/modules/cart/cart";
import { availabilityText } from "~/modules/catalogue/availability";
import { readCheckoutDraft, saveCheckoutDraft } from "~/modules/orders/checkout-draft";
import { orderPath } from "~/modules/orders/access.server";
import { availablePaymentMethods, ordersContext } from "~/modules/orders/orders.server";
import { placeOrderWithinLimits } from "~/modules/orders/unpaid-order-limits.server";
import { readFormBody } from "~/lib/form-data.server";
import { clientAddress } from "~/lib/client-address";
import { headersWithRetryAfter } from "~/lib/limit-headers";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { limitCodeGuesses } from "~/modules/orders/code-guesses.server";
import { refusal } from "~/lib/action-reply";
import { type FieldErrors } from "~/lib/forms";
import { checkoutSchema, fieldErrors, formToObject } from "~/modules/orders/schemas";
import { addressForPage, defaultAddress } from "~/modules/accounts/addresses.server";
import { getViewer } from "~/modules/accounts/session.server";
import { getSettings } from "~/modules/orders/settings.server";
import { startStripeCheckout } from "~/modules/orders/stripe.server";
import { pageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { ButtonLink } from "~/ui/button";
import { AddressFields } from "~/ui/address-fields";
import { COUNTRIES } from "~/lib/address";
import { CheckboxField, TextField } from "~/ui/field";
import { fieldLimits } from "~/lib/field-limits";
import { LineAdjustments } from "~/modules/orders/components/line-adjustments";
import { PaymentMethods } from "~/modules/orders/components/payment-methods";
import type { Route } from "./+types/payment";

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const cancelled = Number(url.searchParams.get("cancelled"));
  const [seo, methods, store, viewer] = await Promise.all([
    seoForPath(context, url.pathname, {
      page: {
        title: "Checkout",
        description:
          "Pay for your order: your e-mail address, billing and shipping addresses, and how you pay.",
      },
    }),
    availablePaymentMethods(context),
    getSettings(context.db),
    getViewer(request, context),
  ]);
  // A signed-in customer's e-mail and default address (or at least their name) fill the form in.
  const address = viewer ? await defaultAddress(context.db, viewer.id) : null;
  const billing: Partial<ReturnType<typeof addressForPage>> = address
    ? addressForPage(address)
    : { name: viewer?.name };
  return {
    prefill: viewer ? { email: viewer.email, billing } : null,
    seo,
    methods,
    idempotencyKey: crypto.randomUUID(),
    cancelledOrder: Number.isSafeInteger(cancelled) && cancelled > 0 ? cancelled : null,
    freeShippingThresholdCents: store.freeShippingThresholdCents,
    shipsTo: store.shipsTo,
  };
}

export const headers = headersWithRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) {
    const message = "The form could not be read: reload the page and try again";
    return refusal(400, { errors: { form: message } });
  }
  const parsed = checkoutSchema.safeParse(formToObject(body.values));
  if (!parsed.success) return refusal(400, { errors: fieldErrors(parsed.error) });
  // The currency the checkout showed, else the shopper's choice: the order is priced in it from the catalogue.
  parsed.data.currency ??= currencyOfCookieHeader(request.headers.get("Cookie"));
  const ctx = await ordersContext(context, request.signal);
  // A signed-in customer's order goes into their account.
  const viewer = await getViewer(request, context);
  const placed = await limitCodeGuesses(
    context.db,
    clientAddress(request),
    parsed.data.discountCode,
    () => placeOrderWithinLimits(ctx, parsed.data, viewer?.id ?? null, clientAddress(request)),
    (result) => !result.ok && "codeNotValid" in result && result.codeNotValid === true,
  );
  if (!placed.ok)
    return refusal(
      429,
      { errors: { discountCode: placed.message } },
      retryAfterHeaders(placed.retryAfterSeconds),
    );
  const result = placed.result;
  if (!result.ok && "limited" in result)
    return refusal(429, { errors: { form: result.message } }, retryAfterHeaders(result.retryAfterSeconds));
  if (!result.ok) return refusal(400, { errors: result.errors });
  const confirmation = `${orderPath(context.env.AUTH_SECRET, result)}&placed=1`;
  if (result.paymentMethod === "stripe" && result.status === "pending_payment") {
    try {
      return redirect(await startStripeCheckout(ctx, result.orderId));
    } catch (error) {
      context.logger.error({ err: error, order: result.number }, "could not start a Stripe checkout");
      return refusal(502, {
        errors: {
          form: `Card payment could not be started. Your order #${result.number} is saved and your cart is unchanged: try again, or choose bank transfer.`,
        },
      });
    }
  }
  return redirect(confirmation);
}

type Errors = FieldErrors;

/** Where the sandbox is offered, the checkout says so before anyone fills anything in. */
function DemoNotice() {
  return (
    <p
      className="mt-4 rounded-lg border border-sky-300 bg-sky-50 p-4 text-left text-sm text-sky-900"
      data-testid="demo-notice"
    >
      <strong>Demo store: no money moves.</strong> The test payment completes an order at once without
      charging anything.
    </p>
  );
}

const shipsToText = (codes: string[]) => codes.map((code) => COUNTRIES[code] ?? code).join(", ");

/** Where a new shipping address starts: the United States when the store ships there, else its first country. */
const firstShippingCountry = (shipsTo: string[]) => (shipsTo.includes("US") ? "US" : shipsTo[0]!);

export default function Payment({ loaderData, actionData }: Route.ComponentProps) {
  const cart = useCart();
  // What the shopper typed before going back to the cart. The server renders no form (it sees no cart), so reading
  // the browser's storage here changes nothing the first render shows.
  const [draft] = useState(readCheckoutDraft);
  const billingDefaults = draft?.billing ?? loaderData.prefill?.billing;
  const [shipToBilling, setShipToBilling] = useState(draft?.shipToBilling ?? true);
  // Where the order is taxed, as the form has it now: the quote follows every change of country or state.
  const [places, setPlaces] = useState<{ billing: QuotePlace; shipping?: QuotePlace }>(() => {
    const shippingCountry = draft?.shipping?.country ?? "";
    return {
      billing: { country: billingDefaults?.country || "US", region: billingDefaults?.region ?? "" },
      shipping: shipToBilling
        ? undefined
        : loaderData.shipsTo.includes(shippingCountry)
          ? { country: shippingCountry, region: draft?.shipping?.region ?? "" }
          : { country: firstShippingCountry(loaderData.shipsTo), region: "" },
    };
  });
  const { quote, current, toFix, problem, codeEntry } = useCartQuoteWithCode(cart, {
    billing: places.billing,
    shipping: shipToBilling ? undefined : places.shipping,
  });
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<Errors | null>(null);
  const answered: Errors = clientErrors ?? actionData?.errors ?? {};
  // A message is about the form as it was checked: a field changed since then loses its message.
  const [edited, setEdited] = useState<{ of: Errors; names: string[] }>({ of: answered, names: [] });
  const editedNames = edited.of === answered ? edited.names : [];
  const errors: Errors = Object.fromEntries(
    Object.entries(answered).filter(
      ([key]) =>
        !editedNames.includes(key) && !(key === "shipToBilling" && editedNames.includes("billing.country")),
    ),
  );
  const noShippingTo = quote?.noShippingTo ?? null;
  const shipsNotThere = !loaderData.shipsTo.includes(places.billing.country);
  // The shipping address as last typed, for its fields each time "Ship to my billing address" is unticked.
  const keptShipping = useMemo(
    () => (shipToBilling ? undefined : readCheckoutDraft()?.shipping),
    [shipToBilling],
  );
  const submitting = navigation.state !== "idle" && navigation.formAction === "/payment";
  const cartJson = JSON.stringify(
    cart.map(({ groupKey, id, variant, quantity }) => ({ groupKey, id, variant, quantity })),
  );

  // The first field to fix takes the focus, whether the server or the browser found it.
  useEffect(() => {
    if (actionData?.errors || clientErrors)
      document.querySelector<HTMLElement>("[aria-invalid=true], [data-form-error]")?.focus();
  }, [actionData, clientErrors]);

  if (cart.length === 0) {
    return (
      <section className="mx-auto max-w-xl px-4 py-20 text-center" data-testid="checkout-empty">
        <h1 className="text-3xl font-bold">Checkout</h1>
        {loaderData.methods.includes("sandbox") ? <DemoNotice /> : null}
        <p className="mt-4 text-slate-600">Your cart is empty, so there is nothing to pay for yet.</p>
        <ButtonLink to="/best-sellers" className="mt-6">
          Find something
        </ButtonLink>
      </section>
    );
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-10" data-testid="checkout">
      <h1 className="text-3xl font-extrabold tracking-tight">Checkout</h1>
      {loaderData.cancelledOrder ? (
        <p
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
          role="status"
        >
          Your card payment was cancelled. Order #{loaderData.cancelledOrder} is saved and your cart is
          unchanged: try again below.
        </p>
      ) : null}
      {loaderData.methods.includes("sandbox") ? <DemoNotice /> : null}
      {errors.form || errors.cart || errors.discountCode ? (
        <p
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-900"
          role="alert"
          tabIndex={-1}
          data-form-error
          data-testid="checkout-error"
        >
          {errors.form ?? errors.cart ?? errors.discountCode}
        </p>
      ) : null}
      <Form
        method="post"
        noValidate
        className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_24rem]"
        onChange={(event) => {
          saveCheckoutDraft(event.currentTarget);
          const target: EventTarget = event.target;
          const name =
            target instanceof HTMLInputElement || target instanceof HTMLSelectElement ? target.name : "";
          if (name && !editedNames.includes(name)) setEdited({ of: answered, names: [...editedNames, name] });
          if (!/^(billing|shipping)\.(country|region)$/.test(name)) return;
          const form = new FormData(event.currentTarget);
          const placeOf = (prefix: string): QuotePlace | undefined => {
            const country = form.get(`${prefix}.country`);
            // A new country starts without a state: the old one's field is about to give way to the new one's.
            const region = name === `${prefix}.country` ? "" : String(form.get(`${prefix}.region`) ?? "");
            return typeof country === "string" ? { country, region } : undefined;
          };
          setPlaces({ billing: placeOf("billing") ?? places.billing, shipping: placeOf("shipping") });
        }}
        onSubmit={(event) => {
          const result = checkoutSchema.safeParse(formToObject(new FormData(event.currentTarget)));
          if (!result.success) {
            event.preventDefault();
            setClientErrors(fieldErrors(result.error));
          } else {
            setClientErrors(null);
          }
        }}
      >
        <input type="hidden" name="idempotencyKey" value={loaderData.idempotencyKey} />
        <input type="hidden" name="cart" value={cartJson} />
        {/* Only a code the store applied is ever sent: one being tried is not yet. */}
        <input type="hidden" name="discountCode" value={codeEntry.kept} />
        {quote ? (
          <>
            <input type="hidden" name="expectedTotalCents" value={quote.totalCents} />
            <input type="hidden" name="currency" value={quote.currency} />
          </>
        ) : null}
        <div className="space-y-10">
          <fieldset className="space-y-4">
            <legend className="text-lg font-bold">Contact</legend>
            <TextField
              label="E-mail address"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={draft?.email ?? loaderData.prefill?.email}
              error={errors.email}
              hint="Your receipt and licence keys go here."
            />
          </fieldset>
          <AddressFields
            prefix="billing"
            legend="Billing address"
            errors={errors}
            defaults={billingDefaults}
            autoCompleteSection="billing"
          />
          <TextField
            label="Tax ID (optional, for business customers)"
            name="buyerTaxId"
            autoComplete="off"
            {...fieldLimits(checkoutSchema).buyerTaxId}
            defaultValue={draft?.buyerTaxId}
            error={errors.buyerTaxId}
            hint="Your VAT number, GSTIN or EIN, printed on your invoice."
            data-testid="buyer-tax-id"
          />
          {quote?.hasPhysical ? (
            <fieldset className="space-y-4" data-testid="shipping-fieldset">
              <legend className="text-lg font-bold">Shipping</legend>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="shipToBilling"
                  checked={shipToBilling}
                  onChange={(event) => {
                    setShipToBilling(event.target.checked);
                    // The shipping fields come back as they were last typed, or on the first country the store
                    // ships to, without a state.
                    const kept = readCheckoutDraft()?.shipping;
                    const country = kept?.country ?? "";
                    setPlaces((now) => ({
                      ...now,
                      shipping: loaderData.shipsTo.includes(country)
                        ? { country, region: kept?.region ?? "" }
                        : { country: firstShippingCountry(loaderData.shipsTo), region: "" },
                    }));
                  }}
                />
                Ship to my billing address
              </label>
              <p className="text-sm text-slate-600" data-testid="ships-to">
                We ship printers and routers to {shipsToText(loaderData.shipsTo)}.
              </p>
              {shipToBilling && (shipsNotThere || errors.shipToBilling) ? (
                <p
                  className="text-sm font-semibold text-red-700"
                  role="alert"
                  // The store's refusal takes the focus here, as a field's does.
                  tabIndex={errors.shipToBilling ? -1 : undefined}
                  data-form-error={errors.shipToBilling ? true : undefined}
                  data-testid="no-shipping-there"
                >
                  {shipsNotThere
                    ? `We do not ship to ${COUNTRIES[places.billing.country] ?? places.billing.country}: untick “Ship to my billing address” and give a shipping address we ship to.`
                    : errors.shipToBilling}
                </p>
              ) : null}
              {shipToBilling ? null : (
                <AddressFields
                  prefix="shipping"
                  legend="Shipping address"
                  errors={errors}
                  defaults={keptShipping}
                  autoCompleteSection="shipping"
                  countries={loaderData.shipsTo}
                />
              )}
            </fieldset>
          ) : null}
          <PaymentMethods
            methods={loaderData.methods}
            chosen={draft?.paymentMethod}
            totalCents={quote?.totalCents}
            error={errors.paymentMethod}
          />
          <CheckboxField name="acceptTerms" error={errors.acceptTerms} errorId="accept-error">
            <span>
              I accept the{" "}
              <Link to="/termsandconditions" className="font-semibold text-brand-700 underline">
                terms and conditions
              </Link>{" "}
              and the{" "}
              <Link to="/returnandrefundpolicy" className="font-semibold text-brand-700 underline">
                return and refund policy
              </Link>
              .
            </span>
          </CheckboxField>
        </div>
        <aside
          className="h-fit rounded-2xl border border-slate-200 bg-white p-6 shadow-sm lg:sticky lg:top-6"
          aria-label="Order summary"
        >
          <h2 className="text-lg font-bold">Order summary</h2>
          {quote ? (
            <>
              <ul className="mt-4 space-y-3 text-sm">
                {quote.lines.map((line) => (
                  <li
                    key={`${line.groupKey}/${line.id}`}
                    className="flex justify-between gap-3"
                    data-testid="summary-line"
                  >
                    <span>
                      {line.quantity} × {line.name}
                      {noShippingTo && line.kind === "physical" ? (
                        <span
                          className="block text-xs font-semibold text-red-800"
                          data-testid="summary-no-shipping"
                        >
                          We do not ship this to {COUNTRIES[noShippingTo] ?? noShippingTo}
                        </span>
                      ) : (
                        <span
                          className={`block text-xs ${line.availability.status === "in-stock" ? "text-emerald-800" : line.availability.status === "waiting" ? "text-amber-800" : "font-semibold text-red-800"}`}
                          data-testid="summary-availability"
                        >
                          {availabilityText(
                            line.availability,
                            line.quantity,
                            line.kind,
                            quote.waitingOrderHours,
                            quote.lowStockThreshold,
                          )}
                        </span>
                      )}
                    </span>
                    {/* Up to half the line: room for a tax and its amount on one line beside a long name. */}
                    <span className="max-w-[50%] shrink-0 text-right font-medium">
                      {formatMoney(line.lineTotalCents, quote.currency)}
                      <LineAdjustments
                        line={line}
                        pricesIncludeTax={quote.pricesIncludeTax}
                        prefix="summary-line"
                        currency={quote.currency}
                      />
                    </span>
                  </li>
                ))}
                {toFix.map((line) => (
                  <li
                    key={`${line.groupKey}/${line.id}`}
                    className="text-red-700"
                    data-testid="summary-to-fix"
                  >
                    {line.name || "A product"}: {quantityProblem(line.quantity)}.{" "}
                    <Link to="/cart" className="underline">
                      Fix the quantity in your cart
                    </Link>
                    .
                  </li>
                ))}
                {quote.unavailable.map((line) => (
                  <li key={`${line.groupKey}/${line.id}`} className="text-red-700">
                    {line.name || "A product"} is no longer available:{" "}
                    <Link to="/cart" className="underline">
                      remove it in your cart
                    </Link>
                    .
                  </li>
                ))}
              </ul>
              <OrderTotals
                prefix="summary"
                totals={{ ...quote, discountCode: quote.discount?.code ?? "" }}
                note={quote.taxNote}
                className="mt-4 space-y-2 border-t border-slate-200 pt-4 text-sm"
              />
              <DiscountCodeField entry={codeEntry} />
            </>
          ) : problem ? (
            <p className="mt-4 text-sm text-red-800" role="alert" data-testid="quote-problem">
              {problem}
            </p>
          ) : (
            <p className="mt-4 text-sm text-slate-600">Checking prices…</p>
          )}
          <button
            type="submit"
            disabled={
              submitting ||
              !quote ||
              // A country or state just picked: the total shown is not yet the one the order would be placed at.
              !current ||
              quote.unavailable.length > 0 ||
              quote.overStock ||
              toFix.length > 0 ||
              noShippingTo !== null
            }
            className="mt-6 w-full rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-brand-300"
            data-testid="place-order"
          >
            {submitting ? "Placing your order…" : quote && !current ? "Updating your total…" : "Place order"}
          </button>
          {noShippingTo ? (
            <p className="mt-3 text-sm text-red-700" data-testid="place-order-no-shipping">
              Give a shipping address we ship to, or remove the printers and routers from your cart, to place
              the order.
            </p>
          ) : null}
          <p className="mt-3 text-xs text-slate-500">
            Prices are checked again when you place the order; you pay the prices shown here.
          </p>
        </aside>
      </Form>
    </div>
  );
}
