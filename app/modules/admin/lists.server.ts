import type { ServerContext } from "~/context";
import { ADMIN_LIST_KEYS, type AdminListKey } from "./admin-storage";
import { bannerListQuery, listBanners } from "./banners.server";
import { blogListQuery, listBlogPosts } from "./blogs.server";
import { listSeoPage, seoListQuery } from "./content.server";
import { listOrders, orderListQuery } from "./orders.server";
import { listUsers, userListQuery } from "./users.server";

const firstPage = { q: "", page: 1, pageSize: 25 };

/**
 * Entering the admin area loads the first page of all five lists together. The area renders only when every
 * one has answered; a list that fails is logged and comes back as null (no message for the admin, as the spec
 * says), and the others still show.
 */
export async function loadAdminLists(context: Pick<ServerContext, "db" | "logger">) {
  const { db } = context;
  const loads = {
    _user: () => listUsers(db, userListQuery.parse(firstPage)),
    _orders: () => listOrders(db, orderListQuery.parse(firstPage)),
    _blogs: () => listBlogPosts(db, blogListQuery.parse(firstPage)),
    banners: () => listBanners(db, bannerListQuery.parse(firstPage)),
    seo_metadata: () => listSeoPage(db, seoListQuery.parse(firstPage)),
  };
  const settled = await Promise.allSettled(ADMIN_LIST_KEYS.map((key) => loads[key]()));
  const lists = {} as { [Key in AdminListKey]: Awaited<ReturnType<(typeof loads)[Key]>> | null };
  ADMIN_LIST_KEYS.forEach((key, index) => {
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
