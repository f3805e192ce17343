import { Form, Link } from "react-router";
import { PageHeader } from "~/ui/page-header";

/** The frame of the back-in-stock pages: a heading and one card. */
export function StockAlertCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <PageHeader title={title} />
      <section className="mx-auto max-w-md px-4 py-10" data-testid="stock-alert-page">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">{children}</div>
        <p className="mt-4 text-sm">
          <Link to="/" className="font-semibold text-brand-700 hover:underline">
            Back to the store
          </Link>
        </p>
      </section>
    </div>
  );
}

/** A message on a back-in-stock page: a refusal (alert) or news (status). */
export function StockAlertMessage({ refused, children }: { refused?: boolean; children: React.ReactNode }) {
  return refused ? (
    <p role="alert" className="text-red-800" data-testid="stock-alert-error">
      {children}
    </p>
  ) : (
    <p role="status" className="font-semibold text-ink-900" data-testid="stock-alert-status">
      {children}
    </p>
  );
}

/** One button that posts to the page itself (GET only asks: mail scanners open links). */
export function StockAlertButton({ label, busy }: { label: string; busy: boolean }) {
  return (
    <Form method="post" className="mt-4">
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
      >
        {label}
      </button>
    </Form>
  );
}

export function ProductLink({ path, name }: { path: string; name: string }) {
  return (
    <p className="mt-4 text-sm">
      <Link to={path} className="font-semibold text-brand-700 hover:underline">
        Back to {name}
      </Link>
    </p>
  );
}
