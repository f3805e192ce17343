import { Link } from "react-router";
import { formatMoney } from "~/lib/money";
import type { keyEconomics } from "../dashboard.server";

const keysText = (n: number) => `${n} ${n === 1 ? "key" : "keys"}`;
const linesText = (n: number) => `${n} ${n === 1 ? "line" : "lines"}`;

/** The dashboard's licence keys as money: unsold keys at cost, and the last 30 days' margin over key costs. */
export function KeyEconomics({ economics }: { economics: Awaited<ReturnType<typeof keyEconomics>> }) {
  const { pool, month } = economics;
  return (
    <section
      aria-labelledby="key-economics"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4"
      data-testid="key-economics"
    >
      <h2 id="key-economics" className="text-sm font-semibold text-ink-900">
        Licence keys at cost
      </h2>
      <dl className="mt-2 grid gap-4 text-sm sm:grid-cols-2">
        <div data-testid="key-pool-value">
          <dt className="text-slate-600">Unsold keys</dt>
          <dd className="text-xl font-bold tabular-nums text-ink-900">
            {pool.valueCents === 0 && pool.uncosted > 0 ? "Not known" : formatMoney(pool.valueCents)}
          </dd>
          {pool.uncosted > 0 ? (
            <dd className="text-xs text-slate-600">
              {pool.valueCents === 0 ? "" : "and "}
              {keysText(pool.uncosted)} imported without a cost
            </dd>
          ) : null}
        </div>
        <div data-testid="key-margin-month">
          <dt className="text-slate-600">Margin on licences, last 30 days</dt>
          <dd className="text-xl font-bold tabular-nums text-ink-900">
            {month.lines === 0 ? "Not known" : formatMoney(month.marginCents)}
          </dd>
          <dd className="text-xs text-slate-600">
            {month.lines === 0
              ? "No licence sold with its keys' cost on record"
              : `${formatMoney(month.revenueCents)} before tax less ${formatMoney(month.costCents)} of keys, over ${linesText(month.lines)}`}
            {month.uncostedLines > 0
              ? `; ${linesText(month.uncostedLines)} left out: keys without a cost`
              : ""}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-600">
        Costs come from key imports (supplier, cost and batch):{" "}
        <Link to="/admin/keys" className="font-semibold text-brand-700 hover:underline">
          licence keys
        </Link>
        .
      </p>
    </section>
  );
}
