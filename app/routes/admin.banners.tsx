import { data, Form, Link, redirect, useLocation } from "react-router";
import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import {
  bannerListQuery,
  createBanner,
  deleteBanner,
  getBanner,
  listBanners,
  moveBanner,
  setBannerActive,
  updateBanner,
} from "~/modules/admin/banners.server";
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
import { backToList, readContentForm, reply, saveOrDeleteRecord } from "~/modules/admin/form-actions.server";
import {
  DoneNotice,
  FormButtons,
  FormMessage,
  ImageField,
  EditDeleteCell,
  RowAction,
} from "~/modules/admin/content-fields";
import { BANNER_LIMITS, bannerFormSchema, rowId } from "~/modules/admin/content-schemas";
import { readListQuery } from "~/modules/admin/list-query";
import { ButtonLink } from "~/ui/button";
import { TextAreaField, TextField } from "~/ui/field";
import { useFormCheck } from "~/lib/use-form-check";
import type { Route } from "./+types/admin.banners";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const query = readListQuery(bannerListQuery, request);
  let editing = null;
  if (url.searchParams.has("edit")) {
    const id = rowId.safeParse(url.searchParams.get("edit"));
    editing = id.success ? await getBanner(context.db, id.data) : null;
    if (!editing) throw data({ message: NOT_FOUND }, { status: 404 });
  }
  const page = await listBanners(context.db, query);
  return data(
    { page, query, editing, creating: !editing && url.searchParams.get("new") === "1" },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Banners · Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

const NOT_FOUND = "No such banner: it may have been deleted.";
const direction = z.enum(["up", "down"]);

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const done = await saveOrDeleteRecord(request, body.values, {
    schema: bannerFormSchema,
    notFound: NOT_FOUND,
    create: (form) => createBanner(context.db, form, admin.email),
    update: (id, form) => updateBanner(context.db, id, form, admin.email),
    remove: (id) => deleteBanner(context.db, id, admin.email),
  });
  if (done) return done;
  const { intent, id: rawId, direction: towardsField } = body.values;
  const id = rowId.safeParse(rawId);
  if (!id.success) return reply(404, { message: NOT_FOUND, intent });
  if (intent === "move") {
    const towards = direction.safeParse(towardsField);
    if (!towards.success) return reply(400, { message: "Move a banner up or down." });
    if (!(await moveBanner(context.db, id.data, towards.data, admin.email)))
      return reply(404, { message: NOT_FOUND });
    return redirect(backToList(request, "moved"));
  }
  if (intent === "activate" || intent === "deactivate") {
    if (!(await setBannerActive(context.db, id.data, intent === "activate", admin.email)))
      return reply(404, { message: NOT_FOUND });
    return redirect(backToList(request, intent === "activate" ? "shown" : "hidden"));
  }
  return reply(400, { message: "Choose what to do with the page's buttons." });
}

type Banner = NonNullable<Route.ComponentProps["loaderData"]["editing"]>;

function BannerForm({
  banner,
  cancelTo,
  reply,
}: {
  banner: Banner | null;
  cancelTo: string;
  reply?: Route.ComponentProps["actionData"];
}) {
  const { errors, onSubmit, onChange, formRef } = useFormCheck(bannerFormSchema, reply?.errors);
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
      data-testid="banner-form"
    >
      <input type="hidden" name="intent" value={banner ? "update" : "create"} />
      {banner ? <input type="hidden" name="id" value={banner.id} /> : null}
      <FormMessage message={reply?.message} />
      <TextField
        label="Title"
        name="title"
        required
        maxLength={BANNER_LIMITS.title}
        defaultValue={pick("title", banner?.title ?? "")}
        error={errors.title}
      />
      <TextAreaField
        label="Subtitle (optional)"
        name="subtitle"
        rows={2}
        maxLength={BANNER_LIMITS.subtitle}
        defaultValue={pick("subtitle", banner?.subtitle ?? "")}
        error={errors.subtitle}
      />
      <ImageField
        label="Image"
        name="image"
        folder="content/banners"
        defaultValue={pick("image", banner?.image ?? "")}
        error={errors.image}
        hint="Wide, about 1600 × 500. A site path, an https:// address, or upload a file."
      />
      <TextField
        label="Image description"
        name="alt"
        required
        maxLength={BANNER_LIMITS.alt}
        defaultValue={pick("alt", banner?.alt ?? "")}
        error={errors.alt}
        hint="What the image shows, for people who cannot see it."
      />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <TextField
          label="Link"
          name="link"
          required
          spellCheck={false}
          maxLength={2000}
          defaultValue={pick("link", banner?.link ?? "")}
          error={errors.link}
          hint="Where “Shop now” goes: a site path like /antivirus or an https:// address."
        />
        <TextField
          label="Position (optional)"
          name="position"
          type="number"
          min={0}
          max={100000}
          step={1}
          defaultValue={pick("position", banner ? String(banner.position) : "")}
          error={errors.position}
          hint={banner ? "Lower shows first." : "Empty puts it last."}
        />
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-ink-900">
        <input
          type="checkbox"
          name="active"
          defaultChecked={values ? values.active === "on" : (banner?.active ?? true)}
          className="h-4 w-4"
        />
        Show on the home page
      </label>
      <FormButtons label={banner ? "Save banner" : "Add banner"} cancelTo={cancelTo} />
    </Form>
  );
}

