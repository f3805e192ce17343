import { data, Link, redirect, useLocation } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  cellClass,
  FilterPill,
  ListRows,
  ListSearch,
  OpenRecord,
} from "~/modules/admin/components/list-controls";
import { backToList, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { DoneNotice, formatWhen, FormMessage, RowAction } from "~/modules/admin/content-fields";
import {
  getContactMessage,
  getQuoteRequest,
  listInbox,
  messageListQuery,
  openCounts,
  setMessageHandled,
} from "~/modules/admin/content-messages.server";
import { MESSAGE_KINDS, rowId } from "~/modules/admin/content-schemas";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Database } from "~db/client.server";
import { z } from "zod";
import type { Route } from "./+types/admin.messages";

const NOT_FOUND = "No such message: it may have been deleted.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page, open } = await loadAdminList(
    { request, context },
    {
      query: messageListQuery,
      load: (db, query) => Promise.all([listInbox(db, query), openCounts(db)]),
      open: { param: "id", get: openMessage, notFound: NOT_FOUND },
    },
  );
  return data({ page: page[0], query, counts: page[1], open }, { headers: PRIVATE_HEADERS });
}

/** The message the URL opens, of the list's kind, as the page shows either kind. */
async function openMessage(db: Database, id: number, query: { kind: string }) {
  const message = query.kind === "contact" ? await getContactMessage(db, id) : await getQuoteRequest(db, id);
  if (!message) return null;
  return "subject" in message
    ? {
        kind: "contact" as const,
        id: message.id,
        name: message.name,
        email: message.email,
        phone: message.phone,
        heading: message.subject,
        company: "",
        message: message.message,
        createdAt: message.createdAt,
        handledAt: message.readAt,
      }
    : {
        kind: "quote" as const,
        id: message.id,
        name: message.name,
        email: message.email,
        phone: message.phone,
        heading: `Quote for ${message.serviceTitle}${message.packageName ? ` · ${message.packageName}` : " (package not chosen)"}`,
        company: message.company,
        message: message.message,
        createdAt: message.createdAt,
        handledAt: message.handledAt,
      };
}

export const meta: Route.MetaFunction = () => [
  { title: "Messages · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const handledSchema = z.object({
  intent: z.enum(["handled", "reopen"]),
  kind: z.enum(MESSAGE_KINDS),
  id: rowId,
});

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const parsed = handledSchema.safeParse(body.values);
  if (!parsed.success) return reply(400, { message: "Choose what to do with the page's buttons." });
  const { intent, kind, id } = parsed.data;
  if (!(await setMessageHandled(context.db, kind, id, intent === "handled", admin.email)))
    return reply(404, { message: NOT_FOUND });
  return redirect(backToList(request, intent, []));
}

const KIND_LABELS = { contact: "Contact messages", quote: "Quote requests" } as const;
const STATUS_LABELS = { all: "All", open: "Open", handled: "Handled" } as const;

type Open = NonNullable<Route.ComponentProps["loaderData"]["open"]>;

function MessageDetail({ message, closeTo }: { message: Open; closeTo: string }) {
  const fields: Array<[string, React.ReactNode]> = [
    ["From", message.name],
    [
      "E-mail",
      <a key="email" href={`mailto:${message.email}`} className="break-all text-brand-700 underline">
        {message.email}
      </a>,
    ],
    ["Phone", message.phone || "—"],
    ...(message.kind === "quote" ? [["Company", message.company || "—"] as [string, React.ReactNode]] : []),
    ["Received", formatWhen(message.createdAt)],
    ["Status", message.handledAt ? `Handled ${formatWhen(message.handledAt)}` : "Open"],
  ];
  return (
    <OpenRecord name="message" heading={message.heading} closeTo={closeTo} facts={fields}>
      <p
        className="mt-4 whitespace-pre-wrap break-words rounded-xl bg-slate-50 p-4 text-sm leading-relaxed text-ink-900"
        data-testid="message-text"
      >
        {message.message}
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <a
          href={`mailto:${message.email}?subject=${encodeURIComponent(`Re: ${message.heading}`)}`}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Reply by e-mail
        </a>
        <RowAction
          intent={message.handledAt ? "reopen" : "handled"}
          id={message.id}
          fields={{ kind: message.kind }}
          label={message.handledAt ? "Mark as open" : "Mark as handled"}
        />
      </div>
    </OpenRecord>
  );
}

