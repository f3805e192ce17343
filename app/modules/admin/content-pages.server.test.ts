import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, pages } from "~db/schema";
import { getPage } from "~/modules/content/pages.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { getPageForEdit, listPages, savePage } from "./content-pages.server";
import { PAGE_LIMITS, PAGE_SLUGS, pageFormSchema } from "./content-schemas";

const ADMIN = "owner@example.com";

describe.each(drivers)("the admin's Markdown pages on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  it("lists the six information and policy pages", async () => {
    const list = await listPages(database.db);
    expect(list.map((page) => page.slug).sort()).toEqual([...PAGE_SLUGS].sort());
    expect(list.every((page) => page.length > 100)).toBe(true);
  });

  it("saves a page's title and body, stamps it updated now, and the storefront shows it", async () => {
    // Make the stored stamp old, so "updated now" is visible.
    await database.db
      .update(pages)
      .set({ updatedAt: sql`now() - interval '30 days'` })
      .where(eq(pages.slug, "shipping-policy"));
    const before = (await getPageForEdit(database.db, "Shipping-Policy"))!;
    const form = pageFormSchema.parse({
      title: "  Shipping Policy (2027)  ",
      body: "## Delivery\n\nWe ship **worldwide**.\n",
    });
    expect(await savePage(database.db, "shipping-policy", form, ADMIN)).toBe(true);
    const shown = (await getPage({ db: database.db }, "shipping-policy"))!;
    expect(shown).toMatchObject({
      title: "Shipping Policy (2027)",
      body: "## Delivery\n\nWe ship **worldwide**.",
    });
    expect(shown.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime() + 29 * 86_400_000);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "page"), eq(auditLog.entityId, "shipping-policy")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: ADMIN,
      action: "page.update",
      before: expect.objectContaining({ title: before.title }),
      after: expect.objectContaining({ title: "Shipping Policy (2027)" }),
    });
  });

  it("answers false for a page that does not exist and writes nothing", async () => {
    expect(await savePage(database.db, "careers", { title: "Careers", body: "Join us" }, ADMIN)).toBe(false);
    expect(await getPageForEdit(database.db, "careers")).toBeNull();
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.entityId, "careers"));
    expect(audit).toEqual([]);
  });

  it("refuses an empty or oversized page", () => {
    const empty = pageFormSchema.safeParse({ title: " ", body: "\n\n" });
    expect(empty.error!.issues.map((issue) => issue.path.join("."))).toEqual(["title", "body"]);
    expect(pageFormSchema.safeParse({ title: "T", body: "x".repeat(PAGE_LIMITS.body + 1) }).success).toBe(
      false,
    );
    expect(pageFormSchema.safeParse({ title: 42, body: ["x"] }).success).toBe(false);
  });
});
