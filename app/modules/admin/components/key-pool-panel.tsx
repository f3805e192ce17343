import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { formatMoney } from "~/lib/money";
import type { keyPoolDetail } from "../product-keys.server";
import { KEY_IMPORT_MAX_BYTES } from "../product-import";
import { ImportFileField } from "./import-file-field";

type KeyPool = NonNullable<Awaited<ReturnType<typeof keyPoolDetail>>>;

const dateFormat = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

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

/** What an import did: the keys added, the ones already in the pool and the orders served. */
export type KeyImported = { added?: number; duplicates?: number; delivered?: number[] };
type KeyImportReply = ActionReply<KeyImported>;

/** What the unsold keys cost: "$120.00", with how many have no cost on record. */
function poolValueText({ valueCents, uncosted }: { valueCents: number; uncosted: number }) {
  if (uncosted === 0) return formatMoney(valueCents);
  const without = `${uncosted} ${uncosted === 1 ? "key" : "keys"} without a cost`;
  // Every unsold key without a cost: the value is not known, not nothing.
  return valueCents === 0 ? `Not known (${without})` : `${formatMoney(valueCents)} (${without})`;
}

/** Where a key came from, as imported: "Acme Keys · batch 2026-11 · $12.50", or nothing said. */
function sourceText(key: { supplier: string | null; batch: string | null; costCents: number | null }) {
  return [
    key.supplier,
    key.batch === null ? null : `batch ${key.batch}`,
    key.costCents === null ? null : formatMoney(key.costCents),
  ]
    .filter(Boolean)
    .join(" · ");
}

const fieldClass = "mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm";

/** One product's key pool: its counts and value, the import form and its newest keys (hints only). */
export function KeyPoolPanel({
  pool,
  lowMark,
  reply,
}: {
  pool: KeyPool;
  lowMark: number;
  reply?: KeyImportReply;
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
          <dl className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
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
            <div
              className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3"
              data-testid="pool-value"
            >
              <dt className="text-sm text-slate-600">Unsold keys at cost</dt>
              <dd className="text-2xl font-bold tabular-nums">
                {pool.valueCents === 0 && pool.uncosted > 0 ? "Not known" : formatMoney(pool.valueCents)}
              </dd>
              {pool.uncosted > 0 ? (
                <dd className="text-xs text-slate-600">
                  {pool.uncosted} {pool.uncosted === 1 ? "key" : "keys"} without a cost
                </dd>
              ) : null}
            </div>
          </dl>
          {pool.variants.length > 0 ? (
            <table className="mt-4 w-full text-sm" data-testid="variant-pools">
              <caption className="sr-only">Keys of each variant</caption>
              <thead className="text-left text-slate-600">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-semibold">
                    Variant
                  </th>
                  <th scope="col" className="py-1 pr-3 text-right font-semibold">
                    Available
                  </th>
                  <th scope="col" className="py-1 text-right font-semibold">
                    At cost
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {pool.variants.map((variant) => (
                  <tr key={variant.sku} data-testid="variant-pool" data-sku={variant.sku}>
                    <td className="py-1 pr-3">
                      {variant.label} <span className="text-xs text-slate-600">({variant.sku})</span>
                    </td>
                    <td
                      className={`py-1 pr-3 text-right tabular-nums ${variant.available < lowMark ? "font-semibold text-red-700" : ""}`}
                    >
                      {variant.available}
                    </td>
                    <td className="py-1 text-right tabular-nums">{poolValueText(variant)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
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
              className="min-w-0 space-y-3"
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
                    className={fieldClass}
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
                label="Or a CSV file: the key in the first column, or columns named key, supplier, cost and batch"
                accept=".csv,.txt,text/csv,text/plain"
                maxBytes={KEY_IMPORT_MAX_BYTES}
              />
              <fieldset className="grid min-w-0 gap-3 sm:grid-cols-3">
                <legend className="mb-1 text-sm font-medium text-ink-800">
                  Where they came from (optional; a file&apos;s own columns win)
                </legend>
                <div>
                  <label htmlFor="keys-supplier" className="block text-sm text-ink-800">
                    Supplier
                  </label>
                  <input id="keys-supplier" name="supplier" maxLength={100} className={fieldClass} />
                </div>
                <div>
                  <label htmlFor="keys-cost" className="block text-sm text-ink-800">
                    Cost per key ($)
                  </label>
                  <input
                    id="keys-cost"
                    name="cost"
                    inputMode="decimal"
                    placeholder="12.50"
                    className={fieldClass}
                  />
                </div>
                <div>
                  <label htmlFor="keys-batch" className="block text-sm text-ink-800">
                    Batch
                  </label>
                  <input id="keys-batch" name="batch" maxLength={100} className={fieldClass} />
                </div>
              </fieldset>
              <p className="text-xs text-slate-600">
                Keys already on record (for any product) are skipped. Paid orders waiting for this product get
                their keys at once. With a cost, each order shows its margin (price minus the keys&apos;
                cost).
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
                      <span className="text-slate-600">
                        added {dateFormat(key.createdAt)}
                        {sourceText(key) ? (
                          <span className="block text-xs" data-testid="key-source">
                            {sourceText(key)}
                          </span>
                        ) : null}
                      </span>
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
