import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderLines, orders, outboxEmails, promotions, taxRules, user } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { address, checkout, placeCheckout, useDemoStore } from "../../../tests/support/orders";
import { cancelOrder } from "./lifecycle.server";
import { priceForCheckout } from "./checkout-pricing.server";
import { type OrdersContext, placeOrder } from "./orders.server";
import { checkoutSchema, formToObject } from "./schemas";
import { saveSettings } from "./settings.server";

const software = { groupKey: "Norton", id: "1", quantity: 1 };
const printer = { groupKey: "hp", id: "1", quantity: 1 };
const inUP = { ...address, city: "Lucknow", region: "UP", postalCode: "226001", country: "IN" };
const inKA = { ...address, city: "Bengaluru", region: "KA", postalCode: "560001", country: "IN" };
const inNY = { ...address, region: "NY" };
const inCA = { ...address, city: "San Francisco", region: "CA", postalCode: "94105" };
/** Software and a printer to New York with the demo store's welcome code: a discount and a sales tax at once. */
const WELCOME_IN_NY = { billing: inNY, cart: [software, printer], discountCode: "WELCOME10" };

async function makeCode(
  db: TestDatabase["db"],
  values: Partial<typeof promotions.$inferInsert> & { code: string },
) {
  const [row] = await db
    .insert(promotions)
    .values({ kind: "percent", percentBasisPoints: 1000, ...values })
    .returning();
  return row!;
}

