import { data, Form, Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { cellClass, FilterLinks, ListRows, SearchButton } from "~/modules/admin/components/list-controls";
import { ExportLink } from "~/modules/admin/components/order-life";
import { TestOrderBadge, When } from "~/modules/admin/components/orders-parts";
import { invoiceListQuery, listInvoices, listRange, monthSoFar } from "~/modules/admin/invoice-list.server";
import { DOCUMENT_TITLES } from "~/modules/orders/invoice-document";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.invoices";

/** Every invoice and credit note, newest first: found by number, filtered by kind and days, exported as CSV. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = await loadAdminList(
    { request, context },
    { query: invoiceListQuery, load: listInvoices },
  );
  const range = listRange(query);
  return data(
    {
      query,
      page,
      rangeError: range.ok ? null : range.message,
      // The export takes the list's days, or this month so far.
      exportRange: range.ok && range.range ? range.range : monthSoFar(),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Invoices · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const KINDS = [
  [undefined, "All"],
  ["invoice", "Invoices"],
  ["credit_note", "Credit notes"],
] as const;

const inputClass = "mt-1 rounded-lg border border-slate-300 px-3 py-2 text-sm";

/** The number search and the range of days, in one GET form that keeps the kind. */
function Filters({
  query,
  error,
}: {
  query: { q: string; from: string; to: string; kind: string };
  error: string | null;
}) {
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-wrap items-end gap-3"
      aria-describedby="range-error"
    >
      {query.kind !== "all" ? <input type="hidden" name="kind" value={query.kind} /> : null}
      <label className="flex flex-col text-sm font-medium text-ink-900">
        Number
        <input
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder="INV-000123, CN-7 or an order number"
          maxLength={40}
          className={`${inputClass} w-72 max-w-full`}
        />
      </label>
      <label className="flex flex-col text-sm font-medium text-ink-900">
        From
        <input type="date" name="from" defaultValue={query.from} className={inputClass} />
      </label>
      <label className="flex flex-col text-sm font-medium text-ink-900">
        To
        <input type="date" name="to" defaultValue={query.to} className={inputClass} />
      </label>
      <SearchButton />
      {error ? (
        <p
          id="range-error"
          role="alert"
          className="w-full text-sm font-medium text-red-800"
          data-testid="range-error"
        >
          {error}
        </p>
      ) : null}
    </Form>
  );
}

export default function AdminInvoices({ loaderData }: Route.ComponentProps) {
  const { query, page, rangeError, exportRange } = loaderData;
  const exportHref = `/admin/export/invoices.csv?${new URLSearchParams(exportRange).toString()}`;
  return (
    <AdminPage
      title="Invoices"
      intro="Invoices and credit notes, newest first (dates in UTC). Each is issued when an order is paid or refunded and never changes afterwards."
      actions={
        <ExportLink
          to={exportHref}
          label={`Download CSV (${exportRange.from} to ${exportRange.to})`}
          testId="invoices-csv"
        />
      }
    >
      <Filters query={query} error={rangeError} />
      <FilterLinks
        label="Kind of document"
        param="kind"
        options={KINDS}
        current={query.kind === "all" ? undefined : query.kind}
      />
      <ListRows
        caption="Invoices and credit notes"
        columns={[
          { label: "Number" },
          { label: "Date" },
          { label: "Order" },
          { label: "Buyer" },
          { label: "Total", className: "text-right" },
          { label: "PDF" },
        ]}
        query={query}
        total={page.total}
        rows={page.rows}
        empty={
          query.q || query.from || query.to || query.kind !== "all"
            ? "Nothing matches this search."
            : "No invoices yet: an order gets one when it is paid."
        }
      >
        {(row) => (
          <tr key={row.id} data-testid="invoice-row" data-number={row.number} className="hover:bg-slate-50">
            <td className={cellClass}>
              <span className="whitespace-nowrap font-semibold text-ink-900">{row.number}</span>
              {row.isTest ? <TestOrderBadge className="ml-2" /> : null}
              <span className="block text-xs text-slate-600">
                {DOCUMENT_TITLES[row.kind]}
                {row.creditFor ? ` for ${row.creditFor}` : ""}
              </span>
            </td>
            <td className={cellClass}>
              <When iso={row.issuedAt} form="short" />
            </td>
            <td className={cellClass}>
              <Link
                to={`/admin/orders/${row.orderNumber}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                #{row.orderNumber}
              </Link>
            </td>
            <td className={`${cellClass} max-w-56 break-words`}>{row.buyer}</td>
            <td className={`${cellClass} text-right font-medium tabular-nums`}>
              {row.kind === "credit_note"
                ? formatMoney(-row.totalCents, row.currency)
                : formatMoney(row.totalCents, row.currency)}
            </td>
            <td className={cellClass}>
              <a
                href={`/admin/orders/${row.orderNumber}/documents/${row.filename}`}
                download={row.filename}
                className="whitespace-nowrap font-semibold text-brand-700 hover:underline"
                aria-label={`Download ${row.number} (PDF)`}
              >
                Download
              </a>
            </td>
          </tr>
        )}
      </ListRows>
    </AdminPage>
  );
}
