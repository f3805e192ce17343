import { and, asc, count, desc, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "~db/client.server";
import { blogPosts } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { isUniqueViolation, NOT_FOUND, refused, type WriteResult } from "./content-db.server";
import type { BlogForm } from "./content-schemas";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const blogListQuery = listQuerySchema(["published", "title", "slug"], {
  sort: "published",
  dir: "desc",
});
type BlogListQuery = ReturnType<typeof blogListQuery.parse>;

const sorts = { published: blogPosts.publishedAt, title: blogPosts.title, slug: blogPosts.slug };

export type BlogPostRow = typeof blogPosts.$inferSelect;

/** One page of the blog teasers the home page shows (the spec's _blogs list). */
export async function listBlogPosts(db: Database, query: BlogListQuery): Promise<ListPage<BlogPostRow>> {
  const filters: SQL[] = [];
  if (query.q)
    filters.push(
      or(ilike(blogPosts.title, likePattern(query.q)), ilike(blogPosts.slug, likePattern(query.q)))!,
    );
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = sorts[query.sort];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(blogPosts)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(blogPosts.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(blogPosts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function getBlogPost(db: Database, id: number): Promise<BlogPostRow | null> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id));
  return row ?? null;
}

const SLUG_TAKEN = "Another teaser has this slug: each post has its own";

/** Creates a blog teaser (shown on the home page among the latest); the slug must be free. */
export async function createBlogPost(db: Database, form: BlogForm, admin: string): Promise<WriteResult> {
  try {
    return await db.transaction(async (tx): Promise<WriteResult> => {
      if (await slugTaken(tx, form.slug)) return refused({ slug: SLUG_TAKEN });
      const [after] = await tx.insert(blogPosts).values(form).returning();
      await recordAudit(tx, {
        actor: admin,
        action: "blog.create",
        entity: "blog_post",
        entityId: after!.id,
        after,
      });
      return { ok: true, id: after!.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refused({ slug: SLUG_TAKEN });
    throw error;
  }
}

export async function updateBlogPost(
  db: Database,
  id: number,
  form: BlogForm,
  admin: string,
): Promise<WriteResult> {
  try {
    return await db.transaction(async (tx): Promise<WriteResult> => {
      const [before] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for("update");
      if (!before) return NOT_FOUND;
      if (await slugTaken(tx, form.slug, id)) return refused({ slug: SLUG_TAKEN });
      const [after] = await tx.update(blogPosts).set(form).where(eq(blogPosts.id, id)).returning();
      await recordAudit(tx, {
        actor: admin,
        action: "blog.update",
        entity: "blog_post",
        entityId: id,
        before,
        after,
      });
      return { ok: true, id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refused({ slug: SLUG_TAKEN });
    throw error;
  }
}

/** Deletes a teaser; false when there was none. */
export async function deleteBlogPost(db: Database, id: number, admin: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.delete(blogPosts).where(eq(blogPosts.id, id)).returning();
    if (!before) return false;
    await recordAudit(tx, { actor: admin, action: "blog.delete", entity: "blog_post", entityId: id, before });
    return true;
  });
}

async function slugTaken(tx: Transaction, slug: string, exceptId?: number) {
  const [row] = await tx
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), exceptId === undefined ? undefined : ne(blogPosts.id, exceptId)))
    .limit(1);
  return row !== undefined;
}
