import { Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { longDate } from "~/modules/orders/labels";
import type { ExpiringLicence } from "~/modules/orders/renewals.server";

type Renewals = {
  expiring: { count: number; soonest: ExpiringLicence[] };
  won: { orders: number; revenueCents: number; afterReminder: number };
};

/** The dashboard's renewals: licences expiring in the next 30 days, and the renewals won in the last 30. */
export function RenewalsBlock({ renewals }: { renewals: Renewals }) {
  const { expiring, won } = renewals;
  return (
    <section
      aria-labelledby="renewals-heading"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4"
      data-testid="renewals"
    >
      <h2 id="renewals-heading" className="text-sm font-semibold text-ink-900">
        Renewals
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <div data-testid="renewals-expiring">
          <p className="text-sm text-slate-600">Licences expiring in the next 30 days</p>
          <p className="mt-1 text-2xl font-bold text-ink-900" data-testid="renewals-expiring-count">
            {expiring.count}
          </p>
          {expiring.soonest.length > 0 ? (
            <ul className="mt-2 space-y-2 text-sm" data-testid="renewals-expiring-list">
              {expiring.soonest.map((licence) => (
                <li key={licence.keyId} className="min-w-0">
                  <Link
                    to={`/admin/orders/${licence.orderNumber}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    {licence.productName}
                    {licence.variantLabel ? ` (${licence.variantLabel})` : ""}
                  </Link>
                  <span className="block break-all text-slate-600">
                    {licence.email} · {longDate(licence.expiresAt)}
                    {licence.renewed ? " · renewed" : licence.reminded ? " · reminded" : ""}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          {expiring.count > expiring.soonest.length ? (
            <p className="mt-1 text-sm text-slate-600">and {expiring.count - expiring.soonest.length} more</p>
          ) : null}
        </div>
        <div data-testid="renewals-won">
          <p className="text-sm text-slate-600">Renewals won, last 30 days</p>
          <p className="mt-1 text-2xl font-bold text-ink-900" data-testid="renewals-won-revenue">
            {formatMoney(won.revenueCents)}
          </p>
          <p className="text-sm text-slate-600" data-testid="renewals-won-orders">
            {won.orders} {won.orders === 1 ? "order" : "orders"}
            {won.orders > 0 ? `, ${won.afterReminder} after a reminder` : ""}
          </p>
          <p className="mt-2 text-xs text-slate-500">
            An order renews when its customer bought the same product and variant before as a licence that
            expires. Test orders are not counted.{" "}
            <Link to="/admin/settings" className="underline">
              Reminder settings
            </Link>
          </p>
        </div>
      </div>
    </section>
  );
}
