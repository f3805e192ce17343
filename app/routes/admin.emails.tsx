import { data, Link, redirect, useLocation } from "react-router";
import { z } from "zod";
import { OUTBOX_STATUSES } from "~db/schema/orders";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { EMAIL_STATUS_LABELS, EmailDetail, EmailStatusBadge } from "~/modules/admin/components/emails-parts";
import {
  cellClass,
  FilterPill,
  ListRows,
  ListSearch,
  withParams,
} from "~/modules/admin/components/list-controls";
import { formatWhen } from "~/modules/admin/components/orders-parts";
import { DoneNotice, FormMessage, RowAction } from "~/modules/admin/content-fields";
import { rowId } from "~/modules/admin/content-schemas";
import {
  emailListQuery,
  emailStatusCounts,
  getEmail,
  listEmails,
  resendEmail,
} from "~/modules/admin/emails.server";
import { backToList, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.emails";

const NOT_FOUND = "There is no such e-mail.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page, open } = await loadAdminList(
    { request, context },
    {
      query: emailListQuery,
      load: (db, query) => Promise.all([listEmails(db, query), emailStatusCounts(db, query.q)]),
      open: { param: "id", get: getEmail, notFound: NOT_FOUND },
    },
  );
  return data({ page: page[0], query, counts: page[1], open }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [
  { title: "E-mails · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const resendSchema = z.object({ intent: z.literal("resend"), id: rowId });

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const parsed = resendSchema.safeParse(body.values);
  if (!parsed.success)
    return reply(400, { message: "Choose an e-mail to send again with its Resend button." });
  const copy = await resendEmail(context.db, parsed.data.id, admin.email);
  if (copy === null) return reply(404, { message: NOT_FOUND });
  context.mailer.kick();
  const back = new URL(backToList(request, "resent"), "http://admin");
  back.searchParams.set("id", String(copy));
  back.searchParams.delete("page");
  return redirect(`${back.pathname}?${back.searchParams.toString()}`);
}

const FILTERS = ["all", ...OUTBOX_STATUSES] as const;

export default function EmailsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, counts, open } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("done");
  const link = (changes: Record<string, string | undefined>) => `/admin/emails${withParams(params, changes)}`;
  return (
    <AdminPage
      title="E-mails"
      intro="Every e-mail the store writes, newest first. Without SMTP_URL they are stored here and sent once it is set; a failed one is retried with growing waits."
    >
      <DoneNotice messages={{ resent: "The e-mail is queued to be sent again: its copy is shown below." }} />
      {actionData ? <FormMessage message={actionData.message} /> : null}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <ListSearch label="Search by recipient or subject" placeholder="name@example.com" />
        <nav aria-label="Status" className="flex flex-wrap gap-2">
          {FILTERS.map((status) => (
            <FilterPill
              key={status}
              to={link({ status: status === "all" ? undefined : status, page: undefined, id: undefined })}
              active={query.status === status}
            >
              {status === "all" ? "All" : EMAIL_STATUS_LABELS[status]}
              {status !== "all" ? (
                <>
                  {" "}
                  <span className="font-normal">({counts[status]})</span>
                </>
              ) : null}
            </FilterPill>
          ))}
        </nav>
      </div>
      <div className={open ? "grid gap-6 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : ""}>
        {open ? (
          <div className="mt-4 min-w-0 2xl:order-2">
            <EmailDetail
              email={open}
              closeTo={link({ id: undefined })}
              resend={
                <RowAction
                  intent="resend"
                  id={open.id}
                  label="Resend this e-mail"
                  confirm={`Send “${open.subject}” to ${open.to} again?`}
                />
              }
            />
          </div>
        ) : null}
        <div className="min-w-0">
          <ListRows
            caption="E-mails"
            columns={[
              { label: "Written", sort: "created" },
              { label: "To", sort: "to" },
              { label: "Subject", sort: "subject" },
              { label: "Status" },
            ]}
            query={query}
            total={page.total}
            rows={page.rows}
            empty={query.q || query.status !== "all" ? "Nothing matches this search." : "No e-mails yet."}
          >
            {(row) => (
              <tr key={row.id} data-testid="email-row" className={open?.id === row.id ? "bg-brand-50" : ""}>
                <td className={`${cellClass} whitespace-nowrap text-xs`}>{formatWhen(row.createdAt)}</td>
                <td className={`${cellClass} max-w-56`}>
                  <p className="truncate text-ink-900">{row.to}</p>
                  {row.orderNumber ? (
                    <p className="text-xs text-slate-600">Order #{row.orderNumber}</p>
                  ) : null}
                </td>
                <td className={`${cellClass} min-w-48 max-w-md`}>
                  <Link to={link({ id: String(row.id) })} className="text-brand-700 hover:underline">
                    {row.subject}
                  </Link>
                </td>
                <td className={cellClass}>
                  <EmailStatusBadge status={row.status} attempts={row.attempts} />
                  {row.lastError && row.status !== "sent" ? (
                    <p className="mt-1 max-w-56 truncate text-xs text-red-800" title={row.lastError}>
                      {row.lastError}
                    </p>
                  ) : null}
                </td>
              </tr>
            )}
          </ListRows>
        </div>
      </div>
    </AdminPage>
  );
}
