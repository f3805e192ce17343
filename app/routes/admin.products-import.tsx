import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { type ActionReply, refusal, success } from "~/lib/action-reply";
import { formatBytes } from "~/lib/byte-size";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { ImportFileField } from "~/modules/admin/components/import-file-field";
import { cellClass, HeadCell, ListTable } from "~/modules/admin/components/list-controls";
import {
  type CsvColumn,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportReport,
  type ImportRowStatus,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_EXAMPLE,
  VARIANT_CSV_COLUMNS,
  VARIANT_CSV_EXAMPLE,
} from "~/modules/admin/product-import";
import { importKindOf, importProductCsv } from "~/modules/admin/product-import.server";
import { importVariantCsv } from "~/modules/admin/variant-import.server";
import { readTextUpload } from "~/modules/admin/product-upload.server";
import type { Route } from "./+types/admin.products-import";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return data(null, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = () => [{ title: "Import products · Store admin" }];

/** What a check or an import answers: its report, of the file named (none for pasted text). */
type Reply = ActionReply<{ report: ImportReport; fileName: string | null }>;

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const upload = await readTextUpload(request, {
    maxBytes: IMPORT_MAX_BYTES,
    fileField: "file",
    textField: "csv",
  });
  if (!upload.ok) {
    return refusal<Reply>(upload.status, { report: { ok: false, error: upload.error }, fileName: null });
  }
  const mode = upload.values.intent === "import" ? "import" : "check";
  const variants = importKindOf(upload.text) === "variants";
  const importer = variants ? importVariantCsv : importProductCsv;
  const report = await importer(context.db, upload.text, { mode, admin: viewer.email });
  if (!report.ok) {
    // Said first, so that an owner who meant a products file sees why its columns are asked for.
    const error = variants
      ? `Read as a variants file (its header has a sku column). ${report.error}`
      : report.error;
    return refusal<Reply>(400, { report: { ok: false, error }, fileName: upload.fileName });
  }
  if (report.counts.error > 0) return refusal<Reply>(422, { report, fileName: upload.fileName });
  return success<Reply>({ report, fileName: upload.fileName });
}

const STATUS: Record<ImportRowStatus, { label: string; done: string; tone: string }> = {
  create: { label: "New", done: "Created", tone: "bg-emerald-100 text-emerald-900" },
  update: { label: "Changes", done: "Updated", tone: "bg-sky-100 text-sky-900" },
  unchanged: { label: "Unchanged", done: "Unchanged", tone: "bg-slate-100 text-slate-700" },
  error: { label: "Error", done: "Error", tone: "bg-red-100 text-red-900" },
};

/** Most report rows drawn at once; rows with errors come first. */
const SHOWN_ROWS = 1000;

/**
 * The report of a check or an import, at the top of the page. Each new one takes the focus, so it is seen and read
 * out rather than left below the form and the column help.
 */
