import { usePrice } from "~/lib/currency-context";
import type { PaymentChoice } from "~db/schema/orders";
import { PAYMENT_METHOD_LABELS } from "../labels";

/** What each way to pay means for the buyer, under its name. */
const METHOD_DETAILS: Record<PaymentChoice, string> = {
  stripe: "Pay securely on Stripe's page; your card details never reach us.",
  "bank-transfer": "We send the bank details; your order ships and keys arrive once the money is in.",
  sandbox: "Completes the order at once. No money moves.",
};

/**
 * The checkout's choice of how to pay: the methods on offer, the first chosen. An order that comes to 0.00 (a free
 * product, a 100% code) has nothing to pay, and says so instead; the server decides by its own total either way.
 */
export function PaymentMethods({
  methods,
  chosen,
  totalCents,
  error,
}: {
  methods: PaymentChoice[];
  /** The method the shopper chose before (kept with the form); the first on offer without it. */
  chosen?: string;
  /** The total as last priced, once it is known. */
  totalCents: number | undefined;
  error: string | undefined;
}) {
  const free = totalCents === 0;
  const price = usePrice();
  const picked = methods.find((method) => method === chosen) ?? methods[0];
  return (
    <fieldset className="space-y-3">
      <legend className="text-lg font-bold">Payment method</legend>
      {free ? (
        <p
          className="rounded-xl border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-900"
          data-testid="nothing-to-pay"
        >
          <input type="hidden" name="paymentMethod" value="none" />
          <strong>Nothing to pay.</strong> Your order comes to {price(0)}: place it and it is complete at
          once.
        </p>
      ) : (
        methods.map((method) => (
          <div
            key={method}
            className="flex gap-3 rounded-xl border border-slate-300 bg-white p-4 has-[:checked]:border-brand-500 has-[:checked]:ring-2 has-[:checked]:ring-brand-200"
          >
            <input
              id={`method-${method}`}
              type="radio"
              name="paymentMethod"
              value={method}
              defaultChecked={method === picked}
              className="mt-1"
              aria-describedby={`method-${method}-detail`}
              data-testid={`method-${method}`}
            />
            <div>
              <label htmlFor={`method-${method}`} className="block cursor-pointer font-semibold">
                {PAYMENT_METHOD_LABELS[method]}
              </label>
              <p id={`method-${method}-detail`} className="text-sm text-slate-600">
                {METHOD_DETAILS[method]}
              </p>
            </div>
          </div>
        ))
      )}
      {error ? (
        <p className="text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
