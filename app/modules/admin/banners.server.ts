import { and, asc, count, desc, eq, ilike, max, or, type SQL } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { banners } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { moveRow } from "./reorder.server";
import { NOT_FOUND, type WriteResult } from "./content-db.server";
import type { BannerForm } from "./content-schemas";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const bannerListQuery = listQuerySchema(["position", "title"], { sort: "position", dir: "asc" });
type BannerListQuery = ReturnType<typeof bannerListQuery.parse>;

const sorts = { position: banners.position, title: banners.title };

export type BannerRow = typeof banners.$inferSelect;

/** One page of the home page's banners (the spec's banners list), in the order they show. */
export async function listBanners(db: Database, query: BannerListQuery): Promise<ListPage<BannerRow>> {
  const filters: SQL[] = [];
  if (query.q)
    filters.push(or(ilike(banners.title, likePattern(query.q)), ilike(banners.link, likePattern(query.q)))!);
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = sorts[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(banners)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(banners.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(banners).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function getBanner(db: Database, id: number): Promise<BannerRow | null> {
  const [row] = await db.select().from(banners).where(eq(banners.id, id));
  return row ?? null;
}

/** Adds a banner; without a position it goes last. */
export async function createBanner(db: Database, form: BannerForm, admin: string): Promise<WriteResult> {
  return db.transaction(async (tx) => {
    const { position, ...fields } = form;
    const [last] = await tx.select({ max: max(banners.position) }).from(banners);
    const [after] = await tx
      .insert(banners)
      .values({ ...fields, position: position ?? (last?.max ?? -1) + 1 })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "banner.create",
      entity: "banner",
      entityId: after!.id,
      after,
    });
    return { ok: true, id: after!.id };
  });
}

/** Changes a banner; without a position it keeps its place. */
export async function updateBanner(
  db: Database,
  id: number,
  form: BannerForm,
  admin: string,
): Promise<WriteResult> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(banners).where(eq(banners.id, id)).for("update");
    if (!before) return NOT_FOUND;
    const { position, ...fields } = form;
    const [after] = await tx
      .update(banners)
      .set({ ...fields, position: position ?? before.position })
      .where(eq(banners.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "banner.update",
      entity: "banner",
      entityId: id,
      before,
      after,
    });
    return { ok: true, id };
  });
}

/** Shows or hides a banner on the home page; false when there is none. */
export async function setBannerActive(db: Database, id: number, active: boolean, admin: string) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(banners).where(eq(banners.id, id)).for("update");
    if (!before) return false;
    const [after] = await tx.update(banners).set({ active }).where(eq(banners.id, id)).returning();
    await recordAudit(tx, {
      actor: admin,
      action: active ? "banner.activate" : "banner.deactivate",
      entity: "banner",
      entityId: id,
      before,
      after,
    });
    return true;
  });
}

export async function deleteBanner(db: Database, id: number, admin: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.delete(banners).where(eq(banners.id, id)).returning();
    if (!before) return false;
    await recordAudit(tx, { actor: admin, action: "banner.delete", entity: "banner", entityId: id, before });
    return true;
  });
}

/**
 * Moves a banner one place up or down in the home page's order. The banners are numbered 0, 1, 2... again as
 * they show, so ties left by hand-typed positions stop mattering. The home page shows every active banner, so
 * the table stays small. Returns false when there is no such banner; moving the first up or the last down
 * changes nothing.
 */
export async function moveBanner(db: Database, id: number, direction: "up" | "down", admin: string) {
  return db.transaction((tx) => moveRow(tx, banners, { id, direction, actor: admin, entity: "banner" }));
}