function Report({ reply }: { reply: Reply }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [reply]);
  const { report } = reply;
  if (!report.ok) {
    return (
      <section ref={ref} tabIndex={-1} aria-label="Import report" className="mb-6 focus:outline-none">
        <p
          role="alert"
          data-testid="import-error"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          {report.error}
        </p>
      </section>
    );
  }
  const { counts, imported, mode, kind } = report;
  const failed = counts.error > 0;
  const summary = imported
    ? `Imported${reply.fileName ? ` ${reply.fileName}` : ""}: ${counts.create} created, ${counts.update} updated, ${counts.unchanged} unchanged.`
    : failed
      ? `${mode === "import" ? "Nothing was imported" : "The file cannot be imported yet"}: ${counts.error} of ${report.rows.length} ${report.rows.length === 1 ? "row has" : "rows have"} errors. Fix ${counts.error === 1 ? "it" : "them"} and check the file again.`
      : `The file is fine: importing it would create ${counts.create}, update ${counts.update} and leave ${counts.unchanged} unchanged. Nothing is written until you import.`;
  const ordered = [...report.rows].sort(
    (a, b) => Number(b.status === "error") - Number(a.status === "error") || a.row - b.row,
  );
  const shown = ordered.slice(0, SHOWN_ROWS);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="import-report"
      className="mb-8 focus:outline-none"
      data-testid="import-report"
    >
      <h2 id="import-report" className="text-lg font-bold text-ink-900">
        {mode === "check" ? "Check" : "Import"} report
      </h2>
      <p
        role={failed ? "alert" : "status"}
        data-testid="import-summary"
        className={`mt-2 rounded-lg border p-3 text-sm ${
          failed
            ? "border-red-300 bg-red-50 text-red-900"
            : "border-emerald-300 bg-emerald-50 text-emerald-900"
        }`}
      >
        {summary}
      </p>
      <p className="mt-2 text-sm text-slate-700" data-testid="import-kind">
        {kind === "variants"
          ? "Read as a variants file (its header has a sku column): each row is a variant, found by its SKU."
          : "Read as a products file: each row is a product. A file whose header has a sku column is read as variants."}
      </p>
      <ListTable
        caption="One line per row of the file"
        head={
          <>
            <HeadCell className="w-16 text-right">Row</HeadCell>
            <HeadCell className="w-28">Result</HeadCell>
            <HeadCell>{kind === "variants" ? "Variant" : "Product"}</HeadCell>
            <HeadCell>Messages</HeadCell>
          </>
        }
      >
        {shown.map((row) => {
          const status = STATUS[row.status];
          return (
            <tr key={row.row} data-testid="import-row" data-row={row.row} data-status={row.status}>
              <td className={`${cellClass} text-right tabular-nums`}>{row.row}</td>
              <td className={cellClass}>
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status.tone}`}>
                  {imported ? status.done : status.label}
                </span>
              </td>
              <td className={cellClass}>
                {row.productId && imported ? (
                  <Link
                    to={`/admin/products/${row.productId}${row.sku ? "#variants" : ""}`}
                    className="font-semibold hover:text-brand-700"
                  >
                    {row.name || "(no name)"}
                  </Link>
                ) : (
                  <span className="font-semibold">{row.name || "(no name)"}</span>
                )}
                {row.sku ? <p className="font-mono text-xs text-ink-900">{row.sku}</p> : null}
                <p className="text-xs text-slate-600">{row.route}</p>
              </td>
              <td className={cellClass}>
                {row.errors ? (
                  <ul className="space-y-0.5 text-red-800">
                    {Object.entries(row.errors).map(([column, message]) => (
                      <li key={column}>
                        <strong>{column === "row" ? "Row" : column}:</strong> {message}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </td>
            </tr>
          );
        })}
      </ListTable>
      {ordered.length > shown.length ? (
        <p className="mt-2 text-sm text-slate-600">
          {ordered.length - shown.length} more rows without errors are not listed.
        </p>
      ) : null}
    </section>
  );
}

/** One kind of file's columns, required ones starred, and an example that passes a check. */
function ColumnHelp({
  id,
  title,
  intro,
  columns,
  example,
  exampleTestId,
}: {
  id: string;
  exampleTestId: string;
  title: string;
  intro: React.ReactNode;
  columns: Array<CsvColumn<string>>;
  example: string;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 id={id} className="text-base font-semibold text-ink-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{intro}</p>
      <dl className="mt-2 space-y-1.5 text-sm">
        {columns.map((column) => (
          <div key={column.field} className="grid grid-cols-[9rem_minmax(0,1fr)] gap-2">
            <dt className="font-mono text-xs leading-5 text-ink-900">
              {column.header}
              {column.required ? <span className="text-red-700"> *</span> : null}
            </dt>
            <dd className="text-slate-700 wrap-break-word">{column.help}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-ink-900">Example</h3>
      <pre
        className="mt-1 whitespace-pre-wrap break-all rounded-lg bg-slate-50 p-3 text-xs text-slate-800"
        data-testid={exampleTestId}
      >
        {example}
      </pre>
    </section>
  );
}

export default function ImportProducts({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const working = busy ? navigation.formData?.get("intent") : null;
  return (
    <AdminPage
      title="Import products"
      intro={`A CSV file with a header row, one product, or one variant, per row: at most ${IMPORT_MAX_ROWS.toLocaleString("en-US")} rows and ${formatBytes(IMPORT_MAX_BYTES)}. A row whose product exists (same group and id, or same address when the file has no id) updates it; the others create products. Variants: see Variants file below.`}
    >
      {actionData ? <Report reply={actionData} /> : null}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Form
          method="post"
          encType="multipart/form-data"
          className="space-y-4 self-start rounded-xl border border-slate-200 bg-white p-5"
          data-testid="import-form"
        >
          <ImportFileField
            id="import-file"
            label="CSV file"
            accept=".csv,text/csv,text/plain"
            maxBytes={IMPORT_MAX_BYTES}
          />
          <div>
            <label htmlFor="import-text" className="block text-sm font-medium text-ink-800">
              Or paste the CSV
            </label>
            <textarea
              id="import-text"
              name="csv"
              rows={10}
              spellCheck={false}
              placeholder={PRODUCT_CSV_EXAMPLE.split("\n")[0]}
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
            />
            <p className="mt-1 text-xs text-slate-600">A chosen file is used instead of pasted text.</p>
          </div>
          <p className="text-sm text-slate-700">
            All or nothing: if any row has an error, no row is imported. Check first to see what would happen.
          </p>
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              name="intent"
              value="check"
              disabled={busy}
              className="rounded-lg border border-slate-300 bg-white px-5 py-2.5 text-sm font-semibold text-ink-900 hover:bg-slate-50 disabled:text-slate-400"
            >
              {working === "check" ? "Checking…" : "Check"}
            </button>
            <button
              type="submit"
              name="intent"
              value="import"
              disabled={busy}
              className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
            >
              {working === "import" ? "Importing…" : "Import"}
            </button>
          </div>
        </Form>
        <div className="space-y-6">
          <ColumnHelp
            id="csv-columns"
            title="Columns"
            intro="A products file: one product per row."
            columns={PRODUCT_CSV_COLUMNS}
            example={PRODUCT_CSV_EXAMPLE}
            exampleTestId="import-example"
          />
          <ColumnHelp
            id="variant-columns"
            title="Variants file"
            intro={
              <>
                A file whose header has a <code className="font-mono text-xs">sku</code> column is read as
                variants, one per row: a row with a known SKU (in any case) updates that variant, a new SKU
                adds one to the product at the route. Variants the file leaves out are kept.{" "}
                <a
                  href="/admin/export/variants.csv"
                  download
                  className="font-semibold text-brand-700 hover:underline"
                  data-testid="export-variants-here"
                >
                  Download the variants as CSV
                </a>{" "}
                to edit them.
              </>
            }
            columns={VARIANT_CSV_COLUMNS}
            example={VARIANT_CSV_EXAMPLE}
            exampleTestId="variant-example"
          />
          <p className="text-xs text-slate-600">
            <span className="text-red-700">*</span> required. Columns a file leaves out keep their values when
            a product or variant is updated. Comma, semicolon or tab separated, UTF-8.
          </p>
        </div>
      </div>
    </AdminPage>
  );
}
