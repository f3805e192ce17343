import { describe, expect, it } from "vitest";
import { priceWithDiscountAndTax } from "~/modules/cart/pricing-math";
import { stripeLineItems } from "./stripe.server";

const charged = (items: ReturnType<typeof stripeLineItems>) =>
  items.reduce((sum, item) => sum + item.price_data.unit_amount * item.quantity, 0);

describe("what Stripe charges", () => {
  const lines = [
    { name: "Norton", quantity: 2, unitPriceCents: 4999, lineTotalCents: 9998 },
    { name: "Printer", quantity: 1, unitPriceCents: 27_999, lineTotalCents: 27_999 },
  ];
  for (const pricesIncludeTax of [false, true])
    for (const discounted of [false, true])
      it(`adds up to the order's total (${discounted ? "a code" : "no code"}, prices ${pricesIncludeTax ? "with" : "without"} tax)`, () => {
        const math = priceWithDiscountAndTax({
          lines: lines.map((line) => ({
            amountCents: line.lineTotalCents,
            taxKind: "software",
            eligible: true,
          })),
          shippingCents: 1499,
          discount: discounted
            ? { kind: "percent", percentBasisPoints: 1000, amountCents: null, includesShipping: true }
            : null,
          rules: [
            { name: "NY sales tax", rateBasisPoints: 400, productKind: "all", appliesToShipping: true },
          ],
          pricesIncludeTax,
        });
        const items = stripeLineItems(
          { ...math, currency: "USD" },
          lines.map((line, index) => ({ ...line, ...math.lines[index]! })),
        );
        expect(charged(items)).toBe(math.totalCents);
      });

  it("without a discount or tax, charges unit prices by quantity as before", () => {
    const items = stripeLineItems(
      {
        currency: "USD",
        discountCents: 0,
        taxCents: 0,
        pricesIncludeTax: false,
        shippingCents: 1499,
        shippingDiscountCents: 0,
        shippingTaxCents: 0,
      },
      lines.map((line) => ({ ...line, discountCents: 0, taxCents: 0 })),
    );
    expect(items.map((item) => [item.price_data.product_data.name, item.quantity])).toEqual([
      ["Norton", 2],
      ["Printer", 1],
      ["Shipping", 1],
    ]);
    expect(charged(items)).toBe(9998 + 27_999 + 1499);
  });
});
