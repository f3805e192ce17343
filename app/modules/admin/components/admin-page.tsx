/** The heading block of an admin page, with the page's own buttons on the right. */
export function AdminPage({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby="admin-page-title">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="admin-page-title" className="text-2xl font-extrabold tracking-tight text-ink-900">
            {title}
          </h1>
          {intro ? <p className="mt-1 max-w-3xl text-sm text-slate-600">{intro}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** The outcome of an admin action, shown above the form or list it changed. */
export function ActionNotice({ result }: { result?: { ok: boolean; message?: string } | null }) {
  if (!result?.message) return null;
  return (
    <p
      role={result.ok ? "status" : "alert"}
      data-testid="action-notice"
      className={`mb-4 rounded-lg border p-3 text-sm ${
        result.ok
          ? "border-emerald-300 bg-emerald-50 text-emerald-900"
          : "border-red-300 bg-red-50 text-red-900"
      }`}
    >
      {result.message}
    </p>
  );
}

/** A card around a form or a group of fields. */
export function Panel({
  title,
  children,
  testId,
  description,
}: {
  title: string;
  children: React.ReactNode;
  testId?: string;
  description?: React.ReactNode;
}) {
  const id = `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid={testId}
    >
      <h2 id={id} className="text-lg font-bold text-ink-900">
        {title}
      </h2>
      {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}
