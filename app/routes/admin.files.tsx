import { data, Form, Link, useNavigation, useRevalidator, useSearchParams } from "react-router";
import { z } from "zod";
import { readFormBody } from "~/lib/form-data.server";
import { formatBytes } from "~/lib/byte-size";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { ActionNotice, AdminPage } from "~/modules/admin/components/admin-page";
import {
  cellClass,
  HeadCell,
  ListSearch,
  ListTable,
  Pagination,
} from "~/modules/admin/components/list-controls";
import { readListQuery } from "~/modules/admin/list-query";
import { deleteProductFile, fileListQuery, listProductFiles } from "~/modules/admin/product-files.server";
import { PRODUCT_BUCKET, productImagePath } from "~/modules/admin/product-image-path";
import { FileUpload } from "~/modules/storage/components/file-upload";
import { refusal, success } from "~/lib/action-reply";
import type { Route } from "./+types/admin.files";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const query = readListQuery(fileListQuery, request);
  const [page, used] = await Promise.all([
    listProductFiles(context, viewer, query),
    context.storage.usage(PRODUCT_BUCKET),
  ]);
  const bucket = context.storage.bucket(PRODUCT_BUCKET);
  return data(
    { query, page, usage: { used, quota: bucket.quotaBytes, maxObject: bucket.maxObjectBytes } },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Files · Store admin" }];

const deleteForm = z.object({ intent: z.literal("delete"), path: z.string().min(1).max(1024) });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const body = await readFormBody(request);
  if (!body.ok) return refusal(400, { message: "The form could not be read: reload the page" });
  const parsed = deleteForm.safeParse(body.values);
  if (!parsed.success) return refusal(400, { message: "Choose a file's Delete button." });
  const result = await deleteProductFile(context, viewer, parsed.data.path);
  if (!result.ok) return refusal(result.status, { message: result.error });
  return success({ message: `${parsed.data.path} was deleted.` });
}

const SORTS = [
  ["newest", "Newest first"],
  ["name", "Name"],
  ["size", "Largest first"],
] as const;

export default function Files({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, usage } = loaderData;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const deleting = navigation.state !== "idle" ? navigation.formData?.get("path") : null;
  const sortLink = (sort: string) => {
    const next = new URLSearchParams(params);
    next.set("sort", sort);
    next.delete("page");
    return `?${next.toString()}`;
  };
  return (
    <AdminPage
      title="Files"
      intro="The images of the products bucket, as the storefront serves them. An image a product shows cannot be deleted."
    >
      <ActionNotice result={actionData} />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <section aria-labelledby="upload-title" className="rounded-xl border border-slate-200 bg-white p-5">
          <h2 id="upload-title" className="text-base font-semibold text-ink-900">
            Upload an image
          </h2>
          <div className="mt-2">
            <FileUpload
              label={`Image (PNG, JPEG, WebP or GIF, at most ${formatBytes(usage.maxObject)})`}
              bucket={PRODUCT_BUCKET}
              pathFor={(file) => productImagePath(file)}
              onUploaded={() => void revalidator.revalidate()}
            />
          </div>
        </section>
        <section
          aria-labelledby="usage-title"
          className="rounded-xl border border-slate-200 bg-white p-5"
          data-testid="bucket-usage"
        >
          <h2 id="usage-title" className="text-base font-semibold text-ink-900">
            Space used
          </h2>
          <p className="mt-2 text-2xl font-bold text-ink-900">{formatBytes(usage.used)}</p>
          <p className="text-sm text-slate-600">of {formatBytes(usage.quota)}</p>
        </section>
      </div>

      <div className="mt-6 flex flex-wrap items-end justify-between gap-3">
        <ListSearch label="Search files" placeholder="Part of the name" />
        <nav aria-label="Sort files" className="flex gap-2 text-sm">
          {SORTS.map(([sort, label]) => (
            <Link
              key={sort}
              to={sortLink(sort)}
              aria-current={query.sort === sort ? "true" : undefined}
              className={`rounded-lg border px-3 py-1.5 font-semibold ${
                query.sort === sort
                  ? "border-brand-700 bg-brand-700 text-white"
                  : "border-slate-300 bg-white hover:bg-slate-50"
              }`}
            >
              {label}
            </Link>
          ))}
        </nav>
      </div>
      <ListTable
        caption="Files in the products bucket"
        head={
          <>
            <HeadCell className="w-20">Preview</HeadCell>
            <HeadCell>Name</HeadCell>
            <HeadCell>Type</HeadCell>
            <HeadCell className="text-right">Size</HeadCell>
            <HeadCell>Uploaded</HeadCell>
            <HeadCell>Shown by</HeadCell>
            <HeadCell>Actions</HeadCell>
          </>
        }
      >
        {page.rows.map((file) => (
          <tr key={file.fullPath} data-testid="file-row" data-path={file.fullPath}>
            <td className={cellClass}>
              {file.contentType.startsWith("image/") ? (
                <a href={file.url} target="_blank" rel="noreferrer" className="block">
                  <img
                    src={file.url}
                    alt={`Preview of ${file.name}`}
                    width={56}
                    height={56}
                    className="size-14 rounded border border-slate-200 bg-slate-50 object-contain"
                  />
                </a>
              ) : (
                <span className="text-xs text-slate-600">No preview</span>
              )}
            </td>
            <td className={`${cellClass} break-all`}>
              <a
                href={file.url}
                target="_blank"
                rel="noreferrer"
                className="font-semibold hover:text-brand-700"
              >
                {file.fullPath}
              </a>
            </td>
            <td className={cellClass}>{file.contentType}</td>
            <td className={`${cellClass} text-right tabular-nums whitespace-nowrap`}>
              {formatBytes(file.size)}
            </td>
            <td className={`${cellClass} whitespace-nowrap`}>
              {new Date(file.updated).toLocaleString("en-US", {
                dateStyle: "medium",
                timeStyle: "short",
                timeZone: "UTC",
              })}
            </td>
            <td className={cellClass}>
              {file.usedBy.length === 0 ? (
                <span className="text-slate-600">No product</span>
              ) : (
                <ul>
                  {file.usedBy.map((product) => (
                    <li key={product.id}>
                      <Link to={`/admin/products/${product.id}`} className="text-brand-700 hover:underline">
                        {product.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td className={cellClass}>
              <Form
                method="post"
                onSubmit={(event) => {
                  if (!window.confirm(`Delete ${file.fullPath}? This cannot be undone.`))
                    event.preventDefault();
                }}
              >
                <input type="hidden" name="path" value={file.fullPath} />
                <button
                  type="submit"
                  name="intent"
                  value="delete"
                  disabled={deleting === file.fullPath}
                  className="font-semibold text-red-700 hover:underline disabled:text-slate-400"
                >
                  Delete<span className="sr-only"> {file.fullPath}</span>
                </button>
              </Form>
            </td>
          </tr>
        ))}
      </ListTable>
      {page.rows.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          {query.q ? "No file matches the search." : "No files yet: upload one above."}
        </p>
      ) : null}
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}
