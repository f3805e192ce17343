import { ORDER_STATUS_LABELS } from "~/modules/orders/labels";

const STATUS_STYLES: Record<string, string> = {
  pending_payment: "bg-amber-100 text-amber-900",
  paid: "bg-sky-100 text-sky-900",
  held: "bg-orange-100 text-orange-900",
  fulfilled: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-slate-200 text-slate-800",
  refunded: "bg-rose-100 text-rose-900",
};

/** An order's status as a coloured label. */
export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status] ?? "bg-slate-100 text-slate-800"}`}
      data-testid="order-status-badge"
      data-status={status}
    >
      {ORDER_STATUS_LABELS[status] ?? status}
    </span>
  );
}

/** Marks an order placed while the store took test payments: no money moved, and revenue leaves it out. */
export function TestOrderBadge({ className = "" }: { className?: string }) {
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full border border-violet-300 bg-violet-50 px-2 py-0.5 text-xs font-semibold text-violet-900 ${className}`}
      title="Placed while test payments were on: no money moved, not counted in revenue"
      data-testid="test-order-badge"
    >
      Test
    </span>
  );
}

export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  "bank-transfer": "Bank transfer",
  stripe: "Card (Stripe)",
  sandbox: "Sandbox (test payment)",
  none: "Nothing to pay (0.00)",
};

export const PAYMENT_STATUS_LABELS: Record<string, string> = {
  pending: "Not paid yet",
  paid: "Paid",
  failed: "Failed",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
};

/** A time for the admin: date and time in UTC, the same for every admin wherever they are. */
export function formatWhen(iso: string | null | undefined, form: "full" | "short" | "date" = "full"): string {
  if (!iso) return "never";
  const text = new Date(iso).toLocaleString("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...(form === "date" ? {} : { hour: "2-digit", minute: "2-digit" }),
    timeZone: "UTC",
  });
  return form === "full" ? `${text} UTC` : text;
}

/** A time element that reads as text and carries the exact instant; lists use the short forms (UTC, said once). */
export function When({
  iso,
  form = "full",
}: {
  iso: string | null | undefined;
  form?: "full" | "short" | "date";
}) {
  if (!iso) return <span className="text-slate-500">never</span>;
  return (
    <time dateTime={iso} title={formatWhen(iso)} className="whitespace-nowrap">
      {formatWhen(iso, form)}
    </time>
  );
}
