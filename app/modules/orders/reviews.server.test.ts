import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, orderLines, productReviews, products, productVariants } from "~db/schema";
import { moderateReview, pendingReviewCount } from "~/modules/admin/reviews.server";
import { productCardsById } from "~/modules/catalogue/catalogue.server";
import { productJsonLd } from "~/modules/catalogue/product-seo.server";
import { DEFAULT_CHOICE } from "~/lib/currency-context";
import { reviewForm } from "~/modules/catalogue/review-schemas";
import { productReviewsPage } from "~/modules/catalogue/reviews.server";
import { type ContentVersion, startContentVersion } from "~/modules/content/content-version.server";
import { recordingLogger } from "../../../tests/support/logger";
import { signUpCustomers } from "../../../tests/support/accounts";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { type OrdersContext, placeOrder } from "./orders.server";
import { refundOrder } from "./refunds.server";
import { ALREADY_REVIEWED, NOT_BOUGHT, reviewPageData, submitReview } from "./reviews.server";

const ADMIN = "owner@example.com";
const BITDEFENDER_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 1 };
const GOOD = {
  rating: "4",
  body: "Installed in minutes, and it found nothing to complain about.",
  authorName: "Ada L.",
};

describe("the review form's schema (shared by the form and the action)", () => {
  const messageOf = (values: Record<string, string>) => {
    const parsed = reviewForm.safeParse({ ...GOOD, ...values });
    return parsed.success ? null : parsed.error.issues[0]!.message;
  };
  it("takes a rating from 1 to 5, plain text of 10 to 2,000 characters and a name", () => {
    expect(reviewForm.parse(GOOD)).toEqual({ ...GOOD, rating: 4 });
  });
  it("refuses an empty, too long or marked-up text and a rating outside 1 to 5, each with its message", () => {
    expect(messageOf({ body: "" })).toBe("Write your review.");
    expect(messageOf({ body: "Too short" })).toMatch(/at least 10 characters/);
    expect(messageOf({ body: "x".repeat(10_000) })).toBe("Keep your review to 2,000 characters.");
    expect(messageOf({ body: "<script>alert(1)</script> great product" })).toMatch(/plain text/);
    for (const rating of ["0", "6", "abc", "", "4.5"])
      expect(messageOf({ rating })).toBe("Choose a rating from 1 to 5 stars.");
    expect(messageOf({ authorName: " " })).toMatch(/how your name should be shown/);
  });
});

