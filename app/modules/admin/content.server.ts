import { asc, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "~db/client.server";
import {
  brandContent,
  brandGroups,
  companyDetails,
  contactMessages,
  quoteRequests,
  seoRecords,
} from "~db/schema";
import type { FieldErrors } from "~/lib/forms";
import { recordAudit } from "./audit.server";
import type { brandContentFormSchema, companyFormSchema, seoFormSchema } from "./schemas";

export async function listSeoRecords(db: Database) {
  return db.select().from(seoRecords).orderBy(asc(seoRecords.route));
}

/** Creates or replaces the SEO record of a route; the storefront reads it on the next request. */
export async function saveSeoRecord(
  db: Database,
  form: z.infer<typeof seoFormSchema>,
  admin: string,
  id?: number,
): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  return db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ id: seoRecords.id })
      .from(seoRecords)
      .where(eq(sql`lower(${seoRecords.route})`, form.route.toLowerCase()));
    if (clash && clash.id !== id)
      return { ok: false, errors: { route: "This route already has an SEO record: edit that one" } };
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
    const [before] = await tx.select().from(seoRecords).where(eq(seoRecords.id, id)).for("update");
    if (!before) return { ok: false, errors: { form: "This record no longer exists" } };
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
}

export async function deleteSeoRecord(db: Database, id: number, admin: string) {
  await db.transaction(async (tx) => {
    const [before] = await tx.delete(seoRecords).where(eq(seoRecords.id, id)).returning();
    if (before)
      await recordAudit(tx, {
        actor: admin,
        action: "seo.delete",
        entity: "seo_record",
        entityId: id,
        before,
      });
  });
}

/** Brand content entries with the brand groups that show each (Windows 7, 8 and XP share one). */
export async function listBrandContent(db: Database) {
  const [entries, groups] = await Promise.all([
    db.select().from(brandContent).orderBy(asc(brandContent.title)),
    db
      .select({ key: brandGroups.key, name: brandGroups.name, contentKey: brandGroups.contentKey })
      .from(brandGroups)
      .orderBy(asc(brandGroups.position)),
  ]);
  return entries.map((entry) => ({
    ...entry,
    usedBy: groups.filter((group) => group.contentKey === entry.key).map((group) => group.name),
  }));
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

export async function saveCompanyDetails(
  db: Database,
  form: z.infer<typeof companyFormSchema>,
  admin: string,
) {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(companyDetails).where(eq(companyDetails.id, 1));
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

export async function listMessages(db: Database) {
  const [contact, quotes] = await Promise.all([
    db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt)).limit(200),
    db.select().from(quoteRequests).orderBy(desc(quoteRequests.createdAt)).limit(200),
  ]);
  return { contact, quotes };
}
