import { Form, Link, useNavigation } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import type { KeyReportQuery, KeyReportRow } from "../key-reports.server";
import { REPLY_MAX, REPLY_MIN } from "../key-reports";
import { ActionNotice, AdminPage } from "./admin-page";
import { FilterLinks, Pagination } from "./list-controls";
import { StatusPill } from "./status-pill";

export type KeyReportReply = ActionReply<{ reportId?: number }>;

const STATUS_FILTERS = [
  ["open", "Open"],
  ["replaced", "Replaced"],
  ["rejected", "Rejected"],
  ["refunded", "Refunded"],
  ["all", "All"],
] as const;

const STATUS_LABEL: Record<KeyReportRow["status"], string> = {
  open: "Open",
  replaced: "Replaced",
  rejected: "Rejected",
  refunded: "Refunded",
};

const DAY = 24 * 60 * 60 * 1000;

/** How long ago, in the largest whole unit: "just now", "5 hours ago", "3 days ago". */
function age(iso: string, now: string) {
  const ms = Math.max(0, Date.parse(now) - Date.parse(iso));
  const units: Array<[number, string]> = [
    [DAY, "day"],
    [60 * 60 * 1000, "hour"],
    [60 * 1000, "minute"],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  }) + " UTC";

/** The owner's queue of keys customers say do not work: replace each from its pool, or turn it down with a reply. */
export function KeyReportsPage({
  query,
  page,
  open,
  now,
  reply,
}: {
  query: KeyReportQuery;
  page: { rows: KeyReportRow[]; total: number };
  open: number;
  now: string;
  reply?: KeyReportReply;
}) {
  return (
    <AdminPage
      title="Key reports"
      intro={`Keys customers say do not work${open > 0 ? ` (${open} open)` : ""}. Replace a key from the same pool (it keeps the old key's expiry) or reject the report with a reply; the customer is e-mailed either way.`}
      actions={
        <Link
          to="/admin/keys"
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
        >
          Key pools
        </Link>
      }
    >
      <ActionNotice result={reply} />
      <FilterLinks label="Report status" param="status" options={STATUS_FILTERS} current={query.status} />
      {page.rows.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600" data-testid="key-reports-empty">
          {query.status === "open"
            ? "No open reports: every reported key has been answered."
            : "No reports here."}
        </p>
      ) : (
        <ol className="mt-6 space-y-4" data-testid="key-reports">
          {page.rows.map((row) => (
            <ReportItem
              key={row.id}
              row={row}
              now={now}
              replyError={reply && !reply.ok && reply.reportId === row.id ? reply.errors?.reply : undefined}
            />
          ))}
        </ol>
      )}
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}

function ReportItem({ row, now, replyError }: { row: KeyReportRow; now: string; replyError?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("reportId") === String(row.id);
  const headingId = `report-${row.id}`;
  const fieldId = `report-${row.id}-reply`;
  return (
    <li
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      aria-labelledby={headingId}
      data-testid="key-report"
      data-report-id={row.id}
      data-status={row.status}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="font-bold text-ink-900">
            {row.product}
            {row.variant ? <span className="font-normal text-slate-700"> · {row.variant}</span> : null}
          </h2>
          <p className="mt-0.5 text-sm text-slate-700">
            Key <span className="font-mono">{row.keyHint}</span> ·{" "}
            <Link
              to={`/admin/orders/${row.orderNumber}`}
              className="font-semibold text-brand-700 hover:underline"
            >
              {`Order #${row.orderNumber}`}
            </Link>
          </p>
          <p className="break-all text-sm text-slate-700" data-testid="key-report-customer">
            {row.customer.name ? `${row.customer.name} · ` : ""}
            {row.customer.email}
          </p>
        </div>
        <p className="text-sm text-slate-600">
          <StatusPill
            tone={row.status === "open" ? "waiting" : row.status === "replaced" ? "done" : "closed"}
            testId="key-report-status"
          >
            {STATUS_LABEL[row.status]}
          </StatusPill>{" "}
          <time dateTime={row.createdAt} title={when(row.createdAt)}>
            reported {age(row.createdAt, now)}
          </time>
        </p>
      </div>
      <blockquote className="mt-3 whitespace-pre-line break-words border-l-4 border-slate-200 pl-3 text-sm text-ink-900">
        {row.reason}
      </blockquote>
      {row.status === "open" ? (
        <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
          <Form method="post" data-testid="key-report-replace">
            <input type="hidden" name="intent" value="replace" />
            <input type="hidden" name="reportId" value={row.id} />
            <button
              type="submit"
              disabled={busy}
              className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
            >
              Replace the key
              <span className="sr-only">
                {" "}
                of {row.product}, order #{row.orderNumber}
              </span>
            </button>
            <p
              className={`mt-1 text-xs ${row.poolAvailable === 0 ? "font-semibold text-red-700" : "text-slate-600"}`}
              data-testid="key-report-pool"
            >
              {row.poolAvailable === 0
                ? "No unused key left in this pool"
                : `${row.poolAvailable} unused ${row.poolAvailable === 1 ? "key" : "keys"} in this pool`}
            </p>
          </Form>
          <details className="min-w-0 flex-1 text-sm" open={replyError ? true : undefined}>
            <summary className="cursor-pointer rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-ink-900 hover:bg-slate-50 sm:inline-block">
              Reject<span className="sr-only"> the report of order #{row.orderNumber}</span>
            </summary>
            <Form method="post" className="mt-2 space-y-2" data-testid="key-report-reject">
              <input type="hidden" name="intent" value="reject" />
              <input type="hidden" name="reportId" value={row.id} />
              <label htmlFor={fieldId} className="block text-slate-700">
                Your reply to the customer ({REPLY_MIN} to {REPLY_MAX} characters)
              </label>
              <textarea
                id={fieldId}
                name="reply"
                required
                minLength={REPLY_MIN}
                maxLength={REPLY_MAX}
                rows={3}
                aria-invalid={replyError ? true : undefined}
                aria-describedby={replyError ? `${fieldId}-error` : undefined}
                className={`block w-full rounded-lg border px-3 py-2 ${replyError ? "border-red-500" : "border-slate-300"}`}
              />
              {replyError ? (
                <p id={`${fieldId}-error`} className="text-red-700">
                  {replyError}
                </p>
              ) : null}
              <button
                type="submit"
                disabled={busy}
                className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-ink-900 hover:bg-slate-50 disabled:text-slate-400"
              >
                Reject and send the reply
              </button>
            </Form>
          </details>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-700" data-testid="key-report-answer">
          {row.status === "replaced"
            ? `Replaced by ${row.replacementHint ?? "a key since removed"}`
            : row.status === "refunded"
              ? "Closed by the refund of its order line: the key was withdrawn"
              : `Rejected: “${row.reply ?? ""}”`}
          {row.resolvedAt ? ` · ${when(row.resolvedAt)}` : ""}
          {row.resolvedBy ? ` · ${row.resolvedBy.replace(/^admin:/, "")}` : ""}
        </p>
      )}
    </li>
  );
}
