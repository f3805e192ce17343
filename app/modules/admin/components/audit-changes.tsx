type Json = unknown;

const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function show(value: Json): string {
  if (value === undefined) return "—";
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value, null, 2);
}

/**
 * What an admin write changed. Two records of fields read as a table of field, before and after, the changed
 * fields marked; anything else (a creation, a deletion, a list) as the two JSON blocks.
 */
export function AuditChanges({ before, after }: { before: Json; after: Json }) {
  if (before == null && after == null) return null;
  if ((before == null || isRecord(before)) && (after == null || isRecord(after))) {
    const old = before ?? {};
    const now = after ?? {};
    const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])];
    if (keys.length === 0) return null;
    return (
      <table className="mt-1 w-full table-fixed text-xs" data-testid="audit-diff">
        <caption className="sr-only">Fields before and after</caption>
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
        <tbody>
          {keys.map((key) => {
            const changed = JSON.stringify(old[key]) !== JSON.stringify(now[key]);
            return (
              <tr key={key} data-changed={changed} className={changed ? "" : "text-slate-500"}>
                <th scope="row" className="py-0.5 pr-2 text-left align-top font-medium">
                  {key}
                  {changed ? <span className="sr-only"> (changed)</span> : null}
                </th>
                <td className="py-0.5 pr-2 align-top">
                  <pre
                    className={`whitespace-pre-wrap break-all font-mono ${changed && before != null ? "rounded bg-red-50 px-1 text-red-900" : ""}`}
                  >
                    {before == null ? "—" : show(old[key])}
                  </pre>
                </td>
                <td className="py-0.5 align-top">
                  <pre
                    className={`whitespace-pre-wrap break-all font-mono ${changed && after != null ? "rounded bg-emerald-50 px-1 text-emerald-900" : ""}`}
                  >
                    {after == null ? "—" : show(now[key])}
                  </pre>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
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
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono">
            {value == null ? "—" : JSON.stringify(value, null, 2)}
          </pre>
        </div>
      ))}
    </div>
  );
}
