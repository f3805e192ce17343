import { expect, type Page } from "@playwright/test";
import { signInAsAdmin } from "./admin";
import { expectAccessible } from "./axe";
import { customerPage, placePostedOrder } from "./checkout-form";
import { test } from "./fixtures";
import { hydrated } from "./hydrated";
import { confirmationLink } from "./mail";
import { screenshot } from "./screenshots";

const PRODUCT = "/antivirus/avira/optimization-suite";
const BRAND = "/antivirus/avira";
const BODY = "Cleaned up my old laptop in ten minutes; startup is noticeably faster now.";

/** The page fits a 360 px phone without scrolling sideways. */
async function fitsPhone(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The product's structured data as the page serves it. */
async function productJsonLd(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .find((data) => data["@type"] === "Product")!;
}

test("a buyer reviews a product from the order page, the owner approves and replies, and the product page, its card and its JSON-LD show it", async ({
  page,
  browser,
  baseURL,
}) => {
  // Three shoppers, a purchase and the owner's decisions: about a minute on a slow machine.
  test.setTimeout(120_000);
  // A visitor's product page before: no reviews, a public link to write one, no form, no rating in the JSON-LD.
  const visitor = await customerPage(browser, baseURL!);
  await visitor.goto(PRODUCT);
  const reviews = visitor.getByTestId("product-reviews");
  await expect(reviews.getByTestId("review-summary")).toHaveText("No reviews yet.");
  await expect(reviews.getByTestId("write-review")).toHaveAttribute("href", /^\/user\/reviews\/\d+$/);
  await expect(visitor.locator("textarea")).toHaveCount(0);
  expect(await productJsonLd(visitor)).not.toHaveProperty("aggregateRating");

  // The demo store's sample reviews show, marked as sample content, and stay out of the structured data.
  await visitor.goto("/antivirus/mcafee/total-protection");
  await expect(visitor.getByTestId("review").first().getByTestId("review-sample")).toHaveText(
    "Sample content",
  );
  await expect(visitor.getByTestId("review-summary")).toContainText("out of 5 by 2 customers");
  expect(await productJsonLd(visitor)).not.toHaveProperty("aggregateRating");
  await screenshot(visitor, "product-sample-reviews");

  // A customer signs up and buys it.
  const buyer = await customerPage(browser, baseURL!);
  const address = `reviews-${Date.now().toString(36)}@example.com`;
  await buyer.goto("/user/login");
  await hydrated(buyer);
  const signUp = buyer.getByTestId("sign-up-form");
  await signUp.getByLabel("Your name").fill("Grace Hopper");
  await signUp.getByLabel("E-mail address").fill(address);
  await signUp.getByLabel("Choose a password").fill("correct horse battery");
  await signUp.getByRole("button", { name: "Create my account" }).click();
  await expect(buyer.getByTestId("sign-up-sent")).toBeVisible();
  await buyer.goto(await confirmationLink(baseURL!, address));
  await expect(buyer).toHaveURL(/\/user\/dashboard$/);
  const order = await placePostedOrder(buyer.request, baseURL!, address, [
    { groupKey: "Avira", id: "4", quantity: 1 },
  ]);

  // From the order page to the review form, which checks with the action's schema before sending.
  await buyer.goto(`/order/${order.number}`);
  await buyer.getByTestId("review-line").click();
  await expect(buyer).toHaveURL(/\/user\/reviews\/\d+$/);
  await expect(buyer).toHaveTitle(/^Review Avira Optimization Suite/);
  await hydrated(buyer);
  await buyer.getByRole("button", { name: "Send the review" }).click();
  await expect(buyer.getByText("Choose a rating from 1 to 5 stars.")).toBeVisible();
  await expect(buyer.getByText("Write your review.")).toBeVisible();
  await expect(buyer.getByLabel("Show my name as")).toHaveValue("Grace H.");
  await expectAccessible(buyer, "the review form with its messages");
  await screenshot(buyer, "review-form");
  await fitsPhone(buyer, "review-form");
  await buyer.getByLabel("4 stars").check();
  await buyer.getByLabel("Your review").fill(BODY);
  await buyer.getByRole("button", { name: "Send the review" }).click();
  await expect(buyer.getByTestId("own-review-status")).toHaveText(/Waiting for the store's approval/);
  await expectAccessible(buyer, "the review sent");
  await fitsPhone(buyer, "review-sent");

  // The owner's queue: the waiting count in the menu, then Approve and a reply.
  await signInAsAdmin(page, baseURL!, "/admin/reviews");
  await expect(page).toHaveURL(/\/admin\/reviews$/);
  await expect(
    page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: /^Reviews/ }),
  ).toContainText(/\d/);
  const item = page.getByTestId("admin-review").filter({ hasText: BODY });
  await expect(item.getByTestId("admin-review-status")).toHaveText("Waiting");
  await expectAccessible(page, "the admin's review queue");
  await screenshot(page, "admin-reviews");
  await fitsPhone(page, "admin-reviews");
  await item.getByTestId("review-approve").click();
  await expect(page.getByText(/Approved: the review now shows/)).toBeVisible();
  await page.goto("/admin/reviews?status=approved");
  const approved = page.getByTestId("admin-review").filter({ hasText: BODY });
  await approved.locator("summary").click();
  await approved.getByLabel(/Your public reply/).fill("Thank you, Grace: glad it helped.");
  await approved.getByRole("button", { name: "Save the reply" }).click();
  await expect(page.getByText(/Reply saved: it shows under the review/)).toBeVisible();

  // The same visitor (the page cache in front) now sees it: summary, review, reply, stars on the card, JSON-LD.
  await visitor.goto(PRODUCT);
  await expect(reviews.getByTestId("review-summary")).toContainText("Rated 4.0 out of 5 by 1 customer");
  const shown = reviews.getByTestId("review");
  await expect(shown).toHaveCount(1);
  await expect(shown.getByTestId("review-body")).toHaveText(BODY);
  await expect(shown).toContainText("Grace H.");
  await expect(shown).toContainText("Verified buyer");
  // The day it was written, as words ("Nov 28, 2026"), for the UTC day its machine-readable date says.
  const written = shown.locator("time");
  const day = new Date((await written.getAttribute("datetime"))!);
  await expect(written).toHaveText(
    new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(day),
  );
  await expect(shown.getByTestId("review-reply")).toContainText("Thank you, Grace: glad it helped.");
  expect(await productJsonLd(visitor)).toMatchObject({
    aggregateRating: { "@type": "AggregateRating", ratingValue: "4.0", reviewCount: 1 },
    review: [
      {
        "@type": "Review",
        author: { "@type": "Person", name: "Grace H." },
        reviewRating: { "@type": "Rating", ratingValue: 4 },
        reviewBody: BODY,
        datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ],
  });
  await expectAccessible(visitor, "the product page with a review");
  await screenshot(visitor, "product-reviews");
  await fitsPhone(visitor, "product-reviews");
  await visitor.goto(BRAND);
  const card = visitor.getByTestId("product-card").filter({ hasText: "Avira Optimization Suite" });
  await expect(card.getByTestId("card-rating")).toContainText("Rated 4.0 out of 5 by 1 customer");
  // Its stars are drawn: two rows of five (grey, and amber over it cut to the rating), 4.0 filling four fifths.
  const rows = await card
    .getByTestId("card-rating")
    .locator("svg")
    .evaluateAll((svgs) =>
      svgs.map((svg) => ({
        drawn: (svg as SVGSVGElement).getBBox().width,
        shown: svg.parentElement!.getBoundingClientRect().width,
      })),
    );
  expect(rows).toHaveLength(2);
  for (const row of rows) expect(row.drawn).toBeGreaterThan(90);
  expect(rows[1]!.shown / rows[0]!.shown).toBeCloseTo(0.8, 2);
  await expectAccessible(visitor, "a brand page with a rated card");
  await fitsPhone(visitor, "card-rating");
  await buyer.context().close();
  await visitor.context().close();
});
