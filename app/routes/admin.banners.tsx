import { data, Link, redirect } from "react-router";
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
import { cellClass, HeadCell, SortHeader } from "~/modules/admin/components/list-controls";
import {
  MoveButtons,
  RecordField,
  RecordForm,
  RecordImageField,
  RecordListPage,
  useListUrl,
  useRecordCheckbox,
  useRecordField,
} from "~/modules/admin/components/record-form";
import { backToList, readContentForm, reply, saveOrDeleteRecord } from "~/modules/admin/form-actions.server";
import { EditDeleteCell, RowAction } from "~/modules/admin/content-fields";
import { bannerFormSchema, rowId } from "~/modules/admin/content-schemas";
import { loadAdminList } from "~/modules/admin/lists.server";
import { TextField } from "~/ui/field";
import type { Route } from "./+types/admin.banners";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, query, open, creating } = await loadAdminList(
    { request, context },
    {
      query: bannerListQuery,
      load: listBanners,
      open: { param: "edit", get: getBanner, notFound: NOT_FOUND },
    },
  );
  return data({ page, query, editing: open, creating }, { headers: PRIVATE_HEADERS });
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
  return (
    <RecordForm
      schema={bannerFormSchema}
      reply={reply}
      intent={banner ? "update" : "create"}
      id={banner?.id}
      label={banner ? "Save banner" : "Add banner"}
      cancelTo={cancelTo}
      testId="banner-form"
    >
      <RecordField label="Title" name="title" stored={banner?.title ?? ""} />
      <RecordField label="Subtitle (optional)" name="subtitle" rows={2} stored={banner?.subtitle ?? ""} />
      <RecordImageField
        label="Image"
        name="image"
        folder="content/banners"
        stored={banner?.image ?? ""}
        hint="Wide, about 1600 × 500. A site path, an https:// address, or upload a file."
      />
      <RecordField
        label="Image description"
        name="alt"
        stored={banner?.alt ?? ""}
        hint="What the image shows, for people who cannot see it."
      />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <RecordField
          label="Link"
          name="link"
          spellCheck={false}
          stored={banner?.link ?? ""}
          hint="Where “Shop now” goes: a site path like /antivirus or an https:// address."
        />
        <PositionField banner={banner} />
      </div>
      <ActiveBox banner={banner} />
    </RecordForm>
  );
}

/** The position as typed: a number field with its own bounds, not the schema's text limits. */
function PositionField({ banner }: { banner: Banner | null }) {
  const { defaultValue, error } = useRecordField("position", banner ? String(banner.position) : "");
  return (
    <TextField
      label="Position (optional)"
      name="position"
      type="number"
      min={0}
      max={100000}
      step={1}
      defaultValue={defaultValue}
      error={error}
      hint={banner ? "Lower shows first." : "Empty puts it last."}
    />
  );
}

function ActiveBox({ banner }: { banner: Banner | null }) {
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-ink-900">
      <input
        type="checkbox"
        name="active"
        defaultChecked={useRecordCheckbox("active", banner?.active ?? true)}
        className="h-4 w-4"
      />
      Show on the home page
    </label>
  );
}

export default function BannersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { page, query, editing, creating } = loaderData;
  const { withParam } = useListUrl("/admin/banners");
  // Moving means something only while the list shows the home page's order.
  const inOrder = query.sort === "position" && query.dir === "asc" && !query.q;
  const firstIndex = (query.page - 1) * query.pageSize;
  return (
    <RecordListPage
      path="/admin/banners"
      title="Banners"
      intro="The home page's hero shows the first active banner in this order."
      newLabel="New banner"
      newTestId="new-banner"
      notices={{
        created: "Banner added.",
        saved: "Banner saved.",
        deleted: "Banner deleted.",
        moved: "Banner moved.",
        shown: "The banner shows on the home page.",
        hidden: "The banner no longer shows on the home page.",
      }}
      editing={editing}
      creating={creating}
      reply={actionData}
      formTitle={editing ? `Edit “${editing.title}”` : "New banner"}
      form={(cancelTo) => <BannerForm banner={editing} cancelTo={cancelTo} reply={actionData} />}
      search={{ label: "Search banners", placeholder: "Title or link" }}
      beforeTable={
        inOrder ? null : (
          <p className="mt-2 text-xs text-slate-600">
            <Link to="/admin/banners" className="font-semibold text-brand-700 hover:underline">
              Show the home page&apos;s order
            </Link>{" "}
            to move banners up and down.
          </p>
        )
      }
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
      columns={6}
      query={query}
      page={page}
      empty={{ search: "No banner matches this search.", none: "No banners yet." }}
    >
      {page.rows.map((banner, index) => (
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
                  <MoveButtons
                    id={banner.id}
                    name={banner.title}
                    first={firstIndex + index === 0}
                    last={firstIndex + index === page.total - 1}
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
      ))}
    </RecordListPage>
  );
}
