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
