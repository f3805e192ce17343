import { data, Form, useLocation } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage, Panel } from "~/modules/admin/components/admin-page";
import {
  cellClass,
  HeadCell,
  ListSearch,
  ListTable,
  Pagination,
  SortHeader,
  withParams,
} from "~/modules/admin/components/list-controls";
import { readContentForm, reply, saveOrDeleteRecord } from "~/modules/admin/form-actions.server";
import {
  DoneNotice,
  formatWhen,
  FormButtons,
  FormMessage,
  EditDeleteCell,
} from "~/modules/admin/content-fields";
import { rowId } from "~/modules/admin/content-schemas";
import {
  deleteSeoRecord,
  getSeoRecord,
  listSeoPage,
  saveSeoRecord,
  seoListQuery,
} from "~/modules/admin/content.server";
import { readListQuery } from "~/modules/admin/list-query";
import { seoFormSchema } from "~/modules/admin/schemas";
import { ButtonLink } from "~/ui/button";
import { TextAreaField, TextField } from "~/ui/field";
import { useFormCheck } from "~/lib/use-form-check";
import type { Route } from "./+types/admin.seo";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const query = readListQuery(seoListQuery, request);
  let editing = null;
  if (url.searchParams.has("edit")) {
    const id = rowId.safeParse(url.searchParams.get("edit"));
    editing = id.success ? await getSeoRecord(context.db, id.data) : null;
    if (!editing) throw data({ message: NOT_FOUND }, { status: 404 });
  }
  const page = await listSeoPage(context.db, query);
  return data(
    {
      page,
      query,
      editing,
      creating: !editing && url.searchParams.get("new") === "1",
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
    formKeys: ["edit", "new", "route"],
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
  const { errors, onSubmit, onChange, formRef } = useFormCheck(seoFormSchema, reply?.errors);
  const values = reply?.values;
  const pick = (field: string, fallback: string) => values?.[field] ?? fallback;
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={onChange}
      className="space-y-4"
      data-testid="seo-form"
    >
      <input type="hidden" name="intent" value={record ? "update" : "create"} />
      {record ? <input type="hidden" name="id" value={record.id} /> : null}
      <FormMessage message={reply?.message} />
      <TextField
        label="Route"
        name="route"
        required
        spellCheck={false}
        maxLength={300}
        defaultValue={pick("route", record?.route ?? suggestedRoute)}
        error={errors.route}
        hint="The page's path, like /antivirus or /antivirus/norton (letters' case does not matter)."
      />
      <TextField
        label="Title"
        name="title"
        maxLength={200}
        defaultValue={pick("title", record?.title ?? "")}
        error={errors.title}
        hint="The browser tab and search result title. {store} is the store's name as the settings say it today ({email}, {phone} and {payments} work too, here and below). Empty: the page's own name (a product's name, a brand's title) with the store's name."
      />
      <TextAreaField
        label="Description"
        name="description"
        rows={3}
        maxLength={500}
        defaultValue={pick("description", record?.description ?? "")}
        error={errors.description}
        hint="One or two sentences for search results; about 150 characters show."
      />
      <TextField
        label="Keywords"
        name="keywords"
        maxLength={500}
        defaultValue={pick("keywords", record?.keywords ?? "")}
        error={errors.keywords}
        hint="Separated by commas."
      />
      <FormButtons label={record ? "Save record" : "Add record"} cancelTo={cancelTo} />
    </Form>
  );
}

export default function SeoPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, editing, creating, suggestedRoute } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  for (const key of ["edit", "new", "done", "route"]) params.delete(key);
  const listUrl = `/admin/seo${params.size ? `?${params}` : ""}`;
  const withParam = (key: string, value: string) => withParams(params, { [key]: value });
  const formOpen = Boolean(editing) || creating || actionData?.intent === "create";
  const rowMessage = actionData && !actionData.errors && !formOpen ? actionData : null;
  return (
    <AdminPage
      title="SEO records"
      intro="Each record sets the title, description and keywords of the page at its route. The storefront uses a change on the next page load."
      actions={
        formOpen ? null : (
          <ButtonLink to={withParam("new", "1")} data-testid="new-seo">
            New record
          </ButtonLink>
        )
      }
    >
      <DoneNotice
        messages={{
          created: "SEO record added.",
          saved: "SEO record saved: the page uses it now.",
          deleted: "SEO record deleted: the page uses its own name and description again.",
        }}
      />
      {rowMessage ? <FormMessage message={rowMessage.message} /> : null}
      {formOpen ? (
        <div className="mb-8">
          <Panel title={editing ? `Edit the record of ${editing.route}` : "New SEO record"}>
            <SeoForm
              key={`${editing?.id ?? "new"}:${location.key}`}
              record={editing}
              suggestedRoute={suggestedRoute}
              cancelTo={listUrl}
              reply={actionData}
            />
          </Panel>
        </div>
      ) : null}
      <ListSearch label="Search records" placeholder="Route or title" />
      <ListTable
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
      >
        {page.rows.length === 0 ? (
          <tr>
            <td colSpan={4} className={`${cellClass} py-6 text-center text-slate-600`}>
              {query.q ? "No record matches this search." : "No SEO records yet."}
            </td>
          </tr>
        ) : (
          page.rows.map((record) => (
            <tr
              key={record.id}
              data-testid="seo-row"
              className={editing?.id === record.id ? "bg-brand-50" : ""}
            >
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
          ))
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}
