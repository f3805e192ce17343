/**
 * The owner's queue of product reviews (/admin/reviews): new ones wait (pending) until approved (public) or hidden;
 * an approved one can be hidden later, a hidden one approved again, and any may get a public reply. Every answer is
 * audited; approving, hiding and replying change the content version (migration 0033), so the product's cached
 * pages and every card showing its stars are rendered again.
 */
import { count, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~db/client.server";
import { orders, productReviews, products, REVIEW_STATUSES, type ReviewStatus, user } from "~db/schema";
import { recordAudit } from "~/lib/audit-log.server";
import { type ListPage, listQuerySchema, offsetOf } from "./list-query";

export const reviewQuery = listQuerySchema(["created"], { sort: "created", dir: "asc" }).extend({
  /** Which reviews: those waiting (the queue) by default, or those of one status, or all. */
  status: z
    .enum([...REVIEW_STATUSES, "all"])
    .optional()
    .catch(undefined)
    .transform((value) => value ?? "pending"),
});
export type ReviewQuery = z.infer<typeof reviewQuery>;

export type ReviewRow = {
  id: number;
  status: ReviewStatus;
  rating: number;
  body: string;
  authorName: string;
  sample: boolean;
  reply: string | null;
  createdAt: string;
  moderatedAt: string | null;
  moderatedBy: string | null;
  product: { id: number; name: string; route: string };
  customerEmail: string | null;
  orderNumber: number | null;
};

/** The reviews of a status: waiting ones oldest first (the longest waiting), others newest first. */
export async function listReviews(db: Database, query: ReviewQuery): Promise<ListPage<ReviewRow>> {
  const where = query.status === "all" ? undefined : eq(productReviews.status, query.status);
  const rows = await db
    .select({
      id: productReviews.id,
      status: productReviews.status,
      rating: productReviews.rating,
      body: productReviews.body,
      authorName: productReviews.authorName,
      sample: productReviews.sample,
      reply: productReviews.reply,
      createdAt: productReviews.createdAt,
      moderatedAt: productReviews.moderatedAt,
      moderatedBy: productReviews.moderatedBy,
      product: { id: products.id, name: products.name, route: products.route },
      customerEmail: user.email,
      orderNumber: orders.number,
    })
    .from(productReviews)
    .innerJoin(products, eq(products.id, productReviews.productId))
    .leftJoin(user, eq(user.id, productReviews.userId))
    .leftJoin(orders, eq(orders.id, productReviews.orderId))
    .where(where)
    .orderBy(
      sql`${productReviews.status} <> 'pending'`,
      sql`case when ${productReviews.status} = 'pending' then ${productReviews.createdAt} end asc`,
      desc(productReviews.createdAt),
      desc(productReviews.id),
    )
    .limit(query.pageSize)
    .offset(offsetOf(query));
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(productReviews).where(where);
  return {
    total,
    rows: rows.map(({ createdAt, moderatedAt, ...row }) => ({
      ...row,
      createdAt: createdAt.toISOString(),
      moderatedAt: moderatedAt?.toISOString() ?? null,
    })),
  };
}

/** How many reviews wait for the owner (the admin's menu and dashboard). */
export async function pendingReviewCount(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(productReviews)
    .where(eq(productReviews.status, "pending"));
  return row?.n ?? 0;
}

export type ModerationOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 404 | 409; message: string };

export type Moderation =
  | { intent: "approve" | "hide"; reviewId: number }
  | { intent: "reply"; reviewId: number; reply: string }
  | { intent: "unreply"; reviewId: number };

const NEXT_STATUS = { approve: "approved", hide: "hidden" } as const;

/**
 * Approve, hide, reply or take the reply back, in one transaction with its audit record. The review is locked, so
 * two admins answering at once take turns, and the second is told what the first did instead of repeating it.
 */
export async function moderateReview(
  db: Database,
  change: Moderation,
  admin: string,
): Promise<ModerationOutcome> {
  return db.transaction(async (tx) => {
    const [review] = await tx
      .select({
        id: productReviews.id,
        status: productReviews.status,
        reply: productReviews.reply,
        productId: productReviews.productId,
        product: products.name,
      })
      .from(productReviews)
      .innerJoin(products, eq(products.id, productReviews.productId))
      .where(eq(productReviews.id, change.reviewId))
      .for("update", { of: productReviews });
    if (!review)
      return { ok: false, status: 404, message: "There is no such review: it may have been deleted." };
    const audit = (action: string, before: unknown, after: unknown) =>
      recordAudit(tx, {
        actor: admin,
        action,
        entity: "product_review",
        entityId: review.id,
        before: { ...(before as object), product: review.productId },
        after,
      });
    const where = eq(productReviews.id, review.id);
    if (change.intent === "approve" || change.intent === "hide") {
      const status = NEXT_STATUS[change.intent];
      if (review.status === status)
        return { ok: false, status: 409, message: `This review is ${status} already: nothing changed.` };
      await tx
        .update(productReviews)
        .set({ status, moderatedAt: sql`now()`, moderatedBy: `admin:${admin}` })
        .where(where);
      await audit(`review.${change.intent}`, { status: review.status }, { status });
      return {
        ok: true,
        message:
          status === "approved"
            ? `Approved: the review now shows on ${review.product}'s page.`
            : `Hidden: the review no longer shows on ${review.product}'s page.`,
      };
    }
    if (change.intent === "unreply") {
      if (review.reply === null)
        return { ok: false, status: 409, message: "This review has no reply to remove." };
      await tx.update(productReviews).set({ reply: null, repliedAt: null }).where(where);
      await audit("review.reply.remove", { reply: review.reply }, { reply: null });
      return { ok: true, message: "Reply removed." };
    }
    const { reply } = change as Extract<Moderation, { intent: "reply" }>;
    await tx
      .update(productReviews)
      .set({ reply, repliedAt: sql`now()` })
      .where(where);
    await audit("review.reply", { reply: review.reply }, { reply });
    return {
      ok: true,
      message:
        review.status === "approved"
          ? "Reply saved: it shows under the review."
          : "Reply saved: it will show under the review once approved.",
    };
  });
}
