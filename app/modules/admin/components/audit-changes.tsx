import type { ReactNode } from "react";

type Json = unknown;

const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function show(value: Json): string {
  if (value === undefined) return "—";
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value, null, 2);
}

/**
 * What an admin write changed. Two records of fields read as a table of field, before and after: for a change, the
 * fields that changed, with every field on request ("All fields"); for a creation or a deletion, every field.
 * Anything else (a list, say) shows as the two JSON blocks.
 */
export function AuditChanges({ before, after }: { before: Json; after: Json }) {
  if (before == null && after == null) return null;
  if ((before == null || isRecord(before)) && (after == null || isRecord(after))) {
    const old = before ?? {};
    const now = after ?? {};
    const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])];
    if (keys.length === 0) return null;
    const changed = (key: string) => JSON.stringify(old[key]) !== JSON.stringify(now[key]);
    const table = (shown: string[], caption: string, testId?: string) => (
      <FieldTable caption={caption} testId={testId}>
        {shown.map((key) => (
          <FieldRow
            key={key}
            name={key}
            changed={changed(key)}
            before={before == null ? undefined : { value: old[key] }}
            after={after == null ? undefined : { value: now[key] }}
            mark={testId !== undefined}
          />
        ))}
      </FieldTable>
    );
    if (before == null || after == null) {
      return <div data-testid="audit-diff">{table(keys, "Fields before and after", "audit-changed")}</div>;
    }
    const changedKeys = keys.filter(changed);
    return (
      <div data-testid="audit-diff">
        {changedKeys.length > 0 ? (
          table(changedKeys, "Fields changed, before and after", "audit-changed")
        ) : (
          <p className="mt-1 text-xs text-slate-600">No field changed.</p>
        )}
        {changedKeys.length < keys.length ? (
          <details className="mt-1 text-xs" data-testid="audit-all-fields">
            <summary className="flex min-h-6 w-fit cursor-pointer items-center font-semibold text-brand-700">
              All fields ({keys.length})
            </summary>
            {table(keys, "All fields before and after")}
          </details>
        ) : null}
      </div>
    );
  }
  return (
    <div className="mt-1 grid gap-2 text-xs sm:grid-cols-2" data-testid="audit-diff">
      {(
        [
          ["Before", before],
          ["After", after],
        ] as const
      ).map(([label, value]) => (
        <div key={label}>
          <p className="font-semibold text-slate-600">{label}</p>
          <pre
            className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono"
            tabIndex={0}
            aria-label={`${label}, as stored`}
          >
            {value == null ? "—" : JSON.stringify(value, null, 2)}
          </pre>
        </div>
      ))}
    </div>
  );
}

function FieldTable({
  caption,
  testId,
  children,
}: {
  caption: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <table className="mt-1 w-full table-fixed text-xs" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead className="text-left text-slate-600">
        <tr>
          <th scope="col" className="w-1/4 py-1 pr-2 font-semibold">
            Field
          </th>
          <th scope="col" className="py-1 pr-2 font-semibold">
            Before
          </th>
          <th scope="col" className="py-1 font-semibold">
            After
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** One field: its value before and after (undefined: there was no record), marked when it changed. */
function FieldRow({
  name,
  changed,
  before,
  after,
  mark,
}: {
  name: string;
  changed: boolean;
  before: { value: Json } | undefined;
  after: { value: Json } | undefined;
  /** Whether the row carries data-changed (the rows of the main table do, not those of "All fields"). */
  mark: boolean;
}) {
  return (
    <tr data-changed={mark ? changed : undefined} className={changed ? "" : "text-slate-500"}>
      <th scope="row" className="py-0.5 pr-2 text-left align-top font-medium">
        {name}
        {changed ? <span className="sr-only"> (changed)</span> : null}
      </th>
      <td className="py-0.5 pr-2 align-top">
        <pre
          className={`whitespace-pre-wrap break-all font-mono ${changed && before ? "rounded bg-red-50 px-1 text-red-900" : ""}`}
        >
          {before ? show(before.value) : "—"}
        </pre>
      </td>
      <td className="py-0.5 align-top">
        <pre
          className={`whitespace-pre-wrap break-all font-mono ${changed && after ? "rounded bg-emerald-50 px-1 text-emerald-900" : ""}`}
        >
          {after ? show(after.value) : "—"}
        </pre>
      </td>
    </tr>
  );
}
