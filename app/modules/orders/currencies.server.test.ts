import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderLines, orders, outboxEmails, products, productVariants, promotions } from "~db/schema";
import { convertCents, type InrRate } from "~/lib/money";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { address, checkout, placeCheckout, useDemoStore } from "../../../tests/support/orders";
import { priceForCheckout } from "./checkout-pricing.server";
import { issueInvoice } from "./invoices.server";
import { type OrdersContext, placeOrder } from "./orders.server";
import { checkoutSchema } from "./schemas";
import { saveSettings } from "./settings.server";
import { stripeLineItems } from "./stripe.server";

// Orders in rupees (docs/decisions/0039-prices-in-two-currencies.md): priced from the catalogue at the store's rate,
// never from what the browser sends.

const software = { groupKey: "Norton", id: "1", quantity: 2 };
const printer = { groupKey: "hp", id: "1", quantity: 1 };
const RATE: InrRate = { paisePerUsd: 8412, rounding: "nine" };

describe.each(drivers)("orders in rupees on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  const catalogue = async (groupKey: string, externalId: string) =>
    (
      await database.db
        .select()
        .from(products)
        .where(and(eq(products.groupKey, groupKey), eq(products.externalId, externalId)))
    )[0]!;

  it("prices an order in rupees from the catalogue at the store's rate: lines, shipping, total, Stripe and invoice", async () => {
    await saveSettings(database.db, { inrPaisePerUsd: RATE.paisePerUsd, inrRounding: RATE.rounding });
    const norton = await catalogue("Norton", "1");
    const hp = await catalogue("hp", "1");
    const inr = (usdCents: number) => convertCents(usdCents, "INR", RATE);
    // A cart edited in local storage to say 1 cent in dollars: the order is priced from the database in rupees.
    const result = await placeCheckout(ctx, {
      currency: "INR",
      cart: [{ ...software, priceCents: 1 } as never, printer],
    });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order!.currency).toBe("INR");
    const lines = await database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order!.id))
      .orderBy(orderLines.id);
    expect(lines.map((line) => [line.unitPriceCents, line.lineTotalCents])).toEqual([
      [inr(norton.priceCents), inr(norton.priceCents) * 2],
      [inr(hp.priceCents), inr(hp.priceCents)],
    ]);
    // Whole rupees ending in 9, as the rate's rounding says.
    for (const line of lines) expect(line.unitPriceCents % 1000).toBe(900);
    expect(order!.subtotalCents).toBe(inr(norton.priceCents) * 2 + inr(hp.priceCents));
    expect(order!.shippingCents).toBe(
      order!.subtotalCents - inr(norton.priceCents) * 2 >= inr(19900) ? 0 : inr(1499),
    );
    expect(order!.totalCents).toBe(order!.subtotalCents + order!.shippingCents + order!.taxCents);

    // Stripe is asked for rupees, in paise, adding up to the total.
    const items = stripeLineItems(order!, lines);
    expect(new Set(items.map((item) => item.price_data.currency))).toEqual(new Set(["inr"]));
    expect(items.reduce((sum, item) => sum + item.price_data.unit_amount * item.quantity, 0)).toBe(
      order!.totalCents,
    );
    // The confirmation e-mail and the invoice (issued when the test payment paid it) say rupees.
    const [confirmation] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order!.id), eq(outboxEmails.kind, "order-confirmation")));
    expect(confirmation!.text).toContain("₹");
    expect(confirmation!.text).not.toContain("$");
    const invoice = await database.db.transaction((tx) => issueInvoice(tx, order!.id));
    expect(invoice.snapshot.currency).toBe("INR");
    // The order's currency never changes once it is placed: the database refuses it.
    await expect(
      database.db.update(orders).set({ currency: "USD" }).where(eq(orders.id, order!.id)),
    ).rejects.toThrow();
    const [kept] = await database.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(kept!.currency).toBe("INR");
    await saveSettings(database.db, { inrPaisePerUsd: 8350, inrRounding: "rupee" });
  });

  it("refuses a total shown in another currency, whatever the currency the post names", async () => {
    const usd = await priceForCheckout(database.db, [software], { code: "", place: null });
    // The dollar total sent with rupees: the order would be priced in rupees, so the totals differ and nothing is placed.
    const refused = await placeOrder(
      ctx,
      checkout({ currency: "INR", cart: [software], expectedTotalCents: usd.totalCents }),
    );
    expect(refused).toMatchObject({
      ok: false,
      errors: { cart: expect.stringMatching(/Your total is now ₹/) },
    });
    const inr = await priceForCheckout(database.db, [software], { code: "", place: null, currency: "INR" });
    // The rupee total posted as dollars: refused the same way.
    const again = await placeOrder(
      ctx,
      checkout({ currency: "USD", cart: [software], expectedTotalCents: inr.totalCents }),
    );
    expect(again).toMatchObject({
      ok: false,
      errors: { cart: expect.stringMatching(/Your total is now \$/) },
    });
    // A currency the store does not sell in is refused by the form's schema: a 400 naming the field.
    const parsed = checkoutSchema.safeParse({
      ...checkout(),
      cart: JSON.stringify([software]),
      currency: "EUR",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.find((issue) => issue.path[0] === "currency")?.message).toBe(
      "The currency must be USD or INR",
    );
  });

  it("takes a fixed code off only in its own currency, and a dollar percentage code in rupees", async () => {
    await database.db.insert(promotions).values([
      { code: `FIVE-USD-${driver}`, kind: "fixed", amountCents: 500 },
      { code: `HUNDRED-INR-${driver}`, kind: "fixed", amountCents: 10_000, currency: "INR" },
    ]);
    const price = (code: string, currency: "USD" | "INR") =>
      priceForCheckout(database.db, [software], { code, place: { ...address, region: "" }, currency });
    const dollarsInRupees = await price(`FIVE-USD-${driver}`, "INR");
    expect(dollarsInRupees.discountCents).toBe(0);
    expect(dollarsInRupees.codeProblem).toBe(
      `The discount code "FIVE-USD-${driver}" is for orders in US dollars: switch the currency to USD to use it`,
    );
    expect(dollarsInRupees.codeNotValid).toBe(false);
    expect((await price(`HUNDRED-INR-${driver}`, "INR")).discountCents).toBe(10_000);
    expect((await price(`HUNDRED-INR-${driver}`, "USD")).codeProblem).toMatch(
      /is for orders in Indian rupees/,
    );
    expect((await price(`FIVE-USD-${driver}`, "USD")).discountCents).toBe(500);
    // The demo store's welcome code is 10% in dollars: in rupees it takes 10% of the rupee prices.
    const welcome = await price("WELCOME10", "INR");
    expect(welcome.codeProblem).toBeNull();
    expect(welcome.discountCents).toBe(Math.round(welcome.subtotalCents / 10));
  });

  it("charges the owner's own rupee price of a product or a variant where set, the rate's elsewhere; dollars as before", async () => {
    await saveSettings(database.db, { inrPaisePerUsd: RATE.paisePerUsd, inrRounding: RATE.rounding });
    const norton = await catalogue("Norton", "1");
    const inr = (usdCents: number) => convertCents(usdCents, "INR", RATE);
    await database.db.update(products).set({ inrPriceCents: 419_900 }).where(eq(products.id, norton.id));
    await database.db
      .update(productVariants)
      .set({ inrPriceCents: 299_900 })
      .where(eq(productVariants.sku, "BD-TS-3D-1Y"));
    const [plain] = await database.db
      .select()
      .from(productVariants)
      .where(eq(productVariants.sku, "BD-TS-1D-1Y"));
    const cart = [
      { groupKey: "Norton", id: "1", quantity: 1 },
      { groupKey: "Bitdefender", id: "3", variant: "BD-TS-3D-1Y", quantity: 1 },
      { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 1 },
    ];
    const unitPrices = async (orderId: number) =>
      (
        await database.db
          .select({ cents: orderLines.unitPriceCents })
          .from(orderLines)
          .where(eq(orderLines.orderId, orderId))
          .orderBy(orderLines.id)
      ).map((line) => line.cents);
    try {
      const rupees = await placeCheckout(ctx, { currency: "INR", cart });
      expect(await unitPrices(rupees.orderId)).toEqual([419_900, 299_900, inr(plain!.priceCents)]);
      const dollars = await placeCheckout(ctx, { cart: cart.slice(0, 1) });
      expect(await unitPrices(dollars.orderId)).toEqual([norton.priceCents]);
      // The database takes no price in rupees of 0 or less: empty (null) is the rate's.
      await expect(
        database.db.update(products).set({ inrPriceCents: 0 }).where(eq(products.id, norton.id)),
      ).rejects.toThrow();
    } finally {
      await database.db.update(products).set({ inrPriceCents: null }).where(eq(products.id, norton.id));
      await database.db.update(productVariants).set({ inrPriceCents: null });
    }
  });
});
