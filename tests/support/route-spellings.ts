import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "~/routes";

/**
 * Every route of app/routes.ts as an address to ask for, and other spellings of it that React Router renders as the
 * same route: for the tests and attacks that check no decision about a path can be talked out of by its spelling.
 * Read from the route table itself, so a new route is covered the day it is added.
 */

/** Values for dynamic segments: the demo store's where it has one (a page that renders), any other otherwise. */
const SAMPLE_PARAMS: Record<string, string> = {
  service: "web-development",
  brand: "mcafee",
  slug: "about",
  what: "orders",
  file: "invoice.pdf",
  kind: "product",
  name: "sample.svg",
  // A brand's page, answered by the catch-all route.
  "*": "antivirus/mcafee",
};
const OTHER_PARAM = "sample-1";

export type RouteSample = {
  /** The route's id in the table, as the build names it (and the page's router data shows it). */
  id: string;
  /** Its pattern, with the parents' (`admin/orders/:number`). */
  pattern: string;
  /** An address it answers, dynamic segments filled in (`/admin/orders/sample-1`). */
  path: string;
};

/** One sample address for each route of the table, parents' paths joined, index routes at their parent's path. */
export function routeSamples(entries: RouteConfigEntry[] = routes, parent = ""): RouteSample[] {
  return entries.flatMap((entry) => {
    const pattern = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own: RouteSample[] =
      entry.path !== undefined || entry.index
        ? [{ id: entry.id ?? entry.file.replace(/\.tsx?$/, ""), pattern, path: `/${fillParams(pattern)}` }]
        : [];
    return [...own, ...routeSamples(entry.children ?? [], pattern)];
  });
}

const fillParams = (pattern: string) =>
  pattern
    .split("/")
    .map((segment) =>
      segment === "*"
        ? SAMPLE_PARAMS["*"]
        : segment.startsWith(":")
          ? (SAMPLE_PARAMS[segment.slice(1).replace(/\?$/, "")] ?? OTHER_PARAM)
          : segment,
    )
    .join("/");

/**
 * The same address as typed, with its first letter percent-encoded (`/%75ser/login`) and in upper case
 * (`/USER/LOGIN`): React Router decodes the one and ignores the case of the other. The home page has no letter to
 * spell otherwise.
 */
export function spellingsOf(path: string): string[] {
  const letter = /[A-Za-z]/.exec(path);
  if (!letter) return [path];
  const at = letter.index;
  const encoded = `${path.slice(0, at)}%${path.charCodeAt(at).toString(16)}${path.slice(at + 1)}`;
  return [path, encoded, path.toUpperCase()];
}

/**
 * Spellings of the personal addresses that a path compared as typed would take for public ones: dot segments,
 * trailing slashes, mixed case, encoded letters and dots, a data request's suffix. Each is rendered by the route of
 * the address it stands for.
 */
export const HOSTILE_SPELLINGS: Array<{ spelling: string; means: string }> = [
  { spelling: "/%75ser/reset-password?token=sample-token", means: "/user/reset-password" },
  { spelling: "/%55ser/login", means: "/user/login" },
  { spelling: "/%61dmin", means: "/admin" },
  { spelling: "/%70ayment", means: "/payment" },
  { spelling: "/%6frder/lookup", means: "/order/lookup" },
  { spelling: "/%6Frder/lookup", means: "/order/lookup" },
  { spelling: "/Admin", means: "/admin" },
  { spelling: "/ADMIN/", means: "/admin" },
  { spelling: "/admin//", means: "/admin" },
  { spelling: "/user/../admin", means: "/admin" },
  { spelling: "/about/%2e%2e/user/login", means: "/user/login" },
  { spelling: "/%2e/user/login", means: "/user/login" },
  { spelling: "/user/reset-password/_.data?token=sample-token", means: "/user/reset-password" },
  { spelling: "/%75ser/reset-password.data?token=sample-token", means: "/user/reset-password" },
  { spelling: "/us%65r/orders", means: "/user/orders" },
];
