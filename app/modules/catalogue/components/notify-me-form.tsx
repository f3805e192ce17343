/**
 * "E-mail me when it is back", on the page of a product (or variant) that cannot be ordered now. The same for every
 * visitor (the page is kept in the shared cache): a plain form that posts to /stock-alerts, with or without
 * JavaScript, and holds nothing of whoever reads it.
 */
export function NotifyMeForm({ productId, variantSku }: { productId: number; variantSku: string | null }) {
  return (
    <form
      method="post"
      action="/stock-alerts"
      className="mt-4 rounded-xl border border-slate-200 bg-slate-50 p-4"
      data-testid="notify-me-form"
    >
      <input type="hidden" name="product" value={productId} />
      {variantSku ? <input type="hidden" name="variant" value={variantSku} /> : null}
      <label htmlFor="notify-me-email" className="block text-sm font-semibold text-ink-900">
        E-mail me once when it is back
      </label>
      <p id="notify-me-help" className="mt-1 text-sm text-slate-700">
        We send a link to confirm first, then one e-mail when it is back in stock.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input
          id="notify-me-email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          aria-describedby="notify-me-help"
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        />
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Notify me
        </button>
      </div>
    </form>
  );
}
