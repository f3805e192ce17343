import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "~db/client.server";
import { brandContent, brandGroups, companyDetails, seoRecords, webInfo } from "~db/schema";
import type { FieldErrors } from "~/lib/forms";
import { brandPath } from "~/modules/catalogue/sections";
import { recordAudit } from "~/lib/audit-log.server";
import { isUniqueViolation } from "./content-db.server";
import type { WebInfoForm } from "./content-schemas";
import { likePattern, type ListPage, listQuerySchema, offsetOf } from "./list-query";
import type { brandContentFormSchema, companyFormSchema, seoFormSchema } from "./schemas";

export const seoListQuery = listQuerySchema(["route", "title"], { sort: "route", dir: "asc" });

export type SeoRow = typeof seoRecords.$inferSelect;

/** One page of SEO records (the spec's seo_metadata list), searchable by route or title. */
export async function listSeoPage(
  db: Database,
  query: ReturnType<typeof seoListQuery.parse>,
): Promise<ListPage<SeoRow>> {
  const filters: SQL[] = [];
  if (query.q)
    filters.push(
      or(ilike(seoRecords.route, likePattern(query.q)), ilike(seoRecords.title, likePattern(query.q)))!,
    );
  const where = filters.length > 0 ? and(...filters) : undefined;
  const column = query.sort === "title" ? seoRecords.title : seoRecords.route;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(seoRecords)
      .where(where)
      .orderBy(query.dir === "asc" ? asc(column) : desc(column), asc(seoRecords.id))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    db.select({ n: count() }).from(seoRecords).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function getSeoRecord(db: Database, id: number): Promise<SeoRow | null> {
  const [row] = await db.select().from(seoRecords).where(eq(seoRecords.id, id));
  return row ?? null;
}

const ROUTE_TAKEN = "This route already has an SEO record: edit that one";

export type SeoWrite =
  | { ok: true }
  | { ok: false; reason: "invalid"; errors: FieldErrors }
  | { ok: false; reason: "not-found"; errors: FieldErrors };

/** Creates or replaces the SEO record of a route; the storefront reads it on the next request. */
export async function saveSeoRecord(
  db: Database,
  form: z.infer<typeof seoFormSchema>,
  admin: string,
  id?: number,
): Promise<SeoWrite> {
  try {
    return await db.transaction(async (tx): Promise<SeoWrite> => {
      const before =
        id === undefined
          ? undefined
          : (await tx.select().from(seoRecords).where(eq(seoRecords.id, id)).for("update"))[0];
      if (id !== undefined && !before)
        return { ok: false, reason: "not-found", errors: { form: "This record no longer exists" } };
      const [clash] = await tx
        .select({ id: seoRecords.id })
        .from(seoRecords)
        .where(eq(sql`lower(${seoRecords.route})`, form.route.toLowerCase()));
      if (clash && clash.id !== id) return { ok: false, reason: "invalid", errors: { route: ROUTE_TAKEN } };
      if (id === undefined) {
        const [after] = await tx.insert(seoRecords).values(form).returning();
        await recordAudit(tx, {
          actor: admin,
          action: "seo.create",
          entity: "seo_record",
          entityId: after!.id,
          after,
        });
        return { ok: true };
      }
      const [after] = await tx
        .update(seoRecords)
        .set({ ...form, updatedAt: sql`now()` })
        .where(eq(seoRecords.id, id))
        .returning();
      await recordAudit(tx, {
        actor: admin,
        action: "seo.update",
        entity: "seo_record",
        entityId: id,
        before,
        after,
      });
      return { ok: true };
    });
  } catch (error) {
    // Two admins saving the same new route at once: the second meets the unique index.
    if (isUniqueViolation(error)) return { ok: false, reason: "invalid", errors: { route: ROUTE_TAKEN } };
    throw error;
  }
}

/** Deletes an SEO record; false when there was none. The page goes back to its own name and description. */
export async function deleteSeoRecord(db: Database, id: number, admin: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx.delete(seoRecords).where(eq(seoRecords.id, id)).returning();
    if (!before) return false;
    await recordAudit(tx, {
      actor: admin,
      action: "seo.delete",
      entity: "seo_record",
      entityId: id,
      before,
    });
    return true;
  });
}

