import { Form, NavLink } from "react-router";

const LINKS = [
  { to: "/user/dashboard", label: "Dashboard" },
  { to: "/user/orders", label: "Orders" },
  { to: "/user/licences", label: "Licences" },
  { to: "/user/address", label: "Address book" },
  { to: "/user/account", label: "Account settings" },
] as const;

/** The frame of the signed-in customer's pages: a title, the account's sections and the way out. */
export function AccountShell({
  title,
  intro,
  children,
  testId,
}: {
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  testId: string;
}) {
  return (
    <div className="bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10" data-testid={testId}>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Your account</p>
            <h1 className="mt-1 text-3xl font-extrabold tracking-tight text-ink-900">{title}</h1>
            {intro ? <div className="mt-2 text-slate-600">{intro}</div> : null}
          </div>
        </div>
        <div className="mt-6 grid gap-6 md:grid-cols-[13rem_1fr] md:gap-8">
          <nav aria-label="Account sections" className="md:sticky md:top-6 md:h-fit">
            <ul className="flex flex-wrap gap-2 md:flex-col md:flex-nowrap md:gap-1">
              {LINKS.map((link) => (
                <li key={link.to} className="shrink-0">
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      `block rounded-lg px-3 py-2 text-sm font-semibold ${
                        isActive
                          ? "bg-brand-700 text-white"
                          : "bg-white text-ink-800 hover:bg-brand-50 md:bg-transparent"
                      }`
                    }
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
              <li className="shrink-0 md:mt-2 md:border-t md:border-slate-200 md:pt-2">
                <Form method="post" action="/user/logout">
                  <button
                    type="submit"
                    className="block w-full rounded-lg bg-white px-3 py-2 text-left text-sm font-semibold text-ink-800 hover:bg-brand-50 md:bg-transparent"
                  >
                    Sign out
                  </button>
                </Form>
              </li>
            </ul>
          </nav>
          <div className="min-w-0">{children}</div>
        </div>
      </div>
    </div>
  );
}

export function Card({
  title,
  children,
  action,
  testId,
}: {
  title: string;
  children: React.ReactNode;
  action?: React.ReactNode;
  testId?: string;
}) {
  return (
    <section
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      data-testid={testId}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-bold text-ink-900">{title}</h2>
        {action}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

export const formatDate = (iso: string | null, withTime = false) =>
  iso
    ? new Date(iso).toLocaleString("en-US", {
        dateStyle: "medium",
        ...(withTime ? { timeStyle: "short" } : {}),
        timeZone: "UTC",
      }) + (withTime ? " UTC" : "")
    : "never";
