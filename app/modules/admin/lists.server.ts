import { data } from "react-router";
import type { z } from "zod";
import type { Database } from "~db/client.server";
import type { ServerContext } from "~/context";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { OWNER_ROLE, mayUse } from "~/modules/accounts/staff-roles";
import { ADMIN_LIST_KEYS, ADMIN_LIST_PATHS, type AdminListKey } from "./admin-storage";
import { bannerListQuery, listBanners } from "./banners.server";
import { blogListQuery, listBlogPosts } from "./blogs.server";
import { rowId } from "./content-schemas";
import { listSeoPage, seoListQuery } from "./content.server";
import { readListQuery } from "./list-query";
import { listOrders, orderListQuery } from "./orders.server";
import { listUsers, userListQuery } from "./users.server";

const firstPage = { q: "", page: 1, pageSize: 25 };

/**
 * Entering the admin area loads the first page of all five lists together. The area renders only when every
 * one has answered; a list that fails is logged and comes back as null (no message for the admin, as the spec
 * says), and the others still show. Staff get only the lists of the areas their role may use (ADR 0037); the
 * others are left out, not null.
 */
export async function loadAdminLists(
  context: Pick<ServerContext, "db" | "logger">,
  role: string = OWNER_ROLE,
) {
  const { db } = context;
  const loads = {
    _user: () => listUsers(db, userListQuery.parse(firstPage)),
    _orders: () => listOrders(db, orderListQuery.parse(firstPage)),
    _blogs: () => listBlogPosts(db, blogListQuery.parse(firstPage)),
    banners: () => listBanners(db, bannerListQuery.parse(firstPage)),
    seo_metadata: () => listSeoPage(db, seoListQuery.parse(firstPage)),
  };
  const keys = ADMIN_LIST_KEYS.filter((key) => mayUse(role, ADMIN_LIST_PATHS[key]));
  const settled = await Promise.allSettled(keys.map((key) => loads[key]()));
  const lists = {} as { [Key in AdminListKey]?: Awaited<ReturnType<(typeof loads)[Key]>> | null };
  keys.forEach((key, index) => {
    const result = settled[index]!;
    if (result.status === "fulfilled") {
      Object.assign(lists, { [key]: result.value });
    } else {
      context.logger.error({ err: result.reason, list: key }, `could not load the admin list ${key}`);
      lists[key] = null;
    }
  });
  return lists;
}

/**
 * The loader of an admin list page, after the admin guard: the list's query from the URL, its page of rows and,
 * when the URL names one (?edit=12, ?id=12), the record open beside the list; a record that is not there is a
 * 404 with the page's own words. `creating` says the URL asks for the new-record form (?new=1).
 */
export async function loadAdminList<Schema extends z.ZodType, Page, Open = never>(
  { request, context }: { request: Request; context: ServerContext },
  list: {
    query: Schema;
    load: (db: Database, query: z.infer<Schema>) => Promise<Page>;
    open?: {
      param: "edit" | "id";
      get: (db: Database, id: number, query: z.infer<Schema>) => Promise<Open | null>;
      notFound: string;
    };
  },
): Promise<{ url: URL; query: z.infer<Schema>; page: Page; open: Open | null; creating: boolean }> {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const query = readListQuery(list.query, request);
  let open: Open | null = null;
  if (list.open && url.searchParams.has(list.open.param)) {
    const id = rowId.safeParse(url.searchParams.get(list.open.param));
    open = id.success ? await list.open.get(context.db, id.data, query) : null;
    if (!open) throw data({ message: list.open.notFound }, { status: 404, headers: PRIVATE_HEADERS });
  }
  const page = await list.load(context.db, query);
  return { url, query, page, open, creating: !open && url.searchParams.get("new") === "1" };
}

/**
 * The loader of an admin list page that shows only its rows: after `loadAdminList`, the query, the total and the
 * page's rows as the page reads them (`row` writes a row's dates as ISO text).
 */
export async function loadAdminRows<Schema extends z.ZodType, Row, Shown>(
  args: { request: Request; context: ServerContext },
  list: {
    query: Schema;
    load: (db: Database, query: z.infer<Schema>) => Promise<{ rows: Row[]; total: number }>;
    row: (row: Row) => Shown;
  },
) {
  const { query, page } = await loadAdminList(args, list);
  return data({ query, total: page.total, rows: page.rows.map(list.row) }, { headers: PRIVATE_HEADERS });
}
