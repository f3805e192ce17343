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
import {
  blogListQuery,
  createBlogPost,
  deleteBlogPost,
  getBlogPost,
  listBlogPosts,
  updateBlogPost,
} from "~/modules/admin/blogs.server";
import { readContentForm, reply, saveOrDeleteRecord } from "~/modules/admin/form-actions.server";
import {
  DoneNotice,
  formatDay,
  FormButtons,
  FormMessage,
  ImageField,
  EditDeleteCell,
} from "~/modules/admin/content-fields";
import { BLOG_LIMITS, blogFormSchema, rowId } from "~/modules/admin/content-schemas";
import { readListQuery } from "~/modules/admin/list-query";
import { ButtonLink } from "~/ui/button";
import { TextAreaField, TextField } from "~/ui/field";
import { useFormCheck } from "~/lib/use-form-check";
import type { Route } from "./+types/admin.blogs";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const query = readListQuery(blogListQuery, request);
  let editing = null;
  if (url.searchParams.has("edit")) {
    const id = rowId.safeParse(url.searchParams.get("edit"));
    editing = id.success ? await getBlogPost(context.db, id.data) : null;
    if (!editing) throw data({ message: "No such blog teaser: it may have been deleted." }, { status: 404 });
  }
  const page = await listBlogPosts(context.db, query);
  return data(
    {
      page,
      query,
      editing,
      creating: !editing && url.searchParams.get("new") === "1",
      today: new Date().toISOString().slice(0, 10),
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Blog teasers · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const NOT_FOUND = "No such blog teaser: it may have been deleted.";

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const done = await saveOrDeleteRecord(request, body.values, {
    schema: blogFormSchema,
    notFound: NOT_FOUND,
    create: (form) => createBlogPost(context.db, form, admin.email),
    update: (id, form) => updateBlogPost(context.db, id, form, admin.email),
    remove: (id) => deleteBlogPost(context.db, id, admin.email),
  });
  if (done) return done;
  return reply(400, { message: "Choose what to do with the page's buttons." });
}

type Post = NonNullable<Route.ComponentProps["loaderData"]["editing"]>;

function BlogForm({
  post,
  today,
  cancelTo,
  reply,
}: {
  post: Post | null;
  today: string;
  cancelTo: string;
  reply?: Route.ComponentProps["actionData"];
}) {
  const { errors, onSubmit, onChange, formRef } = useFormCheck(blogFormSchema, reply?.errors);
  const values = reply?.values ?? {};
  const pick = (field: keyof typeof values & string, fallback: string) => values[field] ?? fallback;
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={onChange}
      className="space-y-4"
      data-testid="blog-form"
    >
      <input type="hidden" name="intent" value={post ? "update" : "create"} />
      {post ? <input type="hidden" name="id" value={post.id} /> : null}
      <FormMessage message={reply?.message} />
      <TextField
        label="Title"
        name="title"
        required
        maxLength={BLOG_LIMITS.title}
        defaultValue={pick("title", post?.title ?? "")}
        error={errors.title}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Slug"
          name="slug"
          required
          maxLength={BLOG_LIMITS.slug}
          spellCheck={false}
          defaultValue={pick("slug", post?.slug ?? "")}
          error={errors.slug}
          hint="The post's address on the blog: /blog/{slug}. Lower-case words joined by hyphens."
        />
        <TextField
          label="Published on"
          name="publishedAt"
          type="date"
          required
          defaultValue={pick("publishedAt", post?.publishedAt ?? today)}
          error={errors.publishedAt}
          hint="The home page shows the three newest teasers."
        />
      </div>
      <TextAreaField
        label="Excerpt"
        name="excerpt"
        required
        rows={3}
        maxLength={BLOG_LIMITS.excerpt}
        defaultValue={pick("excerpt", post?.excerpt ?? "")}
        error={errors.excerpt}
      />
      <ImageField
        label="Image"
        name="image"
        folder="content/blog"
        defaultValue={pick("image", post?.image ?? "")}
        error={errors.image}
      />
      <FormButtons label={post ? "Save teaser" : "Add teaser"} cancelTo={cancelTo} />
    </Form>
  );
}

export default function BlogsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, editing, creating, today } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  for (const key of ["edit", "new", "done"]) params.delete(key);
  const listUrl = `/admin/blogs${params.size ? `?${params}` : ""}`;
  const withParam = (key: string, value: string) => withParams(params, { [key]: value });
  const formOpen = Boolean(editing) || creating || actionData?.intent === "create";
  const rowMessage = actionData && !actionData.errors && !formOpen ? actionData : null;
  return (
    <AdminPage
      title="Blog teasers"
      intro="The posts themselves live on the external blog; each teaser links to /blog/{slug}. The home page shows the three newest."
      actions={
        formOpen ? null : (
          <ButtonLink to={withParam("new", "1")} data-testid="new-blog">
            New teaser
          </ButtonLink>
        )
      }
    >
      <DoneNotice
        messages={{ created: "Teaser added.", saved: "Teaser saved.", deleted: "Teaser deleted." }}
      />
      {rowMessage ? <FormMessage message={rowMessage.message} /> : null}
      {formOpen ? (
        <div className="mb-8">
          <Panel title={editing ? `Edit “${editing.title}”` : "New blog teaser"}>
            <BlogForm
              key={`${editing?.id ?? "new"}:${location.key}`}
              post={editing}
              today={today}
              cancelTo={listUrl}
              reply={actionData}
            />
          </Panel>
        </div>
      ) : null}
      <ListSearch label="Search teasers" placeholder="Title or slug" />
      <ListTable
        caption="Blog teasers"
        head={
          <>
            <HeadCell className="w-24">Image</HeadCell>
            <SortHeader column="title" label="Title" sort={query.sort} dir={query.dir} />
            <SortHeader column="slug" label="Slug" sort={query.sort} dir={query.dir} />
            <SortHeader column="published" label="Published" sort={query.sort} dir={query.dir} />
            <HeadCell>
              <span className="sr-only">Actions</span>
            </HeadCell>
          </>
        }
      >
        {page.rows.length === 0 ? (
          <tr>
            <td colSpan={5} className={`${cellClass} py-6 text-center text-slate-600`}>
              {query.q ? "No teaser matches this search." : "No teasers yet."}
            </td>
          </tr>
        ) : (
          page.rows.map((post) => (
            <tr key={post.id} data-testid="blog-row" className={editing?.id === post.id ? "bg-brand-50" : ""}>
              <td className={cellClass}>
                <img
                  src={post.image}
                  alt=""
                  width={96}
                  height={54}
                  loading="lazy"
                  className="aspect-video w-20 rounded border border-slate-200 object-cover"
                />
              </td>
              <td className={`${cellClass} min-w-48 max-w-md`}>
                <p className="font-semibold text-ink-900">{post.title}</p>
                <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{post.excerpt}</p>
              </td>
              <td className={`${cellClass} font-mono text-xs`}>{post.slug}</td>
              <td className={`${cellClass} whitespace-nowrap`}>{formatDay(post.publishedAt)}</td>
              <EditDeleteCell
                editTo={withParam("edit", String(post.id))}
                id={post.id}
                srLabel={post.title}
                confirm={`Delete the teaser “${post.title}”?`}
              />
            </tr>
          ))
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}
