import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { pages } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import type { PageForm } from "./content-schemas";

/** The editable Markdown pages (about, disclaimer, the policies), with how long each body is. */
export async function listPages(db: Database) {
  return db
    .select({
      slug: pages.slug,
      title: pages.title,
      updatedAt: pages.updatedAt,
      length: sql<number>`char_length(${pages.body})::int`,
    })
    .from(pages)
    .orderBy(asc(pages.slug));
}

export async function getPageForEdit(db: Database, slug: string) {
  const [row] = await db.select().from(pages).where(eq(pages.slug, slug.toLowerCase())).limit(1);
  return row ?? null;
}

/** Saves a page's title and Markdown body and stamps it as updated now; false when there is no such page. */
export async function savePage(db: Database, slug: string, form: PageForm, admin: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(pages).where(eq(pages.slug, slug)).for("update");
    if (!before) return false;
    const [after] = await tx
      .update(pages)
      .set({ ...form, updatedAt: sql`now()` })
      .where(eq(pages.slug, slug))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "page.update",
      entity: "page",
      entityId: slug,
      before,
      after,
    });
    return true;
  });
}
