import { isStaffRole } from "~/modules/accounts/staff-roles";

/** The five admin lists of the spec, by the names they are cached under in the browser's local storage. */
export const ADMIN_LIST_KEYS = ["_user", "_orders", "_blogs", "banners", "seo_metadata"] as const;
export type AdminListKey = (typeof ADMIN_LIST_KEYS)[number];

/** The admin page of each list: staff get a list only when their role may use its page. */
export const ADMIN_LIST_PATHS: Record<AdminListKey, string> = {
  _user: "/admin/users",
  _orders: "/admin/orders",
  _blogs: "/admin/blogs",
  banners: "/admin/banners",
  seo_metadata: "/admin/seo",
};

/** The admin hint in local storage: it grants nothing (the server checks the session on every request). */
export const ADMIN_STORAGE_KEY = "admin";

/** Admin logout: the server ends the session; the browser forgets the admin, the cached lists and local storage. */
export function clearAdminStorage() {
  try {
    window.localStorage.clear();
  } catch (error) {
    console.error("Could not clear local storage", error);
  }
}

/** Does this browser still hold what an admin's session left behind? */
function hasAdminHint(): boolean {
  try {
    return window.localStorage.getItem(ADMIN_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * The page has learnt that the admin's session is over without a logout (it expired, the admin was banned or
 * demoted, or signed out elsewhere): forget what it left, as logout does, and load the page again without it so
 * nothing on it still shows the admin as signed in.
 */
export function forgetEndedAdmin() {
  if (!hasAdminHint()) return;
  clearAdminStorage();
  // Only once the hint is gone: a browser that refuses to clear its storage must not reload for ever.
  if (!hasAdminHint()) window.location.reload();
}

/** Whether the browser's session (cookie) is still an admin's, as the server sees it now; null when unknown. */
export async function adminSessionAlive(): Promise<boolean | null> {
  try {
    const response = await fetch("/api/auth/get-session", { credentials: "same-origin" });
    if (!response.ok) return null;
    const session = (await response.json()) as { user?: { role?: unknown } } | null;
    const role = session?.user?.role;
    return typeof role === "string" && isStaffRole(role);
  } catch {
    return null;
  }
}
