import { data } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { cellClass, HeadCell, SortHeader } from "~/modules/admin/components/list-controls";
import { RecordField, RecordForm, RecordListPage, useListUrl } from "~/modules/admin/components/record-form";
import { readContentForm, reply, saveOrDeleteRecord } from "~/modules/admin/form-actions.server";
import { EditDeleteCell, formatWhen } from "~/modules/admin/content-fields";
import {
  deleteSeoRecord,
  getSeoRecord,
  listSeoPage,
  saveSeoRecord,
  seoListQuery,
} from "~/modules/admin/content.server";
import { loadAdminList } from "~/modules/admin/lists.server";
import { seoFormSchema } from "~/modules/admin/schemas";
import type { Route } from "./+types/admin.seo";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { url, page, query, open, creating } = await loadAdminList(
    { request, context },
    {
      query: seoListQuery,
      load: listSeoPage,
      open: { param: "edit", get: getSeoRecord, notFound: NOT_FOUND },
    },
  );
  return data(
    {
      page,
      query,
      editing: open,
      creating,
      // "New record for this route", from a link elsewhere.
      suggestedRoute: (url.searchParams.get("route") ?? "").slice(0, 300),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "SEO records · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const NOT_FOUND = "No such SEO record: it may have been deleted.";
/** The query keys of the open form, dropped on the way back to the list. */
const FORM_KEYS = ["edit", "new", "route"];

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const done = await saveOrDeleteRecord(request, body.values, {
    schema: seoFormSchema,
    notFound: NOT_FOUND,
    create: (form) => saveSeoRecord(context.db, form, admin.email),
    update: (id, form) => saveSeoRecord(context.db, form, admin.email, id),
    remove: (id) => deleteSeoRecord(context.db, id, admin.email),
    formKeys: FORM_KEYS,
  });
  if (done) return done;
  return reply(400, { message: "Choose what to do with the page's buttons." });
}

type SeoRow = NonNullable<Route.ComponentProps["loaderData"]["editing"]>;

function SeoForm({
  record,
  suggestedRoute,
  cancelTo,
  reply,
}: {
  record: SeoRow | null;
  suggestedRoute: string;
  cancelTo: string;
  reply?: Route.ComponentProps["actionData"];
}) {
  return (
    <RecordForm
      schema={seoFormSchema}
      reply={reply}
      intent={record ? "update" : "create"}
      id={record?.id}
      label={record ? "Save record" : "Add record"}
      cancelTo={cancelTo}
      testId="seo-form"
    >
      <RecordField
        label="Route"
        name="route"
        spellCheck={false}
        stored={record?.route ?? suggestedRoute}
        hint="The page's path, like /antivirus or /antivirus/norton (letters' case does not matter)."
      />
      <RecordField
        label="Title"
        name="title"
        stored={record?.title ?? ""}
        hint="The browser tab and search result title. {store} is the store's name as the settings say it today ({email}, {phone} and {payments} work too, here and below). Empty: the page's own name (a product's name, a brand's title) with the store's name."
      />
      <RecordField
        label="Description"
        name="description"
        rows={3}
        stored={record?.description ?? ""}
        hint="One or two sentences for search results; about 150 characters show."
      />
      <RecordField
        label="Keywords"
        name="keywords"
        stored={record?.keywords ?? ""}
        hint="Separated by commas."
      />
    </RecordForm>
  );
}

export default function SeoPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, editing, creating, suggestedRoute } = loaderData;
  const { withParam } = useListUrl("/admin/seo", FORM_KEYS);
  return (
    <RecordListPage
      path="/admin/seo"
      formKeys={FORM_KEYS}
      title="SEO records"
      intro="Each record sets the title, description and keywords of the page at its route. The storefront uses a change on the next page load."
      newLabel="New record"
      newTestId="new-seo"
      notices={{
        created: "SEO record added.",
        saved: "SEO record saved: the page uses it now.",
        deleted: "SEO record deleted: the page uses its own name and description again.",
      }}
      editing={editing}
      creating={creating}
      reply={actionData}
      formTitle={editing ? `Edit the record of ${editing.route}` : "New SEO record"}
      form={(cancelTo) => (
        <SeoForm record={editing} suggestedRoute={suggestedRoute} cancelTo={cancelTo} reply={actionData} />
      )}
      search={{ label: "Search records", placeholder: "Route or title" }}
      caption="SEO records"
      head={
        <>
          <SortHeader column="route" label="Route" sort={query.sort} dir={query.dir} />
          <SortHeader column="title" label="Title and description" sort={query.sort} dir={query.dir} />
          <HeadCell>Updated</HeadCell>
          <HeadCell>
            <span className="sr-only">Actions</span>
          </HeadCell>
        </>
      }
      columns={4}
      query={query}
      page={page}
      empty={{ search: "No record matches this search.", none: "No SEO records yet." }}
    >
      {page.rows.map((record) => (
        <tr key={record.id} data-testid="seo-row" className={editing?.id === record.id ? "bg-brand-50" : ""}>
          <td className={`${cellClass} font-mono text-xs`}>
            <a
              href={record.route}
              target="_blank"
              rel="noreferrer"
              className="break-all text-brand-700 hover:underline"
            >
              {record.route}
              <span className="sr-only"> (opens the page in a new tab)</span>
            </a>
          </td>
          <td className={`${cellClass} min-w-56 max-w-xl`}>
            <p className="font-semibold text-ink-900">
              {record.title ?? <span className="font-normal italic text-slate-500">No title</span>}
            </p>
            {record.description ? (
              <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{record.description}</p>
            ) : null}
          </td>
          <td className={`${cellClass} whitespace-nowrap text-xs text-slate-600`}>
            {formatWhen(record.updatedAt)}
          </td>
          <EditDeleteCell
            editTo={withParam("edit", String(record.id))}
            id={record.id}
            srLabel={`the record of ${record.route}`}
            confirm={`Delete the SEO record of ${record.route}?`}
          />
        </tr>
      ))}
    </RecordListPage>
  );
}