describe.each(drivers)("discount codes and taxes at checkout on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  const orderOf = async (orderId: number) =>
    (await database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;

  it("keeps the discount and the NY sales tax on the order, its lines and its e-mail, adding up to the cent", async () => {
    // The code as a shopper may type it.
    const result = await placeCheckout(ctx, {
      ...WELCOME_IN_NY,
      discountCode: "welcome10",
      paymentMethod: "bank-transfer",
    });
    const order = await orderOf(result.orderId);
    const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
    expect(order.discountCode).toBe("WELCOME10");
    expect(order.promotionId).not.toBeNull();
    for (const line of lines) {
      expect(line.discountCents).toBe(Math.floor((line.lineTotalCents + 5) / 10));
      expect(line.taxRateBasisPoints).toBe(400);
      expect(line.taxes).toEqual([
        {
          name: "NY sales tax",
          rateBasisPoints: 400,
          taxableCents: line.lineTotalCents - line.discountCents,
          taxCents: Math.floor(((line.lineTotalCents - line.discountCents) * 4 + 50) / 100),
        },
      ]);
    }
    const lineDiscounts = lines.reduce((sum, line) => sum + line.discountCents, 0);
    const lineTaxes = lines.reduce((sum, line) => sum + line.taxCents, 0);
    expect(order.discountCents).toBe(lineDiscounts);
    expect(order.shippingTaxCents).toBe(Math.floor((order.shippingCents * 4 + 50) / 100));
    expect(order.taxCents).toBe(lineTaxes + order.shippingTaxCents);
    expect(order.totalCents).toBe(
      order.subtotalCents + order.shippingCents - order.discountCents + order.taxCents,
    );
    expect(order.taxBreakdown).toEqual([
      expect.objectContaining({ name: "NY sales tax", rateBasisPoints: 400, taxCents: order.taxCents }),
    ]);
    const [email] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order.id), eq(outboxEmails.kind, "order-confirmation")));
    expect(email!.text).toContain("Discount (WELCOME10)");
    expect(email!.text).toContain("NY sales tax 4%");
  });

  it("quotes what the order then keeps", async () => {
    const quote = await priceForCheckout(database.db, [software, printer], {
      code: "WELCOME10",
      place: { country: "US", region: "NY" },
    });
    // A total other than the one shown (a summary that had not caught up) is not placed.
    const stale = await placeOrder(
      ctx,
      checkout({ ...WELCOME_IN_NY, expectedTotalCents: quote.totalCents - quote.taxCents }),
    );
    expect(stale).toEqual({ ok: false, errors: { cart: expect.stringMatching(/^Your total is now \$/) } });
    const result = await placeCheckout(ctx, { ...WELCOME_IN_NY, expectedTotalCents: quote.totalCents });
    const order = await orderOf(result.orderId);
    expect(order).toMatchObject({
      subtotalCents: quote.subtotalCents,
      discountCents: quote.discountCents,
      taxCents: quote.taxCents,
      totalCents: quote.totalCents,
    });
  });

  it("charges CGST and SGST in Uttar Pradesh, IGST elsewhere in India, and no tax where the store charges none", async () => {
    const up = await priceForCheckout(database.db, [software], { code: "", place: inUP });
    expect(up.taxes.map((tax) => [tax.name, tax.rateBasisPoints])).toEqual([
      ["CGST", 900],
      ["SGST", 900],
    ]);
    const ka = await priceForCheckout(database.db, [software], { code: "", place: inKA });
    expect(ka.taxes.map((tax) => [tax.name, tax.rateBasisPoints])).toEqual([["IGST", 1800]]);
    const ca = await priceForCheckout(database.db, [software], { code: "", place: inCA });
    expect(ca.taxCents).toBe(0);
    expect(ca.taxNote).toBe("No tax is charged for California, United States");
    const noState = await priceForCheckout(database.db, [software], {
      code: "",
      place: { country: "US", region: "" },
    });
    expect(noState.taxCents).toBe(0);
    expect(noState.taxNote).toBe(
      "Choose your state: we charge tax in some states of United States, none without a state",
    );
    const refused = await placeOrder(ctx, checkout({ billing: { ...address, region: "Atlantis" } }));
    expect(refused).toEqual({
      ok: false,
      errors: { "billing.region": "Choose a state of United States from the list" },
    });
    const placed = await placeOrder(ctx, checkout({ billing: inUP, buyerTaxId: "09ABCDE1234F1Z5" }));
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const order = await orderOf(placed.orderId);
    expect(order.taxBreakdown.map((tax) => tax.name)).toEqual(["CGST", "SGST"]);
    expect(order.buyerTaxId).toBe("09ABCDE1234F1Z5");
  });

  it("works out no tax on a printer the store does not ship to the place, and refuses it there by the shipping choice", async () => {
    const mixed = await priceForCheckout(database.db, [software, printer], { code: "", place: inKA });
    expect(mixed.noShippingTo).toBe("IN");
    const [softwareLine, printerLine] = mixed.lines;
    expect(softwareLine!.taxes.map((tax) => tax.name)).toEqual(["IGST"]);
    expect(printerLine).toMatchObject({ taxes: [], taxCents: 0, taxRateBasisPoints: 0 });
    expect(mixed.shippingTaxCents).toBe(0);
    expect(mixed.taxCents).toBe(softwareLine!.taxCents);
    expect(mixed.totalCents).toBe(mixed.subtotalCents + mixed.shippingCents + mixed.taxCents);
    expect(mixed.taxNote).toBe("No tax is worked out on printers and routers: we do not ship them to India");
    // Where it ships, it is taxed as ever; software alone ships nowhere.
    expect(
      (await priceForCheckout(database.db, [printer], { code: "", place: inNY })).noShippingTo,
    ).toBeNull();
    expect(
      (await priceForCheckout(database.db, [software], { code: "", place: inKA })).noShippingTo,
    ).toBeNull();

    const shippedWithBilling = await placeOrder(ctx, checkout({ billing: inKA, cart: [software, printer] }));
    expect(shippedWithBilling).toEqual({
      ok: false,
      errors: { shipToBilling: "We do not ship to India: printers and routers ship to United States" },
    });
    const shippedElsewhere = await placeOrder(
      ctx,
      checkout({ billing: inKA, shipToBilling: false, shipping: inKA, cart: [software, printer] }),
    );
    expect(shippedElsewhere).toEqual({
      ok: false,
      errors: { "shipping.country": "We do not ship to India: printers and routers ship to United States" },
    });
  });

  it("a rule changed later leaves placed orders as they were", async () => {
    const placed = await placeOrder(ctx, checkout({ billing: inKA, paymentMethod: "bank-transfer" }));
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const before = await orderOf(placed.orderId);
    const linesBefore = await database.db.select().from(orderLines).where(eq(orderLines.orderId, before.id));
    await database.db
      .update(taxRules)
      .set({ rateBasisPoints: 2800, name: "IGST (new)" })
      .where(and(eq(taxRules.country, "IN"), eq(taxRules.region, "")));
    try {
      const after = await orderOf(placed.orderId);
      const linesAfter = await database.db.select().from(orderLines).where(eq(orderLines.orderId, before.id));
      expect(after).toEqual(before);
      expect(linesAfter).toEqual(linesBefore);
      const quoteNow = await priceForCheckout(database.db, [software], { code: "", place: inKA });
      expect(quoteNow.taxes[0]!.rateBasisPoints).toBe(2800);
    } finally {
      await database.db
        .update(taxRules)
        .set({ rateBasisPoints: 1800, name: "IGST" })
        .where(and(eq(taxRules.country, "IN"), eq(taxRules.region, "")));
    }
  });

  it("with prices including tax, the tax is taken out and the total is the price", async () => {
    await saveSettings(database.db, { pricesIncludeTax: true });
    try {
      const result = await placeOrder(ctx, checkout({ billing: inKA }));
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      const order = await orderOf(result.orderId);
      expect(order.pricesIncludeTax).toBe(true);
      expect(order.totalCents).toBe(order.subtotalCents);
      expect(order.taxCents).toBe(Math.floor((order.subtotalCents * 1800 * 2 + 11_800) / (2 * 11_800)));
    } finally {
      await saveSettings(database.db, { pricesIncludeTax: false });
    }
  });

  it("refuses each code it cannot take, with a message saying why", async () => {
    const now = Date.now();
    await makeCode(database.db, { code: "OLD-ONE", endsAt: new Date(now - 86_400_000) });
    await makeCode(database.db, { code: "LATER", startsAt: new Date(now + 86_400_000) });
    await makeCode(database.db, { code: "GONE", usageLimit: 1, uses: 1 });
    await makeCode(database.db, { code: "BIGCART", minSubtotalCents: 10_000_000 });
    await makeCode(database.db, { code: "ROUTERS", scope: "section", scopeValues: ["router"] });
    await makeCode(database.db, {
      code: "BIG-HARDWARE",
      scope: "section",
      scopeValues: ["printer", "router"],
      minSubtotalCents: 10_000_000,
    });
    await makeCode(database.db, { code: "BRANDS", scope: "brands", scopeValues: ["hp", "canon", "epson"] });
    await makeCode(database.db, { code: "ASLEEP", paused: true });
    const refusal = async (code: string) =>
      (await priceForCheckout(database.db, [software], { code, place: null })).codeProblem;
    // Whatever keeps a code from being used now, one answer with the code as typed: nothing to tell them apart.
    for (const code of ["NOPE", "old-one", "LATER", "gone", "asleep"])
      expect(await refusal(code)).toBe(`The discount code "${code}" is not valid`);
    expect(await refusal("BIGCART")).toMatch(/needs a subtotal of at least \$100,000\.00/);
    expect(await refusal("ROUTERS")).toBe(
      'The discount code "ROUTERS" applies only to Routers, and your cart has none',
    );
    // A code for what the cart lacks says so, not that more of the cart's other things would reach its minimum.
    expect(await refusal("BIG-HARDWARE")).toBe(
      'The discount code "BIG-HARDWARE" applies only to Printers and Routers, and your cart has none',
    );
    expect(await refusal("BRANDS")).toBe(
      'The discount code "BRANDS" applies only to HP, Canon, and Epson, and your cart has none',
    );
    const placed = await placeOrder(ctx, checkout({ discountCode: "GONE" }));
    expect(placed).toEqual({
      ok: false,
      errors: { discountCode: 'The discount code "GONE" is not valid' },
      codeNotValid: true,
    });
  });

  it("counts a customer's uses by e-mail address", async () => {
    await makeCode(database.db, { code: "ONCE-EACH", perCustomerLimit: 1 });
    const first = await placeOrder(ctx, checkout({ email: "Once@Example.com", discountCode: "ONCE-EACH" }));
    expect(first.ok).toBe(true);
    const second = await placeOrder(ctx, checkout({ email: "once@example.com", discountCode: "once-each" }));
    expect(second).toEqual({
      ok: false,
      errors: { discountCode: expect.stringMatching(/once per customer/) },
    });
    const other = await placeOrder(ctx, checkout({ email: "twice@example.com", discountCode: "ONCE-EACH" }));
    expect(other.ok).toBe(true);
  });

  it("a once-per-customer code counts paid orders and a confirmed account's, never an unpaid one placed with someone's address", async () => {
    await makeCode(database.db, { code: "ONCE-VICTIM", perCustomerLimit: 1 });
    const unpaid = (email: string, userId: string | null = null) =>
      placeOrder(
        ctx,
        checkout({ email, discountCode: "ONCE-VICTIM", paymentMethod: "bank-transfer" }),
        userId,
      );
    // Someone types the victim's address on an order they never pay: the victim keeps their use.
    expect((await unpaid("victim@example.com")).ok).toBe(true);
    const own = await placeOrder(ctx, checkout({ email: "victim@example.com", discountCode: "ONCE-VICTIM" }));
    expect(own.ok).toBe(true);
    // Paid now: that was the victim's one use.
    expect(await unpaid("victim@example.com")).toMatchObject({
      ok: false,
      errors: { discountCode: expect.stringMatching(/once per customer/) },
    });

    // A confirmed account's order counts as soon as it is placed, whatever address it gives.
    await database.db.insert(user).values([
      { id: "confirmed-buyer", name: "Grace", email: "grace@example.com", emailVerified: true },
      { id: "unconfirmed-buyer", name: "Eve", email: "eve@example.com", emailVerified: false },
    ]);
    expect((await unpaid("grace@example.com", "confirmed-buyer")).ok).toBe(true);
    expect((await unpaid("grace.other@example.com", "confirmed-buyer")).ok).toBe(false);
    expect((await unpaid("grace@example.com")).ok).toBe(false);
    // An account whose address was never confirmed proves nothing about the address.
    expect((await unpaid("eve@example.com", "unconfirmed-buyer")).ok).toBe(true);
    expect((await unpaid("eve@example.com", "unconfirmed-buyer")).ok).toBe(true);
  });

  it("a code limited to 5 uses gives exactly 5 discounts under 20 concurrent orders", async () => {
    const code = await makeCode(database.db, { code: "FIVE-ONLY", usageLimit: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        placeOrder(
          ctx,
          checkout({
            email: `rush${index}@example.com`,
            discountCode: "FIVE-ONLY",
            paymentMethod: "bank-transfer",
          }),
        ),
      ),
    );
    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const result of refused)
      expect(result).toMatchObject({
        errors: { discountCode: 'The discount code "FIVE-ONLY" is not valid' },
        codeNotValid: true,
      });
    const [row] = await database.db.select().from(promotions).where(eq(promotions.id, code.id));
    expect(row!.uses).toBe(5);
    const [counted] = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.promotionId, code.id), sql`${orders.discountCents} > 0`));
    expect(counted!.n).toBe(5);

    // Cancelling an unpaid order gives its use back, once.
    const first = placed[0]!;
    if (!first.ok) throw new Error("not placed");
    await cancelOrder(ctx, first.number, "owner@example.com");
    const [after] = await database.db.select().from(promotions).where(eq(promotions.id, code.id));
    expect(after!.uses).toBe(4);
    const again = await placeOrder(ctx, checkout({ email: "late@example.com", discountCode: "FIVE-ONLY" }));
    expect(again.ok).toBe(true);
  });

  it("ignores discount and tax fields forged into the checkout form, and refuses a code of 10,000 characters", () => {
    const form = new FormData();
    const values: Record<string, string> = {
      idempotencyKey: crypto.randomUUID(),
      email: "ada@example.com",
      "billing.name": "Ada",
      "billing.line1": "1 Street",
      "billing.city": "New York",
      "billing.region": "NY",
      "billing.postalCode": "10001",
      "billing.country": "US",
      paymentMethod: "sandbox",
      cart: JSON.stringify([software]),
      acceptTerms: "on",
      discountCents: "999999",
      taxCents: "0",
      totalCents: "1",
    };
    for (const [key, value] of Object.entries(values)) form.set(key, value);
    const parsed = checkoutSchema.safeParse(formToObject(form));
    expect(parsed.success).toBe(true);
    expect(parsed.data).not.toHaveProperty("discountCents");
    expect(parsed.data).not.toHaveProperty("totalCents");
    form.set("discountCode", "X".repeat(10_000));
    const long = checkoutSchema.safeParse(formToObject(form));
    expect(long.success).toBe(false);
    expect(long.error!.issues[0]!.message).toBe("A discount code is at most 40 characters");
    form.set("discountCode", "");
    form.set("buyerTaxId", "<script>");
    const badId = checkoutSchema.safeParse(formToObject(form));
    expect(badId.error!.issues[0]!.message).toMatch(/A tax ID has only letters/);
  });
});
