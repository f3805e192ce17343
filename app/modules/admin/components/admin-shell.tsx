import { useEffect } from "react";
import { Form, NavLink, useRouteLoaderData } from "react-router";
import { writeStored } from "~/lib/browser-storage";
import { mayUse } from "~/modules/accounts/staff-roles";
import {
  ADMIN_LIST_KEYS,
  ADMIN_STORAGE_KEY,
  type AdminListKey,
  adminSessionAlive,
  clearAdminStorage,
  forgetEndedAdmin,
} from "../admin-storage";

export const ADMIN_NAV = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/invoices", label: "Invoices" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/keys", label: "Licence keys" },
  { to: "/admin/key-reports", label: "Key reports" },
  { to: "/admin/reviews", label: "Reviews" },
  { to: "/admin/promotions", label: "Discount codes" },
  { to: "/admin/taxes", label: "Taxes" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/blogs", label: "Blogs" },
  { to: "/admin/banners", label: "Banners" },
  { to: "/admin/seo", label: "SEO records" },
  { to: "/admin/brand-content", label: "Brand content" },
  { to: "/admin/company", label: "Company details" },
  { to: "/admin/pages", label: "Pages" },
  { to: "/admin/messages", label: "Messages" },
  { to: "/admin/emails", label: "E-mails" },
  { to: "/admin/files", label: "Files" },
  { to: "/admin/audit", label: "Audit log" },
  { to: "/admin/staff", label: "Staff" },
  { to: "/admin/account", label: "Your account" },
  { to: "/admin/settings", label: "Settings" },
] as const;

/**
 * Whether the signed-in member of staff may open an admin path (the table of staff-roles.ts, as the menu reads it),
 * for a link on a page that leads to another role's area.
 */
export function useMayOpen(path: string): boolean {
  const layout = useRouteLoaderData("routes/admin") as { admin?: { role?: string } | null } | undefined;
  return mayUse(layout?.admin?.role, path);
}

/** The lists the role may see (the others are not there); null for one that failed to load. */
type Lists = Partial<Record<AdminListKey, { total: number; rows: unknown[] } | null>>;

/**
 * Keeps the browser's copies the spec names: the admin (a hint for the page only; the server checks every
 * request) and the five cached lists. A list that failed to load is a console error and nothing more.
 */
function useAdminCache(admin: { id: string; email: string; name: string }, lists: Lists) {
  useEffect(() => {
    writeStored(ADMIN_STORAGE_KEY, admin);
    for (const key of ADMIN_LIST_KEYS) {
      const list = lists[key];
      if (list === undefined) continue;
      if (list) writeStored(key, list.rows);
      else console.error(`Error fetching ${key}`);
    }
  }, [admin, lists]);
}

/**
 * When the admin comes back to this tab, the page asks the server whether the session is still an admin's (it may
 * have expired or been ended elsewhere meanwhile), and forgets the admin at once if not.
 */
function useSessionCheckOnReturn() {
  useEffect(() => {
    const check = async () => {
      if (document.visibilityState !== "visible") return;
      if ((await adminSessionAlive()) === false) forgetEndedAdmin();
    };
    document.addEventListener("visibilitychange", check);
    return () => document.removeEventListener("visibilitychange", check);
  }, []);
}

export function AdminShell({
  admin,
  lists,
  openKeyReports,
  pendingReviews,
  children,
}: {
  admin: { id: string; email: string; name: string; role: string };
  lists: Lists;
  /** Keys customers reported broken that wait for an answer. */
  openKeyReports: number;
  /** Product reviews waiting for approval. */
  pendingReviews: number;
  children: React.ReactNode;
}) {
  useAdminCache(admin, lists);
  useSessionCheckOnReturn();
  const counts: Partial<Record<string, number | undefined>> = {
    "/admin/orders": lists._orders?.total,
    "/admin/users": lists._user?.total,
    "/admin/blogs": lists._blogs?.total,
    "/admin/banners": lists.banners?.total,
    "/admin/seo": lists.seo_metadata?.total,
    "/admin/key-reports": openKeyReports,
    "/admin/reviews": pendingReviews,
  };
  return (
    <div
      className="mx-auto flex w-full max-w-[90rem] flex-col gap-6 px-4 py-6 lg:flex-row"
      data-testid="admin-shell"
    >
      <aside className="lg:w-56 lg:shrink-0">
        <p className="text-lg font-extrabold text-ink-900">Store admin</p>
        <p className="mt-1 truncate text-xs text-slate-500" data-testid="admin-email">
          {admin.email}
        </p>
        <nav aria-label="Admin" className="mt-4">
          <ul className="flex flex-wrap gap-1 lg:flex-col">
            {ADMIN_NAV.filter((item) => mayUse(admin.role, item.to)).map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={"end" in item}
                  prefetch="intent"
                  className={({ isActive }) =>
                    `flex items-center justify-between gap-2 rounded-lg px-3 py-1.5 text-sm ${
                      isActive ? "bg-brand-700 font-semibold text-white" : "text-ink-900 hover:bg-slate-100"
                    }`
                  }
                >
                  {item.label}
                  {counts[item.to] !== undefined ? (
                    <span className="text-xs">{counts[item.to]!.toLocaleString("en-US")}</span>
                  ) : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <Form method="post" action="/admin/logout" className="mt-4" onSubmit={clearAdminStorage}>
          <button
            type="submit"
            className="w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
          >
            Log out
          </button>
        </Form>
      </aside>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