export default function BannersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, editing, creating } = loaderData;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  for (const key of ["edit", "new", "done"]) params.delete(key);
  const listUrl = `/admin/banners${params.size ? `?${params}` : ""}`;
  const withParam = (key: string, value: string) => withParams(params, { [key]: value });
  const formOpen = Boolean(editing) || creating || actionData?.intent === "create";
  const rowMessage = actionData && !actionData.errors && !formOpen ? actionData : null;
  // Moving means something only while the list shows the home page's order.
  const inOrder = query.sort === "position" && query.dir === "asc" && !query.q;
  const firstIndex = (query.page - 1) * query.pageSize;
  return (
    <AdminPage
      title="Banners"
      intro="The home page's hero shows the first active banner in this order."
      actions={
        formOpen ? null : (
          <ButtonLink to={withParam("new", "1")} data-testid="new-banner">
            New banner
          </ButtonLink>
        )
      }
    >
      <DoneNotice
        messages={{
          created: "Banner added.",
          saved: "Banner saved.",
          deleted: "Banner deleted.",
          moved: "Banner moved.",
          shown: "The banner shows on the home page.",
          hidden: "The banner no longer shows on the home page.",
        }}
      />
      {rowMessage ? <FormMessage message={rowMessage.message} /> : null}
      {formOpen ? (
        <div className="mb-8">
          <Panel title={editing ? `Edit “${editing.title}”` : "New banner"}>
            <BannerForm
              key={`${editing?.id ?? "new"}:${location.key}`}
              banner={editing}
              cancelTo={listUrl}
              reply={actionData}
            />
          </Panel>
        </div>
      ) : null}
      <ListSearch label="Search banners" placeholder="Title or link" />
      {inOrder ? null : (
        <p className="mt-2 text-xs text-slate-600">
          <Link to="/admin/banners" className="font-semibold text-brand-700 hover:underline">
            Show the home page&apos;s order
          </Link>{" "}
          to move banners up and down.
        </p>
      )}
      <ListTable
        caption="Banners"
        head={
          <>
            <SortHeader column="position" label="Order" sort={query.sort} dir={query.dir} className="w-20" />
            <HeadCell className="w-40">Image</HeadCell>
            <SortHeader column="title" label="Title" sort={query.sort} dir={query.dir} />
            <HeadCell>Link</HeadCell>
            <HeadCell>Status</HeadCell>
            <HeadCell>
              <span className="sr-only">Actions</span>
            </HeadCell>
          </>
        }
      >
        {page.rows.length === 0 ? (
          <tr>
            <td colSpan={6} className={`${cellClass} py-6 text-center text-slate-600`}>
              {query.q ? "No banner matches this search." : "No banners yet."}
            </td>
          </tr>
        ) : (
          page.rows.map((banner, index) => (
            <tr
              key={banner.id}
              data-testid="banner-row"
              className={editing?.id === banner.id ? "bg-brand-50" : ""}
            >
              <td className={cellClass}>
                <div className="flex items-center gap-1">
                  <span className="w-8 font-mono text-xs text-slate-600">{banner.position}</span>
                  {inOrder ? (
                    <span className="flex flex-col">
                      <RowAction
                        intent="move"
                        id={banner.id}
                        fields={{ direction: "up" }}
                        label={<span aria-hidden="true">▲</span>}
                        srLabel={`Move ${banner.title} up`}
                        disabled={firstIndex + index === 0}
                      />
                      <RowAction
                        intent="move"
                        id={banner.id}
                        fields={{ direction: "down" }}
                        label={<span aria-hidden="true">▼</span>}
                        srLabel={`Move ${banner.title} down`}
                        disabled={firstIndex + index === page.total - 1}
                      />
                    </span>
                  ) : null}
                </div>
              </td>
              <td className={cellClass}>
                <img
                  src={banner.image}
                  alt=""
                  width={160}
                  height={50}
                  loading="lazy"
                  className="aspect-[16/5] w-36 rounded border border-slate-200 bg-ink-900 object-cover"
                />
              </td>
              <td className={`${cellClass} min-w-48 max-w-sm`}>
                <p className="font-semibold text-ink-900">{banner.title}</p>
                {banner.subtitle ? (
                  <p className="mt-0.5 line-clamp-2 text-xs text-slate-600">{banner.subtitle}</p>
                ) : null}
              </td>
              <td className={`${cellClass} font-mono text-xs`}>
                <span className="break-all">{banner.link}</span>
              </td>
              <td className={cellClass}>
                <span
                  className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                    banner.active ? "bg-emerald-100 text-emerald-900" : "bg-slate-200 text-slate-700"
                  }`}
                  data-testid="banner-status"
                >
                  {banner.active ? "Shown" : "Hidden"}
                </span>
                <div>
                  <RowAction
                    intent={banner.active ? "deactivate" : "activate"}
                    id={banner.id}
                    label={banner.active ? "Hide" : "Show"}
                    srLabel={banner.title}
                  />
                </div>
              </td>
              <EditDeleteCell
                editTo={withParam("edit", String(banner.id))}
                id={banner.id}
                srLabel={banner.title}
                confirm={`Delete the banner “${banner.title}”?`}
              />
            </tr>
          ))
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}