describe.each(drivers)("verified reviews on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let version: ContentVersion;
  let bitdefender: { id: number };
  const ada = { id: "", email: "ada.reviews@example.com" };
  const bob = { id: "", email: "bob.reviews@example.com" };
  const cyd = { id: "", email: "cyd.reviews@example.com" };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    await signUpCustomers(database.db, ctx.env, [ada, bob, cyd]);
    version = await startContentVersion(database, recordingLogger().logger);
    const [variant] = await database.db
      .select({ productId: productVariants.productId })
      .from(productVariants)
      .where(eq(productVariants.sku, BITDEFENDER_1Y.variant));
    bitdefender = { id: variant!.productId };
  });
  afterAll(async () => {
    await version?.close();
  });

  /** Runs a write and says whether the store-wide content version (every cached page) moved after it. */
  const invalidates = async <Result>(write: () => Promise<Result>) => {
    const before = version.current();
    const result = await write();
    version.wrote();
    await version.catchUp();
    return { result, moved: version.current() > before };
  };
  const buy = async (customer: { id: string; email: string }) => {
    const placed = await placeOrder(
      ctx,
      checkout({ email: customer.email, cart: [BITDEFENDER_1Y] }),
      customer.id,
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    return placed;
  };
  const reviewsOf = (userId: string) =>
    database.db.select().from(productReviews).where(eq(productReviews.userId, userId));
  const input = reviewForm.parse(GOOD);

  it("refuses a customer who did not buy the product, and a product that does not exist, storing nothing", async () => {
    expect(await submitReview(database.db, bob.id, bitdefender.id, input)).toEqual({
      ok: false,
      status: 403,
      message: NOT_BOUGHT,
    });
    expect(await submitReview(database.db, bob.id, 2 ** 31 - 1, input)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await reviewsOf(bob.id)).toEqual([]);
  });

  it("takes one review per product from a buyer of one of its variants, pending and not public until approved", async () => {
    const placed = await buy(ada);
    expect((await reviewPageData(database.db, ada.id, bitdefender.id)).bought).toBe(true);
    const sent = await invalidates(() => submitReview(database.db, ada.id, bitdefender.id, input));
    expect(sent.result.ok).toBe(true);
    // A pending review changes no public page: nothing cached is dropped.
    expect(sent.moved).toBe(false);
    const [row] = await reviewsOf(ada.id);
    expect(row).toMatchObject({
      status: "pending",
      rating: 4,
      orderId: placed.orderId,
      authorName: "Ada L.",
    });
    expect((await productReviewsPage(database.db, bitdefender.id, 1))!.summary).toBeNull();
    expect(await pendingReviewCount(database.db)).toBeGreaterThanOrEqual(1);

    // Twice: refused by the code, and by the unique index for a write that gets past it.
    expect(await submitReview(database.db, ada.id, bitdefender.id, { ...input, rating: 1 })).toEqual({
      ok: false,
      status: 409,
      message: ALREADY_REVIEWED,
    });
    await expect(
      database.db.insert(productReviews).values({
        productId: bitdefender.id,
        userId: ada.id,
        rating: 5,
        body: input.body,
        authorName: "Ada",
      }),
    ).rejects.toThrow();
    expect(await reviewsOf(ada.id)).toHaveLength(1);
  });

  it("approves, replies and hides, each audited and each making the product's pages and cards stale", async () => {
    const [review] = await reviewsOf(ada.id);
    const approved = await invalidates(() =>
      moderateReview(database.db, { intent: "approve", reviewId: review!.id }, ADMIN),
    );
    expect(approved).toMatchObject({ result: { ok: true }, moved: true });
    const page = (await productReviewsPage(database.db, bitdefender.id, 1))!;
    expect(page.summary).toEqual({ average: 4, count: 1 });
    expect(page.items).toMatchObject([{ body: input.body, authorName: "Ada L.", sample: false }]);
    // The day is written on the server, as the page shows it, so that the browser builds no date formatter.
    const [item] = page.items;
    expect(item!.createdOn).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(item!.createdOn).toBe(
      new Date(item!.createdAt).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" }),
    );
    const [card] = await productCardsById(database.db, [bitdefender.id]);
    expect(card!.rating).toEqual({ average: 4, count: 1 });
    const [product] = await database.db.select().from(products).where(eq(products.id, bitdefender.id));
    const jsonLd = productJsonLd(
      { ...product!, brand: { name: "Bitdefender" } } as never,
      "https://shop.example",
      DEFAULT_CHOICE,
      [],
      page,
    );
    expect(jsonLd).toMatchObject({
      aggregateRating: { "@type": "AggregateRating", ratingValue: "4.0", reviewCount: 1 },
      review: [
        {
          "@type": "Review",
          author: { name: "Ada L." },
          reviewRating: { ratingValue: 4 },
          reviewBody: input.body,
        },
      ],
    });
    expect(
      await moderateReview(database.db, { intent: "approve", reviewId: review!.id }, ADMIN),
    ).toMatchObject({
      ok: false,
      status: 409,
    });

    const replied = await invalidates(() =>
      moderateReview(database.db, { intent: "reply", reviewId: review!.id, reply: "Thank you, Ada!" }, ADMIN),
    );
    expect(replied).toMatchObject({ result: { ok: true }, moved: true });
    expect((await productReviewsPage(database.db, bitdefender.id, 1))!.items[0]!.reply).toBe(
      "Thank you, Ada!",
    );

    const hidden = await invalidates(() =>
      moderateReview(database.db, { intent: "hide", reviewId: review!.id }, ADMIN),
    );
    expect(hidden).toMatchObject({ result: { ok: true }, moved: true });
    expect((await productReviewsPage(database.db, bitdefender.id, 1))!.summary).toBeNull();
    expect(
      productJsonLd(
        { ...product!, brand: { name: "Bitdefender" } } as never,
        "https://x",
        DEFAULT_CHOICE,
        [],
        await productReviewsPage(database.db, bitdefender.id, 1),
      ),
    ).not.toHaveProperty("aggregateRating");
    const [hiddenCard] = await productCardsById(database.db, [bitdefender.id]);
    expect(hiddenCard!.rating).toBeNull();

    const audits = await database.db
      .select({ action: auditLog.action, actor: auditLog.actor })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "product_review"), eq(auditLog.entityId, String(review!.id))));
    expect(audits.map((row) => row.action).sort()).toEqual(["review.approve", "review.hide", "review.reply"]);
    expect(audits.every((row) => row.actor === ADMIN)).toBe(true);
  });

  it("does not count a line refunded on its own as bought; the order's other products still count", async () => {
    const [norton] = await database.db
      .select({ id: products.id, externalId: products.externalId })
      .from(products)
      .where(eq(products.groupKey, "Norton"))
      .orderBy(asc(products.id))
      .limit(1);
    const nortonLine = { groupKey: "Norton", id: norton!.externalId, quantity: 1 };
    const placed = await placeOrder(
      ctx,
      checkout({ email: cyd.email, cart: [BITDEFENDER_1Y, nortonLine] }),
      cyd.id,
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const [line] = await database.db
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.orderId, placed.orderId), eq(orderLines.productId, bitdefender.id)));
    await refundOrder(ctx, placed.number, { mode: "line", lineId: line!.id, reason: "Changed mind" }, ADMIN);
    expect(await submitReview(database.db, cyd.id, bitdefender.id, input)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await submitReview(database.db, cyd.id, norton!.id, input)).toMatchObject({ ok: true });
    expect((await reviewsOf(cyd.id)).map((row) => row.productId)).toEqual([norton!.id]);
  });
});
