/** Attacks on discount codes and taxes at the cart quote and the checkout. */
import { type Attack, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };
const NORTON = [{ groupKey: "Norton", id: "1", quantity: 1 }];
const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

export const pricingCheckoutAttacks: Attack[] = [
  {
    name: "send a discount code of 10,000 characters, or one of markup, to the cart quote and the checkout",
    async run({ send, refused, expectStatus }) {
      for (const code of [
        "W".repeat(10_000),
        "W".repeat(41),
        "<script>alert(1)</script>",
        "WELCOME10' OR 1=1 --",
      ]) {
        const quote = await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: NORTON, code }),
        });
        await expectStatus(quote, 400, `the quote with a code of ${code.length} characters`);
        const { error } = (await quote.json()) as { error: string };
        refused(
          /A discount code (is at most 40 characters|has only letters, digits, - and _)/.test(error),
          `quote message: ${error}`,
        );
        const order = await send("/payment", {
          method: "POST",
          headers: form,
          body: checkoutForm(NORTON, { discountCode: code }),
        });
        await expectStatus(order, 400, `the checkout with a code of ${code.length} characters`);
        const html = await order.text();
        refused(
          html.includes("A discount code is at most 40 characters") ||
            html.includes("A discount code has only letters, digits, - and _"),
          "the checkout does not say what is wrong with the code",
        );
        refused(!html.includes("<script>alert(1)</script>"), "the checkout echoed the code's markup");
      }
      const unknown = await send("/api/cart/quote", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ lines: NORTON, code: "NO-SUCH-CODE" }),
      });
      await expectStatus(unknown, 200, "the quote with an unknown code");
      const body = (await unknown.json()) as { codeProblem: string; discountCents: number };
      refused(body.discountCents === 0, "an unknown code took money off");
      refused(
        body.codeProblem.includes("We don't know the discount code"),
        `quote said: ${body.codeProblem}`,
      );
    },
  },
  {
    name: "forge discount, tax and total fields into the checkout form, and a tax ID of markup",
    async run({ send, refused, expectStatus }) {
      const place = { billing: { country: "US", region: "NY" } };
      const quote = (await (
        await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: NORTON, ...place }),
        })
      ).json()) as { totalCents: number; taxCents: number };
      refused(quote.taxCents > 0, "the demo store charged no New York sales tax");
      const placed = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, {
          "billing.region": "NY",
          discountCents: "999999",
          discountCode_: "WELCOME10",
          promotionId: "1",
          taxCents: "0",
          taxBreakdown: "[]",
          pricesIncludeTax: "on",
          totalCents: "1",
          subtotalCents: "1",
        }),
      });
      await expectStatus(placed, 302, "placing the order with forged fields");
      const page = await (await send(placed.headers.get("location")!)).text();
      refused(
        page.includes(money(quote.totalCents)),
        "the order's total is not the store's price with its tax",
      );
      refused(!page.includes("Discount ("), "forged fields gave the order a discount");
      // The total the page showed is only compared: one forged lower is refused, never charged.
      const lower = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, { "billing.region": "NY", expectedTotalCents: "1" }),
      });
      await expectStatus(lower, 400, "an order claiming the total shown was $0.01");
      refused(
        (await lower.text()).includes("Your total is now"),
        "the checkout does not say the total changed",
      );
      const badId = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, { buyerTaxId: "<img src=x onerror=alert(1)>" }),
      });
      await expectStatus(badId, 400, "a tax ID of markup");
      refused(
        (await badId.text()).includes("A tax ID has only letters, digits, spaces, dots, slashes and dashes"),
        "the checkout does not say what is wrong with the tax ID",
      );
    },
  },
];
