import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import {
  brandContent,
  brandGroups,
  licenceKeyReports,
  licenceKeys,
  orderLines,
  orders,
  products,
  productVariants,
} from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import type { KeyCipher } from "~/lib/key-cipher.server";
import { type LicenceExpiry, licenceExpiry } from "./licences";

/** One key on the customer's licences page: what it is for and where it came from, never the key itself. */
export type OwnedLicence = {
  id: number;
  hint: string;
  productName: string;
  variantLabel: string | null;
  orderNumber: number;
  expiry: LicenceExpiry;
  /** The customer said it does not work, and the store has not answered yet. */
  reported: boolean;
  /** The store's reply to the customer's last report of this key, when it turned the report down (null: none). */
  rejectedReply: string | null;
  /** The brand's download and activation site, from its support content (null: it has none). */
  brandWebsite: string | null;
  /** The brand's support page in the store (null: the product is gone). */
  supportPath: string | null;
  /** What Renew puts into the cart: the same variant, or the product sold without one (null: no longer sold). */
  renew: { groupKey: string; id: string; variant?: string; name: string; productPath: string } | null;
};

/**
 * Who owns a key: the account its order belongs to. A guest order joins an account (orders.user_id set) once its
 * e-mail address is confirmed, so its keys are the customer's from then on. Keys of refunded lines are revoked and
 * not the customer's any more.
 */
const ownedBy = (userId: string) =>
  and(eq(orders.userId, userId), isNotNull(licenceKeys.orderLineId), isNull(licenceKeys.revokedAt));

/** Every key the signed-in customer owns, newest first, with each key's expiry as seen from `now`. */
export async function licencesForUser(db: Database, userId: string, now: Date): Promise<OwnedLicence[]> {
  const rows = await db
    .select({
      id: licenceKeys.id,
      hint: licenceKeys.keyHint,
      expiresAt: licenceKeys.expiresAt,
      productName: orderLines.name,
      variantLabel: orderLines.variantLabel,
      soldVariantSku: orderLines.variantSku,
      orderNumber: orders.number,
      product: {
        groupKey: products.groupKey,
        externalId: products.externalId,
        route: products.route,
        hidden: products.hidden,
      },
      variant: { sku: productVariants.sku, hidden: productVariants.hidden },
      brandSlug: brandGroups.slug,
      contact: brandContent.contact,
      reported: sql<boolean>`exists (
        select 1 from ${licenceKeyReports}
        where ${licenceKeyReports.licenceKeyId} = ${licenceKeys.id} and ${licenceKeyReports.status} = 'open'
      )`,
      rejectedReply: sql<string | null>`(
        select ${licenceKeyReports.reply} from ${licenceKeyReports}
        where ${licenceKeyReports.licenceKeyId} = ${licenceKeys.id} and ${licenceKeyReports.status} = 'rejected'
        order by ${licenceKeyReports.resolvedAt} desc, ${licenceKeyReports.id} desc
        limit 1
      )`,
    })
    .from(licenceKeys)
    .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(products, eq(products.id, orderLines.productId))
    .leftJoin(productVariants, eq(productVariants.id, orderLines.variantId))
    .leftJoin(brandGroups, eq(brandGroups.key, products.groupKey))
    .leftJoin(brandContent, eq(brandContent.key, brandGroups.contentKey))
    .where(ownedBy(userId))
    .orderBy(desc(orders.createdAt), desc(orders.id), desc(licenceKeys.id));
  return rows.map((row) => ({
    id: row.id,
    hint: row.hint,
    productName: row.productName,
    variantLabel: row.variantLabel,
    orderNumber: row.orderNumber,
    expiry: licenceExpiry(row.expiresAt, now),
    reported: row.reported,
    rejectedReply: row.reported ? null : row.rejectedReply,
    brandWebsite: row.contact?.website.trim() || null,
    supportPath: row.brandSlug ? `/support/${row.brandSlug}` : null,
    renew: renewal(row),
  }));
}

/**
 * What Renew buys: the variant sold, if the store still sells it, or the product when it was sold without variants.
 * A variant deleted or hidden since, or a hidden product, cannot be renewed from here.
 */
function renewal(row: {
  productName: string;
  soldVariantSku: string | null;
  product: { groupKey: string; externalId: string; route: string; hidden: boolean } | null;
  variant: { sku: string; hidden: boolean } | null;
}): OwnedLicence["renew"] {
  const { product, variant } = row;
  if (!product || product.hidden) return null;
  const base = { groupKey: product.groupKey, id: product.externalId, name: row.productName };
  if (row.soldVariantSku === null) return { ...base, productPath: product.route };
  if (!variant || variant.hidden) return null;
  return {
    ...base,
    variant: variant.sku,
    productPath: `${product.route}?variant=${encodeURIComponent(variant.sku)}`,
  };
}

/**
 * A key of the customer's, decrypted, with an audit row saying who saw which key (never the key). Null when the
 * key is not theirs (another customer's, revoked, or none): nothing is audited then.
 */
export async function revealLicenceKey(
  ctx: { db: Database; cipher: KeyCipher },
  viewer: { id: string; email: string },
  keyId: number,
): Promise<string | null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ sealed: licenceKeys.keyCiphertext, orderNumber: orders.number })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(eq(licenceKeys.id, keyId), ownedBy(viewer.id)));
    if (!row) return null;
    const key = ctx.cipher.decrypt(row.sealed);
    await recordAudit(tx, {
      actor: viewer.email,
      action: "licence.reveal",
      entity: "licence_key",
      entityId: keyId,
      after: { order: row.orderNumber },
    });
    return key;
  });
}

/**
 * "This key does not work": an open report on a key of the customer's, with their reason (10 to 500 characters,
 * checked by the caller and again by the table), audited. A key reported already keeps its open report (asking again
 * changes nothing). False when the key is not theirs: nothing is written then.
 */
export async function reportLicenceKey(
  db: Database,
  viewer: { id: string; email: string },
  keyId: number,
  reason: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(eq(licenceKeys.id, keyId), ownedBy(viewer.id)));
    if (!owned) return false;
    const [report] = await tx
      .insert(licenceKeyReports)
      .values({ licenceKeyId: keyId, userId: viewer.id, reason })
      .onConflictDoNothing({
        target: licenceKeyReports.licenceKeyId,
        where: sql`${licenceKeyReports.status} = 'open'`,
      })
      .returning({ id: licenceKeyReports.id });
    if (report)
      await recordAudit(tx, {
        actor: viewer.email,
        action: "licence.report",
        entity: "licence_key",
        entityId: keyId,
        after: { report: report.id, reason },
      });
    return true;
  });
}
