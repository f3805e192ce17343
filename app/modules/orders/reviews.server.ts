/**
 * A verified buyer's review: who may write one (a paid, unrefunded line of the product in one of their orders) and
 * writing it, once per product. The new review waits for the owner (/admin/reviews); nothing public changes yet.
 */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { orderLines, orders, productReviews, products } from "~db/schema";
import type { ReviewInput } from "~/modules/catalogue/review-schemas";
import { REVIEWABLE_ORDER_STATUSES } from "./reviewable";

export type ReviewSubject = {
  product: { id: number; name: string; route: string; img: string; hidden: boolean };
  /** The earliest qualifying order: kept with the review as evidence for the owner. */
  orderId: number;
  orderNumber: number;
};

export type OwnReview = {
  id: number;
  rating: number;
  body: string;
  authorName: string;
  status: "pending" | "approved" | "hidden";
  reply: string | null;
  createdAt: string;
};

/**
 * What the customer bought of this product, if anything: the product and their first paid order of it (any of its
 * variants: a review is of the product). Orders placed as a guest count once joined to the account
 * (orders.user_id), as for their licences.
 */
export async function reviewSubject(
  db: Database,
  userId: string,
  productId: number,
): Promise<ReviewSubject | null> {
  const [row] = await db
    .select({
      product: {
        id: products.id,
        name: products.name,
        route: products.route,
        img: products.img,
        hidden: products.hidden,
      },
      orderId: orders.id,
      orderNumber: orders.number,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderLines.productId, productId),
        inArray(orders.status, [...REVIEWABLE_ORDER_STATUSES]),
        isNull(orderLines.refundedAt),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id))
    .limit(1);
  return row ?? null;
}

/** The customer's own review of a product, whatever its status; null when they have written none. */
export async function ownReview(db: Database, userId: string, productId: number): Promise<OwnReview | null> {
  const [row] = await db
    .select({
      id: productReviews.id,
      rating: productReviews.rating,
      body: productReviews.body,
      authorName: productReviews.authorName,
      status: productReviews.status,
      reply: productReviews.reply,
      createdAt: productReviews.createdAt,
    })
    .from(productReviews)
    .where(and(eq(productReviews.userId, userId), eq(productReviews.productId, productId)));
  return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
}

export type SubmitOutcome =
  | { ok: true; reviewId: number }
  | { ok: false; status: 403 | 404 | 409; message: string };

export const NOT_BOUGHT =
  "Only customers who bought this product (a paid order in their account) can review it.";
export const ALREADY_REVIEWED = "You have reviewed this product already: one review per product.";

/**
 * Writes the review, pending the owner's approval. Refused with nothing written when the product was not bought
 * (403, or 404 for no such product) or was reviewed already (409: the unique index decides between two posts at
 * once).
 */
export async function submitReview(
  db: Database,
  userId: string,
  productId: number,
  input: ReviewInput,
): Promise<SubmitOutcome> {
  const subject = await reviewSubject(db, userId, productId);
  if (!subject) {
    const [exists] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
    return exists
      ? { ok: false, status: 403, message: NOT_BOUGHT }
      : { ok: false, status: 404, message: "There is no such product." };
  }
  const [row] = await db
    .insert(productReviews)
    .values({
      productId,
      userId,
      orderId: subject.orderId,
      rating: input.rating,
      body: input.body,
      authorName: input.authorName,
    })
    .onConflictDoNothing({ target: [productReviews.productId, productReviews.userId] })
    .returning({ id: productReviews.id });
  if (!row) return { ok: false, status: 409, message: ALREADY_REVIEWED };
  return { ok: true, reviewId: row.id };
}

/** What the review page shows: the product (null: no such product), whether it was bought, and the review written. */
export async function reviewPageData(db: Database, userId: string, productId: number) {
  const [[product], subject, own] = await Promise.all([
    db
      .select({ id: products.id, name: products.name, route: products.route })
      .from(products)
      .where(eq(products.id, productId)),
    reviewSubject(db, userId, productId),
    ownReview(db, userId, productId),
  ]);
  return { product: product ?? null, bought: subject !== null, own };
}
