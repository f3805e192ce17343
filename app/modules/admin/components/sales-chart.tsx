import { formatMoney } from "~/lib/money";

type Day = { day: string; revenueCents: number; orders: number };

/** Revenue per day for the last 30 days as bars, with a table of the same numbers for screen readers. */
export function SalesChart({ days }: { days: Day[] }) {
  const max = Math.max(1, ...days.map((entry) => entry.revenueCents));
  const width = 600;
  const height = 160;
  const bar = width / Math.max(days.length, 1);
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4" data-testid="sales-chart">
      <figcaption className="text-sm font-semibold text-ink-900">
        Revenue in US dollars, last 30 days
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} className="mt-3 h-48 w-full" aria-hidden="true">
        {days.map((entry, index) => {
          const h = Math.round((entry.revenueCents / max) * height);
          return (
            <g key={entry.day}>
              <rect
                x={index * bar + 2}
                y={height - h}
                width={bar - 4}
                height={Math.max(h, entry.revenueCents > 0 ? 2 : 0)}
                rx={2}
                className="fill-brand-600"
              >
                <title>{`${entry.day}: ${formatMoney(entry.revenueCents)}, ${entry.orders} orders`}</title>
              </rect>
            </g>
          );
        })}
        <line x1={0} x2={width} y1={height} y2={height} className="stroke-slate-300" />
        <text x={0} y={height + 16} className="fill-slate-500 text-[11px]">
          {days[0]?.day}
        </text>
        <text x={width} y={height + 16} textAnchor="end" className="fill-slate-500 text-[11px]">
          {days.at(-1)?.day}
        </text>
      </svg>
      <table className="sr-only">
        <caption>Revenue per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Orders</th>
            <th scope="col">Revenue</th>
          </tr>
        </thead>
        <tbody>
          {days.map((entry) => (
            <tr key={entry.day}>
              <td>{entry.day}</td>
              <td>{entry.orders}</td>
              <td>{formatMoney(entry.revenueCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
