import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { readFormBody } from "~/lib/form-data.server";
import { formatMoney } from "~/lib/money";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { ActionNotice, AdminPage } from "~/modules/admin/components/admin-page";
import {
  cellClass,
  HeadCell,
  ListTable,
  Pagination,
  SortHeader,
} from "~/modules/admin/components/list-controls";
import { readListQuery } from "~/modules/admin/list-query";
import {
  brandGroupOptions,
  deleteProduct,
  listProducts,
  productListQuery,
  setProductHidden,
} from "~/modules/admin/products.server";
import { SECTIONS } from "~/modules/catalogue/sections";
import { buttonClass, ButtonLink } from "~/ui/button";
import { refusal, success } from "~/lib/action-reply";
import { BrandGroupOptions } from "~/modules/admin/components/brand-group-options";
import type { Route } from "./+types/admin.products";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const query = readListQuery(productListQuery, request);
  const [page, groups] = await Promise.all([listProducts(context.db, query), brandGroupOptions(context.db)]);
  return data({ query, page, groups }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [{ title: "Products · Store admin" }];

const rowAction = z.object({
  intent: z.enum(["hide", "show", "delete"]),
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const body = await readFormBody(request);
  if (!body.ok) return refusal(400, { message: "The form could not be read: reload the page" });
  const parsed = rowAction.safeParse(body.values);
  if (!parsed.success) {
    return refusal(400, { message: "Choose what to do with a product's buttons." });
  }
  const { intent, id } = parsed.data;
  const name = body.values.name?.slice(0, 200) || "The product";
  if (intent === "delete") {
    const result = await deleteProduct(context.db, id, viewer.email);
    if (!result.ok) {
      const gone = result.error === "This product no longer exists";
      return refusal(gone ? 404 : 409, { message: `${name}: ${result.error}.` });
    }
    return success({ message: `${name} was deleted.` });
  }
  const changed = await setProductHidden(context.db, id, intent === "hide", viewer.email);
  if (!changed) return refusal(404, { message: "This product no longer exists." });
  return success({
    message:
      intent === "hide" ? `${name} is hidden from the storefront.` : `${name} is on the storefront again.`,
  });
}

function Filters({
  groups,
  query,
}: {
  groups: Route.ComponentProps["loaderData"]["groups"];
  query: Route.ComponentProps["loaderData"]["query"];
}) {
  const [params] = useSearchParams();
  const kept = ["sort", "dir", "pageSize"].filter((key) => params.has(key));
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
      {kept.map((key) => (
        <input key={key} type="hidden" name={key} value={params.get(key) ?? ""} />
      ))}
      <label className="flex flex-col text-sm font-medium text-ink-900">
        Search products
        <input
          type="search"
          name="q"
          defaultValue={query.q}
          placeholder="Name, or an address: /antivirus/…"
          maxLength={200}
          className="mt-1 w-72 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
      </label>
      <label className="flex flex-col text-sm font-medium text-ink-900">
        Brand group
        <select
          name="group"
          defaultValue={query.group}
          className="mt-1 w-56 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        >
          <option value="">All brands</option>
          <BrandGroupOptions groups={groups} />
        </select>
      </label>
      <label className="flex flex-col text-sm font-medium text-ink-900">
        Stock
        <select
          name="stock"
          defaultValue={query.stock}
          className="mt-1 w-44 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        >
          <option value="">Any stock</option>
          <option value="in">In stock</option>
          <option value="low">Low stock</option>
          <option value="out">Out of stock</option>
          <option value="uncounted">Not counted</option>
        </select>
      </label>
      <button
        type="submit"
        className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
      >
        Show
      </button>
      {query.q || query.group || query.stock ? (
        <Link to="/admin/products" className="py-2 text-sm font-semibold text-brand-700 hover:underline">
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

/** The products of the current filters and sort, as a CSV file the import reads back. */
function ExportLink() {
  const [params] = useSearchParams();
  const kept = new URLSearchParams(
    [...params].filter(([key]) => ["q", "group", "stock", "sort", "dir"].includes(key)),
  ).toString();
  return (
    <a
      href={`/admin/export/products.csv${kept ? `?${kept}` : ""}`}
      download
      className={buttonClass("secondary")}
      data-testid="export-products"
    >
      Export products CSV
    </a>
  );
}

/** Every variant, as a CSV file the import reads back (the list's filters do not apply: variants have none). */
function ExportVariantsLink() {
  return (
    <a
      href="/admin/export/variants.csv"
      download
      className={buttonClass("secondary")}
      data-testid="export-variants"
    >
      Export variants CSV
    </a>
  );
}

type Row = Route.ComponentProps["loaderData"]["page"]["rows"][number];

function RowActions({ product }: { product: Row }) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" && navigation.formData?.get("id") === String(product.id) ? true : false;
  const button = "font-semibold hover:underline disabled:text-slate-400";
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Link to={`/admin/products/${product.id}`} className={`${button} text-brand-700`}>
        Edit<span className="sr-only"> {product.name}</span>
      </Link>
      {product.hidden ? null : (
        <a href={product.route} target="_blank" rel="noreferrer" className={`${button} text-ink-900`}>
          View<span className="sr-only"> {product.name} on the storefront</span>
        </a>
      )}
      <Form method="post">
        <input type="hidden" name="id" value={product.id} />
        <input type="hidden" name="name" value={product.name} />
        <button
          type="submit"
          name="intent"
          value={product.hidden ? "show" : "hide"}
          disabled={busy}
          className={`${button} text-ink-900`}
        >
          {product.hidden ? "Unhide" : "Hide"}
          <span className="sr-only"> {product.name}</span>
        </button>
      </Form>
      <Form
        method="post"
        onSubmit={(event) => {
          if (!window.confirm(`Delete ${product.name}? This cannot be undone.`)) event.preventDefault();
        }}
      >
        <input type="hidden" name="id" value={product.id} />
        <input type="hidden" name="name" value={product.name} />
        <button
          type="submit"
          name="intent"
          value="delete"
          disabled={busy}
          className={`${button} text-red-700`}
        >
          Delete<span className="sr-only"> {product.name}</span>
        </button>
      </Form>
    </div>
  );
}

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, groups } = loaderData;
  const sortProps = { sort: query.sort, dir: query.dir };
  return (
    <AdminPage
      title="Products"
      intro="Every product of the catalogue, hidden ones included. Changes show on the storefront at once."
      actions={
        <>
          <ExportLink />
          <ExportVariantsLink />
          <ButtonLink to="/admin/products/import" variant="secondary">
            Import CSV
          </ButtonLink>
          <ButtonLink to="/admin/products/new">New product</ButtonLink>
        </>
      }
    >
      <ActionNotice result={actionData} />
      <Filters groups={groups} query={query} />
      <ListTable
        caption="Products"
        head={
          <>
            <SortHeader column="name" label="Product" {...sortProps} />
            <SortHeader column="group" label="Brand" {...sortProps} />
            <SortHeader column="price" label="Price" {...sortProps} className="text-right" />
            <SortHeader
              column="stock"
              label="Stock (keys left / sold)"
              {...sortProps}
              className="text-right"
            />
            <SortHeader column="updated" label="Updated" {...sortProps} />
            <HeadCell>Actions</HeadCell>
          </>
        }
      >
        {page.rows.map((product) => (
          <tr key={product.id} data-testid="product-row" data-product-id={product.id}>
            <td className={cellClass}>
              <div className="flex items-start gap-3">
                <img
                  src={product.img}
                  alt=""
                  width={40}
                  height={40}
                  className="size-10 shrink-0 rounded border border-slate-200 object-contain"
                />
                <div>
                  <Link
                    to={`/admin/products/${product.id}`}
                    className="font-semibold text-ink-900 hover:text-brand-700"
                  >
                    {product.name}
                  </Link>
                  {product.hidden ? (
                    <span
                      className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700"
                      data-testid="hidden-badge"
                    >
                      Hidden
                    </span>
                  ) : null}
                  <p className="text-xs text-slate-600">{product.route}</p>
                </div>
              </div>
            </td>
            <td className={cellClass}>
              {product.groupName}
              <p className="text-xs text-slate-600">{SECTIONS[product.section].label}</p>
            </td>
            <td className={`${cellClass} text-right tabular-nums`}>
              {formatMoney(product.priceCents)}
              {product.originalPriceCents > product.priceCents ? (
                <p className="text-xs text-slate-600 line-through">
                  {formatMoney(product.originalPriceCents)}
                </p>
              ) : null}
            </td>
            <td className={`${cellClass} text-right tabular-nums`} data-testid="product-keys">
              {product.keys ? (
                <Link
                  to={`/admin/keys?product=${product.id}`}
                  className={`hover:underline ${
                    product.lowKeys ? "font-semibold text-red-700" : "text-ink-900"
                  }`}
                >
                  {product.keys.available} / {product.keys.assigned}
                  <span className="sr-only"> keys of {product.name}</span>
                </Link>
              ) : product.stock === null ? (
                <span className="text-slate-600">Not counted</span>
              ) : (
                <span
                  className={product.lowStock ? "font-semibold text-red-700" : "text-ink-900"}
                  data-testid="product-stock"
                >
                  {product.stock === 0 ? "Out of stock" : `${product.stock} in stock`}
                </span>
              )}
            </td>
            <td className={`${cellClass} whitespace-nowrap text-slate-600`}>
              {new Date(product.updatedAt).toLocaleDateString("en-US", {
                year: "numeric",
                month: "short",
                day: "numeric",
                timeZone: "UTC",
              })}
            </td>
            <td className={cellClass}>
              <RowActions product={product} />
            </td>
          </tr>
        ))}
      </ListTable>
      {page.rows.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          No product matches: change the search, the brand or the stock.
        </p>
      ) : null}
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}
