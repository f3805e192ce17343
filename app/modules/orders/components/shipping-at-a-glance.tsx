import { usePrice } from "~/lib/currency-context";

/** The store's shipping settings, as checkout applies them, at the top of the shipping policy page. */
export function ShippingAtAGlance({
  flatCents,
  freeFromCents,
  countries,
}: {
  flatCents: number;
  freeFromCents: number;
  countries: string[];
}) {
  const price = usePrice();
  return (
    <section
      aria-labelledby="shipping-glance-heading"
      className="mb-8 rounded-xl border border-slate-200 bg-slate-50 p-5 text-sm text-ink-800"
      data-testid="shipping-at-a-glance"
    >
      <h2 id="shipping-glance-heading" className="text-base font-bold text-ink-900">
        Shipping at a glance
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          Printers and routers: <strong>{price(flatCents)}</strong> per order, free from{" "}
          <strong>{price(freeFromCents)}</strong>.
        </li>
        <li>
          We ship to: <strong data-testid="shipping-countries">{countries.join(", ")}</strong>.
        </li>
        <li>Software licence keys are delivered by e-mail, free.</li>
      </ul>
    </section>
  );
}