/** Brand content entries with the brand groups that show each (Windows 7, 8 and XP share one). */
export async function listBrandContent(db: Database) {
  const [entries, groups] = await Promise.all([
    db
      .select({
        key: brandContent.key,
        title: brandContent.title,
        logo: brandContent.logo,
        sample: brandContent.sample,
        updatedAt: brandContent.updatedAt,
      })
      .from(brandContent)
      .orderBy(asc(brandContent.title), asc(brandContent.key)),
    db
      .select({
        key: brandGroups.key,
        name: brandGroups.name,
        slug: brandGroups.slug,
        section: brandGroups.section,
        contentKey: brandGroups.contentKey,
      })
      .from(brandGroups)
      .orderBy(asc(brandGroups.position)),
  ]);
  return entries.map((entry) => ({
    ...entry,
    usedBy: groups
      .filter((group) => group.contentKey === entry.key)
      .map((group) => ({ key: group.key, name: group.name, path: brandPath(group) })),
  }));
}

/** One brand content entry by its key (case-insensitively), with the brand pages that show it; null if none. */
export async function getBrandContent(db: Database, key: string) {
  const [entry] = await db
    .select()
    .from(brandContent)
    .where(eq(sql`lower(${brandContent.key})`, key.toLowerCase()))
    .limit(1);
  if (!entry) return null;
  const groups = await db
    .select({
      key: brandGroups.key,
      name: brandGroups.name,
      slug: brandGroups.slug,
      section: brandGroups.section,
    })
    .from(brandGroups)
    .where(eq(brandGroups.contentKey, entry.key))
    .orderBy(asc(brandGroups.position));
  return {
    entry,
    usedBy: groups.map((group) => ({ key: group.key, name: group.name, path: brandPath(group) })),
  };
}

export async function saveBrandContent(
  db: Database,
  key: string,
  form: z.infer<typeof brandContentFormSchema>,
  admin: string,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(brandContent).where(eq(brandContent.key, key)).for("update");
    if (!before) return false;
    const { supportPhone, supportEmail, website, ...rest } = form;
    const [after] = await tx
      .update(brandContent)
      .set({ ...rest, contact: { supportPhone, supportEmail, website }, updatedAt: sql`now()` })
      .where(eq(brandContent.key, key))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "brand_content.update",
      entity: "brand_content",
      entityId: key,
      before,
      after,
    });
    return true;
  });
}

/** The company details (the header's phone) and the default web info, as the admin edits them. */
export async function getCompanySettings(db: Database) {
  const [[company], [info]] = await Promise.all([
    db.select().from(companyDetails).where(eq(companyDetails.id, 1)),
    db.select().from(webInfo).where(eq(webInfo.id, 1)),
  ]);
  return { company: company ?? null, webInfo: info ?? null };
}

/** Saves the phone of the company details (local and international format), creating the record if missing. */
export async function saveCompanyDetails(
  db: Database,
  form: z.infer<typeof companyFormSchema>,
  admin: string,
) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(companyDetails).where(eq(companyDetails.id, 1)).for("update");
    const [after] = await tx
      .insert(companyDetails)
      .values({ id: 1, ...form })
      .onConflictDoUpdate({ target: companyDetails.id, set: { ...form, updatedAt: sql`now()` } })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "company.update",
      entity: "company_details",
      entityId: 1,
      before,
      after,
    });
  });
}

/** Saves the default web info (store name, e-mail, phone, the two offices), creating the record if missing. */
export async function saveWebInfo(db: Database, form: WebInfoForm, admin: string) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(webInfo).where(eq(webInfo.id, 1)).for("update");
    const [after] = await tx
      .insert(webInfo)
      .values({ id: 1, ...form })
      .onConflictDoUpdate({ target: webInfo.id, set: { ...form, updatedAt: sql`now()` } })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "web_info.update",
      entity: "web_info",
      entityId: 1,
      before,
      after,
    });
  });
}
