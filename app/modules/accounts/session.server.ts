import { data, redirect } from "react-router";
import type { Auth } from "./auth.server";
import { COOKIE_PREFIX } from "./auth.server";
import { routePath } from "~/lib/route-path";
import { NOT_AN_ADMIN, NOT_YOUR_AREA } from "./messages";
import { type AdminArea, isStaffRole, mayUse, mayUseArea } from "./staff-roles";

export type Viewer = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string;
  /** The session this request is signed in with (to mark "this session" in the list of sessions). */
  sessionId: string;
  /** An admin made with a temporary password must choose a new one before using the admin area. */
  mustChangePassword: boolean;
};

type SessionContext = { auth: Auth };

const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=`);

/** A cheap look at the cookie header: a visitor without a session cookie costs no database read. */
export function hasSessionCookie(request: Request): boolean {
  return isSessionCookieHeader(request.headers.get("cookie"));
}

/** Whether a Cookie header carries a session cookie (signed in, or a session that has ended since). */
export function isSessionCookieHeader(cookie: string | null | undefined): boolean {
  return SESSION_COOKIE.test(cookie ?? "");
}

/** The signed-in user of a request, from the session in the database; null for a visitor or a dead session. */
export async function getViewer(request: Request, context: SessionContext): Promise<Viewer | null> {
  if (!hasSessionCookie(request)) return null;
  const found = await context.auth.api.getSession({ headers: request.headers });
  if (!found) return null;
  const { user } = found;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    role: (user as { role?: string | null }).role ?? "user",
    sessionId: found.session.id,
    mustChangePassword: (user as { mustChangePassword?: boolean | null }).mustChangePassword === true,
  };
}

/** The path and query of a request, to come back to after signing in. */
export function loginPath(request: Request): string {
  const url = new URL(request.url);
  return `/user/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** The signed-in user, or a redirect to /user/login that comes back to the page asked for. */
export async function requireUser(request: Request, context: SessionContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) throw redirect(loginPath(request));
  return viewer;
}

/** For JSON and event endpoints: the signed-in user, or a 401 (no redirect). */
export async function requireUserApi(request: Request, context: SessionContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) throw data({ ok: false, message: "Sign in first" }, { status: 401 });
  return viewer;
}

/** Personal pages must not be kept by any shared cache. */
export const PRIVATE_HEADERS = { "Cache-Control": "private, no-store" };

/** The admin's own account page, where an admin on a temporary password chooses a new one. */
export const ADMIN_ACCOUNT_PATH = "/admin/account";

/** Where a visitor signs in to the admin area, coming back to the page asked for. */
export function adminLoginPath(request: Request): string {
  const url = new URL(request.url);
  return `/admin?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * The signed-in member of staff, checked on the server for every admin loader and action: a visitor is sent to the
 * admin sign-in, a signed-in customer gets a 403, and so does staff whose role may not use the area of the request's
 * path (the table of `staff-roles.ts`, read on the same canonical path the router matched; a path in no area is the
 * owner's). `area` asks for an area as well, for an action that belongs to another one than its page (changing a
 * role on a customer's page is the owner's). Nothing the browser keeps (the `admin` hint in local storage) counts.
 */
export async function requireAdmin(
  request: Request,
  context: SessionContext,
  { temporaryPassword = false, area }: { temporaryPassword?: boolean; area?: AdminArea } = {},
): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) throw redirect(adminLoginPath(request), { headers: PRIVATE_HEADERS });
  if (!isStaffRole(viewer.role)) {
    throw data({ ok: false, message: NOT_AN_ADMIN }, { status: 403, headers: PRIVATE_HEADERS });
  }
  const path = routePath(new URL(request.url).pathname) ?? "";
  if (!mayUse(viewer.role, path) || (area !== undefined && !mayUseArea(viewer.role, area))) {
    throw data({ ok: false, message: NOT_YOUR_AREA }, { status: 403, headers: PRIVATE_HEADERS });
  }
  // Still on the temporary password of admin:create: nothing of the admin area until a new one is chosen.
  if (viewer.mustChangePassword && !temporaryPassword) {
    throw redirect(ADMIN_ACCOUNT_PATH, { headers: PRIVATE_HEADERS });
  }
  return viewer;
}
