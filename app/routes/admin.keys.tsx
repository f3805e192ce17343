import { data, Link, useSearchParams } from "react-router";
import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { ExportLink } from "~/modules/admin/components/order-life";
import { type KeyImported, KeyPoolPanel } from "~/modules/admin/components/key-pool-panel";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  cellClass,
  HeadCell,
  ListSearch,
  ListTable,
  Pagination,
  SortHeader,
} from "~/modules/admin/components/list-controls";
import { LOW_KEY_POOL } from "~/modules/admin/dashboard.server";
import { loadAdminList } from "~/modules/admin/lists.server";
import {
  importPoolKeys,
  keyPoolDetail,
  keyPoolQuery,
  listKeyPools,
} from "~/modules/admin/product-keys.server";
import { KEY_IMPORT_MAX_BYTES } from "~/modules/admin/product-import";
import { readTextUpload } from "~/modules/admin/product-upload.server";
import { parseKeyImport } from "~/modules/admin/key-import.server";
import { ordersContext } from "~/modules/orders/orders.server";
import { refusal, success } from "~/lib/action-reply";
import type { Route } from "./+types/admin.keys";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page: loaded } = await loadAdminList(
    { request, context },
    {
      query: keyPoolQuery,
      load: (db, query) =>
        Promise.all([listKeyPools(db, query), query.product ? keyPoolDetail(db, query.product) : null]),
    },
  );
  const [page, pool] = loaded;
  if (query.product && !pool) {
    throw data({ message: "There is no such product: it may have been deleted." }, { status: 404 });
  }
  return data({ query, page, pool, lowMark: LOW_KEY_POOL }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [{ title: "Licence keys · Store admin" }];

const productField = z.coerce.number().int().positive().max(2_147_483_647);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const upload = await readTextUpload(request, {
    maxBytes: KEY_IMPORT_MAX_BYTES,
    fileField: "file",
    textField: "keys",
  });
  if (!upload.ok) return refusal(upload.status, { message: upload.error });
  const productId = productField.safeParse(upload.values.product);
  if (!productId.success) return refusal(400, { message: "Choose a product first." });
  const parsed = parseKeyImport(upload.text, upload.values);
  if (!parsed.ok) return refusal(400, { message: parsed.message });
  const result = await importPoolKeys(
    await ordersContext(context),
    productId.data,
    parsed.value,
    viewer.email,
    upload.values.variant,
  );
  if (!result.ok) return refusal(result.status, { message: result.error });
  const { added, duplicates, delivered } = result;
  const parts = [
    `Added ${added} ${added === 1 ? "key" : "keys"}`,
    `${duplicates} ${duplicates === 1 ? "duplicate" : "duplicates"} skipped`,
  ];
  if (delivered.length > 0) {
    parts.push(
      `keys sent to waiting ${delivered.length === 1 ? "order" : "orders"} ${delivered.map((number) => `#${number}`).join(", ")}`,
    );
  }
  return success<KeyImported>({ message: `${parts.join("; ")}.`, added, duplicates, delivered });
}

export default function Keys({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, pool, lowMark } = loaderData;
  const [params] = useSearchParams();
  const sortProps = { sort: query.sort, dir: query.dir };
  const open = (id: number) => {
    const next = new URLSearchParams(params);
    next.set("product", String(id));
    return `?${next.toString()}`;
  };
  const lowToggle = new URLSearchParams(params);
  lowToggle.delete("page");
  if (query.low) lowToggle.delete("low");
  else lowToggle.set("low", "1");
  return (
    <AdminPage
      title="Licence keys"
      intro={`Each software product sells from its pool of keys. Keys are stored encrypted and never shown here; pools below ${lowMark} keys are marked low.`}
      actions={
        <>
          <Link
            to="/admin/key-reports"
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
            data-testid="key-reports-link"
          >
            Keys reported broken
          </Link>
          <ExportLink
            to="/admin/export/keys.csv"
            label="Download key list (CSV, hints only)"
            testId="keys-csv"
          />
        </>
      }
    >
      {pool ? <KeyPoolPanel pool={pool} lowMark={lowMark} reply={actionData} /> : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ListSearch label="Search software products" placeholder="Product name" />
        <Link
          to={`?${lowToggle.toString()}`}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-slate-50"
        >
          {query.low ? "Show all pools" : "Show low pools only"}
        </Link>
      </div>
      <ListTable
        caption="Key pools"
        head={
          <>
            <SortHeader column="name" label="Product" {...sortProps} />
            <HeadCell>Brand</HeadCell>
            <SortHeader column="available" label="Available" {...sortProps} className="text-right" />
            <SortHeader column="assigned" label="Sold" {...sortProps} className="text-right" />
            <HeadCell>Keys</HeadCell>
          </>
        }
      >
        {page.rows.map((row) => (
          <tr
            key={row.id}
            data-testid="pool-row"
            data-product-id={row.id}
            data-low={row.low}
            className={row.id === pool?.product.id ? "bg-brand-50" : row.low ? "bg-red-50" : ""}
          >
            <td className={cellClass}>
              <Link to={open(row.id)} className="font-semibold text-ink-900 hover:text-brand-700">
                {row.name}
              </Link>
              {row.hidden ? <span className="ml-2 text-xs text-slate-600">(hidden)</span> : null}
            </td>
            <td className={cellClass}>{row.groupName}</td>
            <td className={`${cellClass} text-right tabular-nums`} data-testid="row-available">
              <span className={row.low ? "font-semibold text-red-700" : ""}>{row.available}</span>
              {row.low ? (
                <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                  Low
                </span>
              ) : null}
            </td>
            <td className={`${cellClass} text-right tabular-nums`} data-testid="row-assigned">
              {row.assigned}
            </td>
            <td className={cellClass}>
              <Link to={open(row.id)} className="font-semibold text-brand-700 hover:underline">
                Add keys<span className="sr-only"> for {row.name}</span>
              </Link>
            </td>
          </tr>
        ))}
      </ListTable>
      {page.rows.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">No software product matches.</p>
      ) : null}
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}
