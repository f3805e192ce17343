import { Link, useLocation } from "react-router";
import { formatMoney } from "~/lib/money";
import { ButtonLink } from "~/ui/button";
import { DoneNotice, FormMessage, RowAction } from "../content-fields";
import type { PromotionRow } from "../promotions.server";
import {
  PROMOTION_STATUS_LABELS,
  PROMOTION_STATUSES,
  type PromotionListQuery,
  type PromotionStatus,
} from "../promotions-schemas";
import { AdminPage } from "./admin-page";
import { cellClass, FilterPill, ListRows, ListSearch, withParams } from "./list-controls";
import { When } from "./orders-parts";

const STATUS_TONES: Record<PromotionStatus, string> = {
  active: "bg-emerald-100 text-emerald-900",
  scheduled: "bg-sky-100 text-sky-900",
  expired: "bg-slate-200 text-slate-800",
  paused: "bg-amber-100 text-amber-900",
  used_up: "bg-rose-100 text-rose-900",
};

/** Where a code stands, as a coloured label. */
export function PromotionStatusBadge({ status }: { status: PromotionStatus }) {
  return (
    <span
      data-testid="promotion-status"
      data-status={status}
      className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}
    >
      {PROMOTION_STATUS_LABELS[status]}
    </span>
  );
}

/** Uses of a code against its limit: "3 of 5", or "3" with no limit. */
export const usesText = (uses: number, limit: number | null) =>
  limit === null
    ? `${uses.toLocaleString("en-US")} (no limit)`
    : `${uses.toLocaleString("en-US")} of ${limit.toLocaleString("en-US")}`;

export const DONE_MESSAGES = {
  created: "Discount code added.",
  saved: "Discount code saved.",
  paused: "Code paused: checkout refuses it until you resume it.",
  resumed: "Code resumed: checkout takes it again while its dates and limits allow.",
  deleted: "Discount code deleted.",
};

/** The discount codes list (/admin/promotions): search, status filter, each code's terms, uses and revenue. */
export function PromotionsList({
  page,
  query,
  counts,
  reply,
}: {
  page: { rows: PromotionRow[]; total: number };
  query: PromotionListQuery;
  counts: Record<PromotionStatus, number>;
  reply?: { message?: string };
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("done");
  const link = (changes: Record<string, string | undefined>) =>
    `/admin/promotions${withParams(params, changes)}`;
  const all = PROMOTION_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  return (
    <AdminPage
      title="Discount codes"
      intro="Codes customers type at checkout. Revenue counts the orders placed with a code that were not cancelled, less refunds. Times are UTC."
      actions={
        <ButtonLink to="/admin/promotions/new" data-testid="new-promotion">
          New discount code
        </ButtonLink>
      }
    >
      <DoneNotice messages={DONE_MESSAGES} />
      {reply?.message ? <FormMessage message={reply.message} /> : null}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <ListSearch label="Search codes" placeholder="Code or description" />
        <nav aria-label="Status" className="flex flex-wrap gap-2">
          {(["all", ...PROMOTION_STATUSES] as const).map((status) => (
            <FilterPill
              key={status}
              to={link({ status: status === "all" ? undefined : status, page: undefined })}
              active={query.status === status}
            >
              {status === "all" ? "All" : PROMOTION_STATUS_LABELS[status]}
              <span className="ml-1 font-normal">({status === "all" ? all : counts[status]})</span>
            </FilterPill>
          ))}
        </nav>
      </div>
      <ListRows
        caption="Discount codes"
        columns={[
          { label: "Code", sort: "code" },
          { label: "Terms" },
          { label: "Status" },
          { label: "Uses", sort: "uses", className: "text-right" },
          { label: "Revenue", sort: "revenue", className: "text-right" },
          { label: "Runs until", sort: "ends" },
          { label: <span className="sr-only">Actions</span> },
        ]}
        query={query}
        total={page.total}
        rows={page.rows}
        empty={query.q || query.status !== "all" ? "No discount code matches." : "No discount codes yet."}
      >
        {(row) => (
          <tr key={row.id} data-testid="promotion-row" data-code={row.code} className="hover:bg-slate-50">
            <td className={`${cellClass} min-w-36`}>
              <Link
                to={`/admin/promotions/${row.id}`}
                className="break-all font-mono font-semibold text-brand-700 hover:underline"
              >
                {row.code}
              </Link>
              {row.description ? (
                <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{row.description}</p>
              ) : null}
            </td>
            <td className={`${cellClass} min-w-48 max-w-sm`} data-testid="promotion-terms">
              {row.terms}
              {row.perCustomerLimit !== null ? (
                <p className="text-xs text-slate-600">
                  {row.perCustomerLimit === 1 ? "Once" : `${row.perCustomerLimit} times`} per customer
                </p>
              ) : null}
            </td>
            <td className={cellClass}>
              <PromotionStatusBadge status={row.status} />
            </td>
            <td
              className={`${cellClass} whitespace-nowrap text-right tabular-nums`}
              data-testid="promotion-uses"
            >
              {usesText(row.uses, row.usageLimit)}
            </td>
            <td
              className={`${cellClass} whitespace-nowrap text-right tabular-nums`}
              data-testid="promotion-revenue"
            >
              {formatMoney(row.revenueCents, row.currency)}
              <p className="text-xs text-slate-600">
                {row.orders} {row.orders === 1 ? "order" : "orders"} ·{" "}
                {formatMoney(row.discountCents, row.currency)} off
              </p>
            </td>
            <td className={cellClass}>
              {row.endsAt ? (
                <When iso={row.endsAt} form="short" />
              ) : (
                <span className="text-slate-600">No end</span>
              )}
              {row.startsAt && row.status === "scheduled" ? (
                <p className="text-xs text-slate-600">
                  from <When iso={row.startsAt} form="short" />
                </p>
              ) : null}
            </td>
            <td className={`${cellClass} whitespace-nowrap text-right`}>
              <Link
                to={`/admin/promotions/${row.id}`}
                className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline"
              >
                Edit<span className="sr-only"> {row.code}</span>
              </Link>
              <RowAction
                intent={row.status === "paused" ? "resume" : "pause"}
                id={row.id}
                label={row.status === "paused" ? "Resume" : "Pause"}
                srLabel={row.code}
              />
              {row.ordersPlaced === 0 && row.uses === 0 ? (
                <RowAction
                  intent="delete"
                  id={row.id}
                  label="Delete"
                  srLabel={row.code}
                  tone="danger"
                  confirm={`Delete the discount code ${row.code}?`}
                />
              ) : null}
            </td>
          </tr>
        )}
      </ListRows>
    </AdminPage>
  );
}
