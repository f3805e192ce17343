import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Link,
  Outlet,
  type ShouldRevalidateFunctionArgs,
  useRouteError,
} from "react-router";
import { getViewer, PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { isStaffRole, mayUse } from "~/modules/accounts/staff-roles";
import { forgetEndedAdmin } from "~/modules/admin/admin-storage";
import { AdminShell } from "~/modules/admin/components/admin-shell";
import { openKeyReportCount } from "~/modules/admin/key-reports.server";
import { loadAdminLists } from "~/modules/admin/lists.server";
import { pendingReviewCount } from "~/modules/admin/reviews.server";
import type { Route } from "./+types/admin";

/**
 * The admin area's frame. For a signed-in admin it loads the five lists of the spec together, and nothing of the
 * area renders until all five have answered. Every page below checks the admin itself (requireAdmin): this
 * loader decides only what frame to draw.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  // An admin still on admin:create's temporary password sees no admin frame until choosing a new one.
  if (!viewer || !isStaffRole(viewer.role) || viewer.mustChangePassword) {
    return data(
      { admin: null, lists: null, openKeyReports: 0, pendingReviews: 0 },
      { headers: PRIVATE_HEADERS },
    );
  }
  const [lists, openKeyReports, pendingReviews] = await Promise.all([
    loadAdminLists(context, viewer.role),
    mayUse(viewer.role, "/admin/key-reports") ? openKeyReportCount(context.db) : 0,
    mayUse(viewer.role, "/admin/reviews") ? pendingReviewCount(context.db) : 0,
  ]);
  return data(
    {
      admin: { id: viewer.id, email: viewer.email, name: viewer.name, role: viewer.role },
      lists,
      openKeyReports,
      pendingReviews,
    },
    { headers: PRIVATE_HEADERS },
  );
}

// The lists change only when something is posted (an admin's edit, signing in or out), not on every page turn.
// Going to /admin (the dashboard, or the sign-in every admin page sends to once the session is over) reads the
// session and the lists again, so the frame learns when the admin is gone.
export function shouldRevalidate({
  formMethod,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod !== undefined && formMethod !== "GET") return defaultShouldRevalidate;
  return nextUrl.pathname === "/admin";
}

export const meta: Route.MetaFunction = () => [
  { title: "Store admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const signedIn = Boolean(loaderData.admin && loaderData.lists);
  // No admin session here, but the browser still holds an admin's lists: the session ended without a logout.
  useEffect(() => {
    if (!signedIn) forgetEndedAdmin();
  }, [signedIn]);
  if (!loaderData.admin || !loaderData.lists) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-12">
        <Outlet />
      </div>
    );
  }
  return (
    <AdminShell
      admin={loaderData.admin}
      lists={loaderData.lists}
      openKeyReports={loaderData.openKeyReports}
      pendingReviews={loaderData.pendingReviews}
    >
      <Outlet />
    </AdminShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Refused as a visitor or a customer: whatever an admin session left in this browser goes.
  useEffect(() => {
    if (status === 401 || status === 403) forgetEndedAdmin();
  }, [status]);
  const message =
    isRouteErrorResponse(error) && typeof (error.data as { message?: unknown })?.message === "string"
      ? (error.data as { message: string }).message
      : status === 404
        ? "Nothing here: it may have been deleted."
        : "Something went wrong. Try again in a moment.";
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center" data-testid="admin-error">
      <h1 className="text-2xl font-bold text-ink-900">
        {status === 403 ? "No access" : status === 404 ? "Not found" : "Something went wrong"}
      </h1>
      <p className="mt-3 text-slate-600">{message}</p>
      <Link className="mt-6 inline-block font-semibold text-brand-700 hover:underline" to="/admin">
        Back to the admin area
      </Link>
    </section>
  );
}