export default function MessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, counts, open } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("done");
  const link = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(key);
      else next.set(key, value);
    }
    const text = next.toString();
    return `/admin/messages${text ? `?${text}` : ""}`;
  };
  return (
    <AdminPage
      title="Messages"
      intro="Messages from the contact form and quote requests from the digital-service pages, newest first."
    >
      <DoneNotice messages={{ handled: "Marked as handled.", reopen: "Marked as open again." }} />
      {actionData ? <FormMessage message={actionData.message} /> : null}
      <nav aria-label="Inbox" className="flex flex-wrap gap-2">
        {MESSAGE_KINDS.map((kind) => (
          <FilterPill key={kind} to={`/admin/messages?kind=${kind}`} active={query.kind === kind}>
            {KIND_LABELS[kind]}
            {counts[kind] > 0 ? (
              <span className="ml-1.5 rounded-full bg-amber-200 px-1.5 text-xs text-amber-950">
                {counts[kind]} open
              </span>
            ) : null}
          </FilterPill>
        ))}
      </nav>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
        <ListSearch label="Search by e-mail" placeholder="name@example.com" />
        <nav aria-label="Status" className="flex flex-wrap gap-2">
          {(["all", "open", "handled"] as const).map((status) => (
            <FilterPill
              key={status}
              to={link({ status: status === "all" ? undefined : status, page: undefined, id: undefined })}
              active={query.status === status}
            >
              {STATUS_LABELS[status]}
            </FilterPill>
          ))}
        </nav>
      </div>
      <div className={open ? "grid gap-6 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : ""}>
        {open ? (
          <div className="mt-4 2xl:order-2">
            <MessageDetail message={open} closeTo={link({ id: undefined })} />
          </div>
        ) : null}
        <div className="min-w-0">
          <ListRows
            caption={KIND_LABELS[query.kind]}
            columns={[
              { label: "Received", sort: "received" },
              { label: "From", sort: "email" },
              { label: query.kind === "contact" ? "Subject" : "Service" },
              { label: "Status" },
            ]}
            query={query}
            total={page.total}
            rows={page.rows}
            empty={
              query.q || query.status !== "all"
                ? "Nothing matches this search."
                : `No ${KIND_LABELS[query.kind].toLowerCase()} yet.`
            }
          >
            {(row) => (
              <tr
                key={row.id}
                data-testid="message-row"
                className={`${open?.id === row.id ? "bg-brand-50" : ""} ${row.handledAt ? "" : "font-semibold"}`}
              >
                <td className={`${cellClass} whitespace-nowrap text-xs`}>{formatWhen(row.createdAt)}</td>
                <td className={`${cellClass} max-w-56`}>
                  <p className="truncate text-ink-900">{row.name}</p>
                  <p className="truncate text-xs font-normal text-slate-600">{row.email}</p>
                </td>
                <td className={`${cellClass} min-w-48 max-w-md`}>
                  <Link to={link({ id: String(row.id) })} className="text-brand-700 hover:underline">
                    {row.subject}
                  </Link>
                </td>
                <td className={cellClass}>
                  <span
                    className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                      row.handledAt ? "bg-slate-200 text-slate-700" : "bg-amber-100 text-amber-900"
                    }`}
                  >
                    {row.handledAt ? "Handled" : "Open"}
                  </span>
                </td>
              </tr>
            )}
          </ListRows>
        </div>
      </div>
    </AdminPage>
  );
}
