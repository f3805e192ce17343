import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, blogPosts } from "~db/schema";
import { getLatestBlogPosts } from "~/modules/content/home.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import {
  blogListQuery,
  createBlogPost,
  deleteBlogPost,
  getBlogPost,
  listBlogPosts,
  updateBlogPost,
} from "./blogs.server";
import { blogFormSchema } from "./content-schemas";

const ADMIN = "owner@example.com";
const form = (overrides: Record<string, string> = {}) =>
  blogFormSchema.parse({
    slug: "router-placement-tips",
    title: "Where to Put Your Router",
    excerpt: "Walls, floors and microwaves: what slows your Wi-Fi down.",
    image: "/placeholder/blog/router-placement-tips.svg",
    publishedAt: "2026-11-20",
    ...overrides,
  });

describe.each(drivers)("the admin's blog teasers on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  const audit = (id: number) =>
    database.db
      .select({ action: auditLog.action, actor: auditLog.actor, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "blog_post"), eq(auditLog.entityId, String(id))))
      .orderBy(auditLog.id);

  it("creates a teaser the home page shows first, and records who did it", async () => {
    const created = await createBlogPost(database.db, form(), ADMIN);
    if (!created.ok) throw new Error(JSON.stringify(created));
    const latest = await getLatestBlogPosts({ db: database.db });
    expect(latest[0]).toMatchObject({ slug: "router-placement-tips", title: "Where to Put Your Router" });
    expect(latest).toHaveLength(3);
    expect(await audit(created.id)).toEqual([
      {
        action: "blog.create",
        actor: ADMIN,
        after: expect.objectContaining({ slug: "router-placement-tips" }),
      },
    ]);
  });

  it("keeps slugs unique, on create and on edit, and writes nothing when refused", async () => {
    const before = await database.db.select().from(blogPosts);
    expect(await createBlogPost(database.db, form({ title: "Copy" }), ADMIN)).toEqual({
      ok: false,
      reason: "invalid",
      errors: { slug: expect.stringContaining("slug") },
    });
    const other = before.find((post) => post.slug !== "router-placement-tips")!;
    expect(await updateBlogPost(database.db, other.id, form(), ADMIN)).toMatchObject({
      ok: false,
      errors: { slug: expect.any(String) },
    });
    expect(await database.db.select().from(blogPosts)).toEqual(before);
    expect(await audit(other.id)).toEqual([]);
  });

  it("edits a teaser, answering not-found for an unknown id", async () => {
    const [post] = await database.db
      .select()
      .from(blogPosts)
      .where(eq(blogPosts.slug, "router-placement-tips"));
    expect(
      await updateBlogPost(database.db, post!.id, form({ title: "Router Placement, Revisited" }), ADMIN),
    ).toEqual({ ok: true, id: post!.id });
    expect(await getBlogPost(database.db, post!.id)).toMatchObject({ title: "Router Placement, Revisited" });
    expect(await updateBlogPost(database.db, 987_654, form({ slug: "nope" }), ADMIN)).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect((await audit(post!.id)).map((entry) => entry.action)).toEqual(["blog.create", "blog.update"]);
  });

  it("lists teasers a page at a time, searched by title or slug and sorted by any column", async () => {
    for (let n = 1; n <= 7; n++) {
      const made = await createBlogPost(
        database.db,
        form({ slug: `paging-post-${n}`, title: `Paging Post ${n}`, publishedAt: `2025-01-0${n}` }),
        ADMIN,
      );
      expect(made.ok).toBe(true);
    }
    const first = await listBlogPosts(
      database.db,
      blogListQuery.parse({ q: "paging", pageSize: "5", sort: "published", dir: "asc" }),
    );
    expect(first.total).toBe(7);
    expect(first.rows.map((post) => post.slug)).toEqual([1, 2, 3, 4, 5].map((n) => `paging-post-${n}`));
    const second = await listBlogPosts(
      database.db,
      blogListQuery.parse({ q: "paging", pageSize: "5", page: "2", sort: "published", dir: "asc" }),
    );
    expect(second.rows.map((post) => post.slug)).toEqual(["paging-post-6", "paging-post-7"]);
    const byTitle = await listBlogPosts(
      database.db,
      blogListQuery.parse({ q: "PAGING POST", sort: "title", dir: "desc", pageSize: "5" }),
    );
    expect(byTitle.rows[0]!.title).toBe("Paging Post 7");
    // A search with LIKE's own characters finds them literally.
    expect((await listBlogPosts(database.db, blogListQuery.parse({ q: "100%_" }))).total).toBe(0);
  });

  it("deletes a teaser once", async () => {
    const [post] = await database.db.select().from(blogPosts).where(eq(blogPosts.slug, "paging-post-7"));
    expect(await deleteBlogPost(database.db, post!.id, ADMIN)).toBe(true);
    expect(await deleteBlogPost(database.db, post!.id, ADMIN)).toBe(false);
    expect(await getBlogPost(database.db, post!.id)).toBeNull();
    expect((await audit(post!.id)).map((entry) => entry.action)).toEqual(["blog.create", "blog.delete"]);
  });

  it("refuses bad teaser forms with a message per field", () => {
    const result = blogFormSchema.safeParse({
      slug: "Not A Slug!",
      title: "",
      excerpt: "x".repeat(1001),
      image: "javascript:alert(1)",
      publishedAt: "2026-02-30",
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["slug", "title", "excerpt", "image", "publishedAt"]),
    );
    expect(blogFormSchema.safeParse({ ...form(), image: "//evil.example.com/x.png" }).success).toBe(false);
    expect(blogFormSchema.parse({ ...form(), slug: "  Mixed-Case  " }).slug).toBe("mixed-case");
  });
});
