/**
 * Staff roles and the one table of admin areas to the roles that may use them (ADR 0037). The server's check
 * (`requireAdmin`, which finds the area of the request's path here) and the admin menu (which shows a link only when
 * `mayUse` says so) both read this table, so they cannot disagree. A path of the admin area that is in no area here is
 * the owner's only: a page added later without a line here is closed to staff, not open to them.
 *
 * No server code and no dependencies: the menu and the browser's session check use it too.
 */

/** The stored `user.role` values of staff. The owner's is `admin`, the value every admin had before staff roles. */
export const STAFF_ROLES = ["admin", "orders", "content", "support"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The names people use (the CLI's `--role`, the staff page's choices), each with its stored value. */
export const ROLE_NAMES = {
  owner: "admin",
  orders: "orders",
  content: "content",
  support: "support",
} as const;
export type RoleName = keyof typeof ROLE_NAMES;
export const ROLE_NAME_LIST = Object.keys(ROLE_NAMES) as RoleName[];

export const OWNER_ROLE: StaffRole = "admin";

export const ROLE_LABELS: Record<StaffRole, string> = {
  admin: "Owner",
  orders: "Orders",
  content: "Content",
  support: "Support",
};

export const isStaffRole = (role: string | null | undefined): role is StaffRole =>
  (STAFF_ROLES as readonly string[]).includes(role ?? "");

/** The stored value of a role's name (`owner` → `admin`); undefined for a name that is no role. */
export const roleFromName = (name: string): StaffRole | undefined =>
  Object.hasOwn(ROLE_NAMES, name) ? ROLE_NAMES[name as RoleName] : undefined;

/** The name of a stored role (`admin` → `owner`). */
export const nameOfRole = (role: StaffRole): RoleName =>
  ROLE_NAME_LIST.find((name) => ROLE_NAMES[name] === role)!;

type Area = { label: string; roles: readonly StaffRole[]; paths: readonly string[] };

/**
 * Every admin area: who may use it (its pages, their actions, its files and exports) and its paths, written as in
 * `app/routes.ts` (`:param` is one segment). The first area whose path matches decides.
 */
export const ADMIN_AREAS = {
  // Everyone on the staff: the dashboard (each role sees its own figures), their own account, signing out.
  home: {
    label: "Dashboard and own account",
    roles: STAFF_ROLES,
    paths: ["/admin", "/admin/account", "/admin/logout"],
  },
  orders: {
    label: "Orders, shipping, refunds, invoices",
    roles: ["admin", "orders"],
    paths: [
      "/admin/orders",
      "/admin/orders/:number",
      "/admin/orders/:number/documents/:file",
      "/admin/invoices",
      "/admin/export/orders.csv",
      "/admin/export/invoices.csv",
    ],
  },
  messages: {
    label: "Customers' messages",
    roles: ["admin", "orders", "support"],
    paths: ["/admin/messages"],
  },
  customers: {
    label: "Customers",
    roles: ["admin", "support"],
    paths: ["/admin/users", "/admin/users/:id"],
  },
  emails: { label: "E-mails sent", roles: ["admin", "support"], paths: ["/admin/emails"] },
  // Customers' reviews of products: public words about the catalogue, often answered as support would.
  reviews: { label: "Product reviews", roles: ["admin", "content", "support"], paths: ["/admin/reviews"] },
  catalogue: {
    label: "Catalogue",
    roles: ["admin", "content"],
    paths: [
      "/admin/products",
      "/admin/products/import",
      "/admin/products/:id",
      "/admin/export/products.csv",
      "/admin/export/variants.csv",
    ],
  },
  content: {
    label: "Brand content, pages, SEO, banners, blogs, files",
    roles: ["admin", "content"],
    paths: [
      "/admin/blogs",
      "/admin/banners",
      "/admin/seo",
      "/admin/brand-content",
      "/admin/brand-content/:key",
      "/admin/pages",
      "/admin/pages/:slug",
      "/admin/files",
    ],
  },
  owner: {
    label: "Settings, taxes, company, staff, audit log, discount codes, key pools and costs",
    roles: ["admin"],
    paths: [
      "/admin/settings",
      "/admin/taxes",
      "/admin/company",
      "/admin/staff",
      "/admin/audit",
      "/admin/promotions",
      "/admin/promotions/:id",
      "/admin/keys",
      "/admin/key-reports",
      "/admin/export/keys.csv",
    ],
  },
} as const satisfies Record<string, Area>;

export type AdminArea = keyof typeof ADMIN_AREAS;

const matches = (pattern: string, path: string) => {
  const want = pattern.split("/");
  const got = path.split("/");
  return want.length === got.length && want.every((part, i) => part.startsWith(":") || part === got[i]);
};

/**
 * The area of an admin path (canonical: lower case, no trailing slash, no `.data`), or undefined when it is in none
 * (then only the owner may use it).
 */
export function areaOfPath(path: string): AdminArea | undefined {
  return (Object.keys(ADMIN_AREAS) as AdminArea[]).find((area) =>
    ADMIN_AREAS[area].paths.some((pattern) => matches(pattern, path)),
  );
}

/** Whether a role may use a path of the admin area: the owner anything, staff only their areas' paths. */
export function mayUse(role: string | null | undefined, path: string): boolean {
  if (role === OWNER_ROLE) return true;
  if (!isStaffRole(role)) return false;
  const area = areaOfPath(path);
  return area !== undefined && (ADMIN_AREAS[area].roles as readonly string[]).includes(role);
}

/** Whether a role may use an area (for what a page shows, such as the dashboard's figures). */
export const mayUseArea = (role: string | null | undefined, area: AdminArea) =>
  isStaffRole(role) && (ADMIN_AREAS[area].roles as readonly string[]).includes(role);
