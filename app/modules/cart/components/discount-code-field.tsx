import { useId, useState } from "react";
import { Button } from "~/ui/button";
import { discountCodeStore, useDiscountCode } from "../cart-store";
import { discountCodeSchema, MAX_CODE_LENGTH } from "../discount-code";

/**
 * One discount code per order: typed here, kept with the cart in the browser, checked and priced by the store on
 * every quote. Shows whether the store applied it, or why not, with a way to take it off.
 */
export function DiscountCodeField({
  applied,
  problem,
}: {
  /** The code as the store applied it, or null. */
  applied: string | null;
  /** Why the store refused the code, or null. */
  problem: string | null;
}) {
  const code = useDiscountCode();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const apply = () => {
    const parsed = discountCodeSchema.safeParse(typed);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Enter a discount code");
    if (parsed.data === "") return setError("Enter a discount code");
    setError(null);
    setTyped("");
    discountCodeStore.set(parsed.data);
  };
  if (code) {
    return (
      <div className="mt-4 rounded-lg border border-slate-200 p-3 text-sm" data-testid="discount-code">
        <div className="flex items-center justify-between gap-2">
          <span>
            Discount code <strong className="font-mono">{applied ?? code}</strong>
            {applied ? (
              <span className="ml-1 text-emerald-800" data-testid="discount-code-applied">
                applied
              </span>
            ) : null}
          </span>
          <button
            type="button"
            className="text-sm font-semibold text-brand-700 underline"
            onClick={() => discountCodeStore.set("")}
            data-testid="discount-code-remove"
          >
            Remove
          </button>
        </div>
        {problem ? (
          <p className="mt-2 text-red-800" role="alert" data-testid="discount-code-problem">
            {problem}
          </p>
        ) : null}
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
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            // Inside the checkout form, Enter applies the code rather than placing the order.
            if (event.key === "Enter") {
              event.preventDefault();
              apply();
            }
          }}
          className={`block w-full min-w-0 rounded-lg border bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 ${error ? "border-red-500" : "border-slate-300"}`}
          data-testid="discount-code-input"
        />
        <Button variant="secondary" onClick={apply} data-testid="discount-code-apply">
          Apply
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-red-700" role="alert" data-testid="discount-code-problem">
          {error}
        </p>
      ) : null}
    </div>
  );
}
