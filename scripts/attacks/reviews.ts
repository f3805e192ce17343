/** Attacks on product reviews: reviewing without a purchase, twice, with bad input, and moderating as a customer. */
import { randomInt } from "node:crypto";
import { type Attack, type AttackKit, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
/** Products no other attack buys: their review pages start empty. */
const BOUGHT = {
  path: "/antivirus/trendmicro/internet-security",
  line: { groupKey: "TrendMicro", id: "2", quantity: 1 },
};
const NOT_BOUGHT = "/antivirus/trendmicro/maximum-security";

const post = (kit: AttackKit, path: string, cookie: string, fields: Record<string, string>) =>
  kit.send(path, { method: "POST", headers: { ...form, cookie }, body: new URLSearchParams(fields) });

/** The product's id, read from its page's public "Write a review" link. */
async function productId(kit: AttackKit, path: string) {
  const page = await (await kit.send(path)).text();
  const id = /href="\/user\/reviews\/(\d+)"/.exec(page)?.[1];
  if (!id) throw new Error(`${path} has no link to write a review`);
  return id;
}

/** A signed-in customer who bought the product (a sandbox order, paid at once). */
async function buyer(kit: AttackKit) {
  const customer = await kit.signUp();
  const placed = await kit.send("/payment", {
    method: "POST",
    headers: { ...form, cookie: customer.cookie },
    body: checkoutForm([BOUGHT.line], { email: customer.email, paymentMethod: "sandbox" }),
  });
  await kit.expectStatus(placed, 302, "placing the customer's order");
  return customer;
}

/** How many reviews in the owner's queue (all statuses) have `marker` in their text. */
async function inQueue(kit: AttackKit, admin: string, marker: string) {
  const queue = await (
    await kit.send("/admin/reviews?status=all&pageSize=100", { headers: { cookie: admin } })
  ).text();
  // Each review's text once, in its quote (the page's data repeats it for scripts).
  return [...queue.matchAll(/<blockquote[^>]*>([^<]*)<\/blockquote>/g)].filter((quote) =>
    quote[1]!.includes(marker),
  ).length;
}

const review = (marker: string, fields: Record<string, string> = {}) => ({
  rating: "5",
  body: `Works as promised, installed in minutes. ${marker}`,
  authorName: "Mallory M.",
  ...fields,
});

export const reviewAttacks: Attack[] = [
  {
    name: "reviewing without a purchase: a product not bought, another buyer's product, no product, no account",
    async run(kit) {
      const admin = await kit.signInAdmin();
      const marker = `NOPURCHASE${randomInt(1e9)}`;
      // Someone else bought it; this customer bought nothing.
      await buyer(kit);
      const stranger = await kit.signUp();
      for (const path of [BOUGHT.path, NOT_BOUGHT]) {
        const id = await productId(kit, path);
        const sent = await post(kit, `/user/reviews/${id}`, stranger.cookie, review(marker));
        await kit.expectStatus(sent, 403, `a review of ${path} without buying it`);
        const page = await kit.send(`/user/reviews/${id}`, { headers: { cookie: stranger.cookie } });
        await kit.expectStatus(page, 403, `the review page of ${path} without buying it`);
      }
      for (const id of ["0", "-1", "abc", "1.5", "99999999999", "2147483000"]) {
        const sent = await post(kit, `/user/reviews/${id}`, stranger.cookie, review(marker));
        await kit.expectStatus(sent, 404, `a review of product ${JSON.stringify(id)}`);
      }
      const id = await productId(kit, BOUGHT.path);
      const anonymous = await kit.send(`/user/reviews/${id}`, {
        method: "POST",
        headers: form,
        body: new URLSearchParams(review(marker)),
      });
      await kit.expectStatus(anonymous, [302, 401, 403], "a visitor's review");
      kit.refused((await inQueue(kit, admin, marker)) === 0, "a review without a purchase was stored");
    },
  },
  {
    name: "reviewing twice: one after the other and two at once, one review stored",
    async run(kit) {
      const admin = await kit.signInAdmin();
      const customer = await buyer(kit);
      const id = await productId(kit, BOUGHT.path);
      const marker = `TWICE${randomInt(1e9)}`;
      const answers = await Promise.all(
        [1, 2].map(() => post(kit, `/user/reviews/${id}`, customer.cookie, review(marker))),
      );
      const statuses = answers.map((response) => response.status).sort();
      kit.refused(
        statuses[0] === 200 && statuses[1] === 409,
        `two reviews at once answered ${statuses.join(", ")}`,
      );
      const again = await post(kit, `/user/reviews/${id}`, customer.cookie, review(marker, { rating: "1" }));
      await kit.expectStatus(again, 409, "a second review of the same product");
      kit.refused((await inQueue(kit, admin, marker)) === 1, "a product was reviewed twice by one customer");
    },
  },
  {
    name: "bad reviews (empty, 10,000 characters, <script>, ratings 0, 6, abc) and a customer moderating: 4xx, nothing stored",
    async run(kit) {
      const admin = await kit.signInAdmin();
      const customer = await buyer(kit);
      const id = await productId(kit, BOUGHT.path);
      const marker = `BAD${randomInt(1e9)}`;
      const bad: Array<Record<string, string>> = [
        { body: "" },
        { body: `${marker} ${"x".repeat(10_000)}` },
        { body: `<script>alert(1)</script> ${marker} lovely` },
        { body: `<img src=x onerror=alert(1)> ${marker}` },
        { rating: "0" },
        { rating: "6" },
        { rating: "abc" },
        { rating: "" },
        { authorName: "" },
        { authorName: `<b>${marker}</b>` },
      ];
      for (const fields of bad) {
        const sent = await post(kit, `/user/reviews/${id}`, customer.cookie, review(marker, fields));
        await kit.expectStatus(sent, 400, `a review with ${JSON.stringify(fields).slice(0, 60)}`);
      }
      kit.refused((await inQueue(kit, admin, marker)) === 0, "a bad review was stored");
      // A customer cannot moderate, not even their own review.
      const mine = await post(kit, `/user/reviews/${id}`, customer.cookie, review(marker));
      await kit.expectStatus(mine, 200, "the customer's own valid review");
      const queue = await (await kit.send("/admin/reviews", { headers: { cookie: admin } })).text();
      const card = queue.split('data-testid="admin-review"').find((part) => part.includes(marker));
      const reviewId = /data-review-id="(\d+)"/.exec(card ?? "")?.[1];
      if (!reviewId) throw new Error("the customer's review is not in the queue");
      for (const intent of ["approve", "hide", "reply"]) {
        const response = await post(kit, "/admin/reviews", customer.cookie, {
          intent,
          reviewId,
          reply: "Me!",
        });
        await kit.expectStatus(response, 403, `a customer's ${intent} of their review`);
      }
      const forged: Array<Record<string, string>> = [
        { intent: "approve", reviewId: "abc" },
        { intent: "publish", reviewId },
        { intent: "reply", reviewId, reply: "" },
        { intent: "reply", reviewId, reply: "<script>alert(1)</script>" },
        { intent: "approve", reviewId: "2147483000" },
      ];
      for (const fields of forged) {
        const response = await post(kit, "/admin/reviews", admin, fields);
        await kit.expectStatus(response, [400, 404], `the admin's ${JSON.stringify(fields)}`);
      }
      const page = await (await kit.send(BOUGHT.path)).text();
      kit.refused(!page.includes(marker), "a review not approved shows on the product page");
    },
  },
];
