import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { ExportLink } from "~/modules/admin/components/order-life";
import { ImportFileField } from "~/modules/admin/components/import-file-field";
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
import { keyImportSchema } from "~/modules/admin/products.server";
import { ordersContext } from "~/modules/orders/orders.server";
import { type ActionReply, refusal, success } from "~/lib/action-reply";
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

/** What an import did: the keys added, the ones already in the pool and the orders served. */
type Imported = { added?: number; duplicates?: number; delivered?: number[] };
type Reply = ActionReply<Imported>;

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
  const parsed = keyImportSchema.safeParse({ keys: upload.text });
  if (!parsed.success) {
    return refusal(400, { message: parsed.error.issues[0]?.message ?? "Paste the keys" });
  }
  const result = await importPoolKeys(
    await ordersContext(context),
    productId.data,
    parsed.data.keys,
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
  return success<Imported>({ message: `${parts.join("; ")}.`, added, duplicates, delivered });
}

const dateFormat = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

type Loaded = Route.ComponentProps["loaderData"];

function Count({
  label,
  value,
  tone = "",
  testId,
}: {
  label: string;
  value: number;
  tone?: string;
  testId: string;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3" data-testid={testId}>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={`text-2xl font-bold tabular-nums ${tone}`}>{value}</dd>
    </div>
  );
}

function PoolPanel({
  pool,
  lowMark,
  reply,
}: {
  pool: NonNullable<Loaded["pool"]>;
  lowMark: number;
  reply?: Reply;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { product } = pool;
  const low = product.software && pool.available < lowMark;
  const form = useRef<HTMLFormElement>(null);
  // After a successful import the pasted keys and the chosen file are cleared.
  useEffect(() => {
    if (reply?.ok) form.current?.reset();
  }, [reply]);
  return (
    <section
      aria-labelledby="pool-title"
      className="mb-8 rounded-xl border border-slate-200 bg-white p-5"
      data-testid="key-pool"
      data-product-id={product.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="pool-title" className="text-lg font-bold text-ink-900">
            {product.name}
          </h2>
          <p className="text-sm text-slate-600">
            {product.groupName} · {product.route}
            {product.hidden ? " · hidden" : ""}
          </p>
        </div>
        <Link
          to={`/admin/products/${product.id}`}
          className="text-sm font-semibold text-brand-700 hover:underline"
        >
          Edit the product
        </Link>
      </div>
      {!product.software ? (
        <p className="mt-4 text-sm text-slate-700">
          This product is shipped, not sold by licence key: it has no key pool.
        </p>
      ) : (
        <>
          <dl className="mt-4 grid gap-3 sm:grid-cols-3">
            <Count
              testId="pool-available"
              label="Available"
              value={pool.available}
              tone={low ? "text-red-700" : "text-ink-900"}
            />
            <Count testId="pool-assigned" label="Sold (assigned)" value={pool.assigned} />
            <Count
              testId="pool-waiting"
              label="Orders waiting for keys"
              value={pool.waitingOrders}
              tone={pool.waitingOrders > 0 ? "text-amber-700" : ""}
            />
          </dl>
          {low ? (
            <p className="mt-3 text-sm font-semibold text-red-700" data-testid="pool-low">
              {pool.available === 0 ? "No keys left" : `Only ${pool.available} left`}: orders will wait for
              keys until more are added.
            </p>
          ) : null}
          {reply ? (
            <p
              role={reply.ok ? "status" : "alert"}
              data-testid="key-import-result"
              className={`mt-4 rounded-lg border p-3 text-sm ${
                reply.ok
                  ? "border-emerald-300 bg-emerald-50 text-emerald-900"
                  : "border-red-300 bg-red-50 text-red-900"
              }`}
            >
              {reply.message}
            </p>
          ) : null}
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <Form
              method="post"
              encType="multipart/form-data"
              className="space-y-3"
              data-testid="key-import-form"
              ref={form}
            >
              <h3 className="text-base font-semibold text-ink-900">Add keys</h3>
              <input type="hidden" name="product" value={product.id} />
              {pool.variants.length > 0 ? (
                <div>
                  <label htmlFor="keys-variant" className="block text-sm font-medium text-ink-800">
                    Variant
                  </label>
                  <select
                    id="keys-variant"
                    name="variant"
                    required
                    defaultValue=""
                    data-testid="key-import-variant"
                    className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
                  >
                    <option value="" disabled>
                      Choose the variant these keys are for
                    </option>
                    {pool.variants.map((variant) => (
                      <option key={variant.sku} value={variant.sku}>
                        {variant.label} ({variant.sku}): {variant.available} available
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              <div>
                <label htmlFor="keys-text" className="block text-sm font-medium text-ink-800">
                  Paste keys, one per line
                </label>
                <textarea
                  id="keys-text"
                  name="keys"
                  rows={6}
                  spellCheck={false}
                  autoComplete="off"
                  className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
                />
              </div>
              <ImportFileField
                id="keys-file"
                label="Or a CSV file (the key in the first column)"
                accept=".csv,.txt,text/csv,text/plain"
                maxBytes={KEY_IMPORT_MAX_BYTES}
              />
              <p className="text-xs text-slate-600">
                Keys already on record (for any product) are skipped. Paid orders waiting for this product get
                their keys at once.
              </p>
              <button
                type="submit"
                disabled={busy}
                className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
              >
                {busy ? "Adding…" : "Add keys"}
              </button>
            </Form>
            <div>
              <h3 className="text-base font-semibold text-ink-900">Newest keys</h3>
              {pool.recent.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600">No keys yet.</p>
              ) : (
                <ul className="mt-2 divide-y divide-slate-100 text-sm" data-testid="recent-keys">
                  {pool.recent.map((key) => (
                    <li key={key.id} className="flex items-center justify-between gap-3 py-1.5">
                      <span className="font-mono" title="Only the last characters are shown">
                        {key.hint}
                      </span>
                      <span className="text-slate-600">added {dateFormat(key.createdAt)}</span>
                      {key.revokedAt !== null ? (
                        <span className="font-semibold text-rose-800" data-testid="key-revoked">
                          Revoked
                          {key.orderNumber !== null ? (
                            <>
                              {" · "}
                              <Link
                                to={`/admin/orders/${key.orderNumber}`}
                                className="text-brand-700 hover:underline"
                              >
                                order #{key.orderNumber}
                              </Link>
                            </>
                          ) : null}
                        </span>
                      ) : key.orderNumber !== null ? (
                        <Link
                          to={`/admin/orders/${key.orderNumber}`}
                          className="text-brand-700 hover:underline"
                        >
                          Sold · order #{key.orderNumber}
                        </Link>
                      ) : key.assignedAt ? (
                        <span className="text-slate-600">Sold</span>
                      ) : (
                        <span className="font-semibold text-emerald-700">Available</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        </>
      )}
    </section>
  );
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
      {pool ? <PoolPanel pool={pool} lowMark={lowMark} reply={actionData} /> : null}
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
