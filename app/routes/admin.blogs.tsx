import { data } from "react-router";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { cellClass, HeadCell, SortHeader } from "~/modules/admin/components/list-controls";
import {
  RecordField,
  RecordForm,
  RecordImageField,
  RecordListPage,
  useListUrl,
} from "~/modules/admin/components/record-form";
import {
  blogListQuery,
  createBlogPost,
  deleteBlogPost,
  getBlogPost,
  listBlogPosts,
  updateBlogPost,
} from "~/modules/admin/blogs.server";
import { readContentForm, reply, saveOrDeleteRecord } from "~/modules/admin/form-actions.server";
import { EditDeleteCell, formatDay } from "~/modules/admin/content-fields";
import { blogFormSchema } from "~/modules/admin/content-schemas";
import { loadAdminList } from "~/modules/admin/lists.server";
import type { Route } from "./+types/admin.blogs";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, query, open, creating } = await loadAdminList(
    { request, context },
    {
      query: blogListQuery,
      load: listBlogPosts,
      open: { param: "edit", get: getBlogPost, notFound: NOT_FOUND },
    },
  );
  return data(
    { page, query, editing: open, creating, today: new Date().toISOString().slice(0, 10) },
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
  return (
    <RecordForm
      schema={blogFormSchema}
      reply={reply}
      intent={post ? "update" : "create"}
      id={post?.id}
      label={post ? "Save teaser" : "Add teaser"}
      cancelTo={cancelTo}
      testId="blog-form"
    >
      <RecordField label="Title" name="title" stored={post?.title ?? ""} />
      <div className="grid gap-4 sm:grid-cols-2">
        <RecordField
          label="Slug"
          name="slug"
          spellCheck={false}
          stored={post?.slug ?? ""}
          hint="The post's address on the blog: /blog/{slug}. Lower-case words joined by hyphens."
        />
        <RecordField
          label="Published on"
          name="publishedAt"
          type="date"
          required
          stored={post?.publishedAt ?? today}
          hint="The home page shows the three newest teasers."
        />
      </div>
      <RecordField label="Excerpt" name="excerpt" rows={3} stored={post?.excerpt ?? ""} />
      <RecordImageField label="Image" name="image" folder="content/blog" stored={post?.image ?? ""} />
    </RecordForm>
  );
}

export default function BlogsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, editing, creating, today } = loaderData;
  const { withParam } = useListUrl("/admin/blogs");
  return (
    <RecordListPage
      path="/admin/blogs"
      title="Blog teasers"
      intro="The posts themselves live on the external blog; each teaser links to /blog/{slug}. The home page shows the three newest."
      newLabel="New teaser"
      newTestId="new-blog"
      notices={{ created: "Teaser added.", saved: "Teaser saved.", deleted: "Teaser deleted." }}
      editing={editing}
      creating={creating}
      reply={actionData}
      formTitle={editing ? `Edit “${editing.title}”` : "New blog teaser"}
      form={(cancelTo) => <BlogForm post={editing} today={today} cancelTo={cancelTo} reply={actionData} />}
      search={{ label: "Search teasers", placeholder: "Title or slug" }}
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
      columns={5}
      query={query}
      page={page}
      empty={{ search: "No teaser matches this search.", none: "No teasers yet." }}
    >
      {page.rows.map((post) => (
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
      ))}
    </RecordListPage>
  );
}
