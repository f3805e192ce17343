import { useDeferredValue, useState } from "react";
import { data, Link, redirect, useLocation } from "react-router";
import { fieldErrors } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { DoneNotice, formatWhen } from "~/modules/admin/content-fields";
import { RecordForm } from "~/modules/admin/components/record-form";
import { getPageForEdit, savePage } from "~/modules/admin/content-pages.server";
import { PAGE_LIMITS, pageFormSchema } from "~/modules/admin/content-schemas";
import { Markdown } from "~/modules/content/components/markdown";
import { TextAreaField, TextField } from "~/ui/field";
import { fieldLimits } from "~/lib/field-limits";
import type { Route } from "./+types/admin.page";

const NOT_FOUND = "No such page: the editable pages are listed under Pages.";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const page = await getPageForEdit(context.db, params.slug);
  if (!page) throw data({ message: NOT_FOUND }, { status: 404 });
  if (page.slug !== params.slug) throw redirect(`/admin/pages/${page.slug}`);
  return data({ page }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.page.title ?? "Page"} · Store admin` },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const parsed = pageFormSchema.safeParse(body.values);
  if (!parsed.success)
    return reply(400, { message: FIX_FIELDS, errors: fieldErrors(parsed.error), values: body.values });
  if (!(await savePage(context.db, params.slug, parsed.data, admin.email)))
    return reply(404, { message: NOT_FOUND });
  return redirect(`/admin/pages/${params.slug}?done=saved`);
}

type Page = Route.ComponentProps["loaderData"]["page"];

function PageEditor({ page, reply }: { page: Page; reply?: Route.ComponentProps["actionData"] }) {
  const [title, setTitle] = useState(reply?.values?.title ?? page.title);
  const [body, setBody] = useState(reply?.values?.body ?? page.body);
  // The preview follows the typing without holding it up on a long page.
  const preview = useDeferredValue(body);
  const limits = fieldLimits(pageFormSchema);
  return (
    <RecordForm
      schema={pageFormSchema}
      reply={reply}
      intent="save"
      label="Save page"
      cancelTo="/admin/pages"
      testId="page-form"
    >
      {(errors) => (
        <>
          <TextField
            label="Title"
            name="title"
            {...limits.title}
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={errors.title}
          />
          <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
            <div className="[&_textarea]:font-mono [&_textarea]:leading-relaxed">
              <TextAreaField
                label="Body (Markdown)"
                name="body"
                {...limits.body}
                rows={24}
                value={body}
                onChange={(event) => setBody(event.currentTarget.value)}
                error={errors.body}
                spellCheck
                hint="## for a heading, **bold**, *italic*, - for a list, [text](/contact) for a link. HTML is not shown. {store}, {email}, {phone} and {payments} become the store's name, support e-mail, phone and how buyers can pay, as the settings say today."
              />
              <p className="mt-1 text-right text-xs text-slate-500">
                {body.length.toLocaleString("en-US")} / {PAGE_LIMITS.body.toLocaleString("en-US")} characters
              </p>
            </div>
            <section aria-labelledby="preview-heading" className="min-w-0">
              <h2 id="preview-heading" className="text-sm font-medium text-ink-800">
                Preview
              </h2>
              <div
                className="mt-1 max-h-[38rem] overflow-y-auto rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm"
                data-testid="page-preview"
              >
                <h1 className="mb-6 text-3xl font-extrabold tracking-tight text-ink-900">{title}</h1>
                <Markdown>{preview}</Markdown>
              </div>
            </section>
          </div>
        </>
      )}
    </RecordForm>
  );
}

export default function PageEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { page } = loaderData;
  const location = useLocation();
  return (
    <AdminPage
      title={`Edit “${page.title}”`}
      intro={`Last updated ${formatWhen(page.updatedAt)}. Saving shows the page as updated now.`}
      actions={
        <div className="flex flex-wrap gap-4">
          <a
            href={`/${page.slug}`}
            target="_blank"
            rel="noreferrer"
            className="text-sm font-semibold text-brand-700 hover:underline"
          >
            View /{page.slug}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
          <Link to="/admin/pages" className="text-sm font-semibold text-brand-700 hover:underline">
            All pages
          </Link>
        </div>
      }
    >
      <DoneNotice messages={{ saved: "Page saved: the storefront shows it now." }} />
      <PageEditor key={`${String(page.updatedAt)}:${location.key}`} page={page} reply={actionData} />
    </AdminPage>
  );
}
