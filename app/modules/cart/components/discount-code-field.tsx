import { useEffect, useId, useState } from "react";
import { Button } from "~/ui/button";
import type { CartLine } from "../cart";
import { discountCodeStore, useDiscountCode } from "../cart-store";
import { discountCodeSchema, MAX_CODE_LENGTH } from "../discount-code";
import { type QuotePlace, useCartQuote } from "../quote";

type Refusal = { code: string; problem: string };

/**
 * The cart priced on the server with its discount code, and the code's state for DiscountCodeField. A code typed
 * is tried on the quote and kept with the cart (in the browser) only once the store applies it. A code the store
 * refuses, typed now or kept from before and no longer valid for the cart, is dropped from the cart at once and
 * handed back to the field with the reason: it is never priced, shown as applied or sent with an order again. So is
 * a code the store would not look at because too many were tried from here.
 */
export function useCartQuoteWithCode(
  lines: CartLine[],
  places: { billing?: QuotePlace; shipping?: QuotePlace } = {},
) {
  const kept = useDiscountCode();
  const [trying, setTrying] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const code = trying ?? kept;
  const priced = useCartQuote(lines, { ...places, code });
  const answer = priced.current ? priced.quote : undefined;
  const problem = code ? (answer?.codeProblem ?? priced.codeProblem) : null;
  if (problem && (refused?.code !== code || refused.problem !== problem)) {
    setRefused({ code, problem });
    setTrying(null);
  }
  const accepted = trying !== null && answer?.discount ? answer.discount.code : null;
  // Once the store applied a code tried, it is the cart's.
  if (trying !== null && kept !== "" && kept.toLowerCase() === trying.toLowerCase()) setTrying(null);
  const refusedKept = refused !== null && refused.code === kept ? kept : "";
  useEffect(() => {
    if (refusedKept) discountCodeStore.set("");
  }, [refusedKept]);
  useEffect(() => {
    if (accepted) discountCodeStore.set(accepted);
  }, [accepted]);
  const entry = {
    /** The code kept with the cart, the one an order is placed with ('' for none; never a refused one). */
    kept: refusedKept ? "" : kept,
    trying,
    refused,
    /** The code as the store applied it, once the quote for it is in. */
    applied: trying === null && kept ? (answer?.discount?.code ?? null) : null,
    tryCode: (typed: string) => {
      setRefused(null);
      setTrying(typed);
    },
  };
  return { ...priced, codeEntry: entry };
}

export type DiscountCodeEntry = ReturnType<typeof useCartQuoteWithCode>["codeEntry"];

/**
 * One discount code per order: typed here and applied by the store (see useCartQuoteWithCode), with a way to take
 * it off. A refused code stays in the field to correct, the reason beside it.
 */
export function DiscountCodeField({ entry }: { entry: DiscountCodeEntry }) {
  const { kept, trying, refused, applied } = entry;
  const [typed, setTyped] = useState(refused?.code ?? "");
  const [error, setError] = useState<string | null>(null);
  // A code refused just now comes back into the field, as the shopper typed it.
  const [shownRefusal, setShownRefusal] = useState(refused);
  if (refused !== shownRefusal) {
    setShownRefusal(refused);
    if (refused) setTyped(refused.code);
  }
  const id = useId();
  const apply = () => {
    const parsed = discountCodeSchema.safeParse(typed);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Enter a discount code");
    if (parsed.data === "") return setError("Enter a discount code");
    setError(null);
    entry.tryCode(parsed.data);
  };
  const problem = error ?? refused?.problem ?? null;
  if (trying === null && kept) {
    return (
      <div className="mt-4 rounded-lg border border-slate-200 p-3 text-sm" data-testid="discount-code">
        <div className="flex items-center justify-between gap-2">
          <span>
            Discount code <strong className="font-mono">{applied ?? kept}</strong>
            {applied ? (
              <span className="ml-1 text-emerald-800" data-testid="discount-code-applied">
                applied
              </span>
            ) : null}
          </span>
          <button
            type="button"
            className="text-sm font-semibold text-brand-700 underline"
            onClick={() => {
              setTyped("");
              discountCodeStore.set("");
            }}
            data-testid="discount-code-remove"
          >
            Remove
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="mt-4 text-sm" data-testid="discount-code">
      <label htmlFor={id} className="block font-medium text-ink-800">
        Discount code
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          value={typed}
          maxLength={MAX_CODE_LENGTH}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            // Inside the checkout form, Enter applies the code rather than placing the order.
            if (event.key === "Enter") {
              event.preventDefault();
              apply();
            }
          }}
          className={`block w-full min-w-0 rounded-lg border bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 ${problem ? "border-red-500" : "border-slate-300"}`}
          data-testid="discount-code-input"
        />
        <Button variant="secondary" onClick={apply} data-testid="discount-code-apply">
          {trying === null ? "Apply" : "Checking…"}
        </Button>
      </div>
      {problem ? (
        <p id={`${id}-error`} className="mt-1 text-red-700" role="alert" data-testid="discount-code-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
