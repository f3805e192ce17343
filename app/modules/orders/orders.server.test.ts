import { formatMoney } from "~/lib/money";
import { and, count, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { licenceKeys, orderEvents, orderLines, orders, outboxEmails, products } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, ordersTestContext, useDemoStore } from "../../../tests/support/orders";
import { addLicenceKeys } from "./licence-keys.server";
import { priceCart } from "~/modules/cart/pricing.server";
import { orderConfirmationEmail } from "./emails/order-emails";
import { buyerOrderView } from "./order-view";
import { markPaid, orderEmailView, orderForBuyer, type OrdersContext, placeOrder } from "./orders.server";
import { checkoutSchema, formToObject } from "./schemas";

describe.each(drivers)("placing orders on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let norton: { id: number; priceCents: number };
  let printer: { id: number; priceCents: number; groupKey: string; externalId: string };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    norton = (
      await database.db
        .select()
        .from(products)
        .where(and(eq(products.groupKey, "Norton"), eq(products.externalId, "1")))
    )[0]!;
    printer = (await database.db.select().from(products).where(eq(products.groupKey, "hp")).limit(1))[0]!;
  });

  it("prices every line from the catalogue, whatever the browser claims, and delivers a key with the sandbox", async () => {
    // A cart edited in local storage to price 0.01: the form sends only ids and quantities, and prices come from the database.
    const result = await placeOrder(
      ctx,
      checkout({ cart: [{ groupKey: "Norton", id: "1", quantity: 2, priceCents: 1 } as never] }),
    );
    expect(result).toMatchObject({ ok: true, status: "fulfilled", replayed: false });
    if (!result.ok) throw new Error("not placed");
    const [order] = await database.db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order!.subtotalCents).toBe(norton.priceCents * 2);
    expect(order!.shippingCents).toBe(0);
    expect(order!.totalCents).toBe(norton.priceCents * 2);
    expect(order!.paymentStatus).toBe("paid");
    const [line] = await database.db.select().from(orderLines).where(eq(orderLines.orderId, order!.id));
    expect(line).toMatchObject({
      unitPriceCents: norton.priceCents,
      quantity: 2,
      lineTotalCents: norton.priceCents * 2,
      kind: "software",
    });
    const view = await orderForBuyer(ctx, order!.number);
    expect(view!.lines[0]!.keys).toHaveLength(2);
    expect(view!.lines[0]!.keys[0]).toMatch(/^DEMO-/);
    const emails = await database.db.select().from(outboxEmails).where(eq(outboxEmails.orderId, order!.id));
    expect(emails.map((email) => email.kind).sort()).toEqual([
      "order-confirmation",
      "owner-paid-order",
      "payment-receipt",
    ]);
    const receipt = emails.find((email) => email.kind === "payment-receipt")!;
    expect(receipt.text).toContain(view!.lines[0]!.keys[0]);
    // The owner reads the way it was paid in words.
    const notice = emails.find((email) => email.kind === "owner-paid-order")!;
    expect(notice.text).toContain("from ada@example.com. Payment: Test payment (demo store).");
    // A test order is never mistaken for a sale.
    expect(notice.subject).toBe(
      `Test order #${order!.number} paid (${formatMoney(order!.totalCents)}, no money moved)`,
    );
    expect(notice.text).toContain("This is a test order, placed while test payments are on: no money moved.");
    expect(receipt.to).toBe("ada@example.com");
    const events = await database.db
      .select({ type: orderEvents.type })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order!.id));
    expect(events.map((event) => event.type)).toEqual([
      "placed",
      "paid",
      "keys_delivered",
      "fulfilled",
      "invoice_issued",
    ]);
  });

  it("numbers orders in sequence", async () => {
    const first = await placeOrder(ctx, checkout());
    const second = await placeOrder(ctx, checkout());
    if (!first.ok || !second.ok) throw new Error("not placed");
    expect(second.number).toBe(first.number + 1);
  });

  it("gives one order for a double submit or a retry with the same key", async () => {
    const input = checkout({ paymentMethod: "bank-transfer" });
    const [a, b] = await Promise.all([placeOrder(ctx, input), placeOrder(ctx, input)]);
    const c = await placeOrder(ctx, input);
    if (!a.ok || !b.ok || !c.ok) throw new Error("not placed");
    expect(new Set([a.number, b.number, c.number]).size).toBe(1);
    const [n] = await database.db
      .select({ n: count() })
      .from(orders)
      .where(eq(orders.idempotencyKey, input.idempotencyKey));
    expect(n!.n).toBe(1);
    expect(c.replayed).toBe(true);
  });

  it("leaves a bank-transfer order waiting for payment, then pays it once", async () => {
    const result = await placeOrder(ctx, checkout({ paymentMethod: "bank-transfer" }));
    if (!result.ok) throw new Error("not placed");
    expect(result.status).toBe("pending_payment");
    const view = await orderForBuyer(ctx, result.number);
    expect(view!.bankTransferInstructions).toMatch(/Reference: Order \d+/);
    expect(view!.lines[0]!.keys).toEqual([]);
    // The e-mails get every field of the view the order page shows, and the confirmation sent is that view printed.
    const email = await database.db.transaction((tx) => orderEmailView(tx, ctx, result.orderId));
    expect(email).toMatchObject(buyerOrderView(view!));
    expect(email).toMatchObject({
      link: expect.stringContaining(`/order/${result.number}?key=`),
      lookupLink: expect.stringMatching(new RegExp(`/order/lookup\\?number=${result.number}$`)),
      bankTransferInstructions: view!.bankTransferInstructions,
    });
    const [sent] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, result.orderId), eq(outboxEmails.kind, "order-confirmation")));
    const printed = orderConfirmationEmail(email);
    expect([sent!.text, sent!.html]).toEqual([printed.text, printed.html]);
    const paid = await database.db.transaction((tx) =>
      markPaid(tx, ctx, result.orderId, "admin:owner@example.com", "Payment received"),
    );
    const again = await database.db.transaction((tx) =>
      markPaid(tx, ctx, result.orderId, "admin:owner@example.com", "Payment received"),
    );
    expect([paid, again]).toEqual([true, false]);
    expect((await orderForBuyer(ctx, result.number))!.lines[0]!.keys).toHaveLength(1);
  });

  it("charges shipping for physical goods below the threshold, and needs a shipping address for them", async () => {
    // The Archer C80 costs less than the free-shipping threshold; the Norton licences beside it do not count.
    const [cheap] = await database.db
      .select()
      .from(products)
      .where(eq(products.route, "/router/tplink/archer-c80"));
    expect(cheap!.priceCents).toBeLessThan(19900);
    const result = await placeOrder(
      ctx,
      checkout({
        cart: [
          { groupKey: cheap!.groupKey, id: cheap!.externalId, quantity: 1 },
          { groupKey: "Norton", id: "1", quantity: 3 },
        ],
      }),
    );
    if (!result.ok) throw new Error("not placed");
    const [order] = await database.db.select().from(orders).where(eq(orders.id, result.orderId));
    expect(order!.shippingCents).toBe(1499);
    expect(order!.totalCents).toBe(order!.subtotalCents + 1499);
    expect(order!.shippingAddress).toMatchObject({ city: "New York" });
    expect(order!.status).toBe("paid"); // a physical line waits for shipment

    const expensive = await placeOrder(
      ctx,
      checkout({ cart: [{ groupKey: printer.groupKey, id: printer.externalId, quantity: 2 }] }),
    );
    if (!expensive.ok) throw new Error("not placed");
    const [big] = await database.db.select().from(orders).where(eq(orders.id, expensive.orderId));
    expect(big!.shippingCents).toBe(printer.priceCents * 2 >= 19900 ? 0 : 1499);

    const missing = await placeOrder(
      ctx,
      checkout({
        shipToBilling: false,
        shipping: { name: "" },
        cart: [{ groupKey: printer.groupKey, id: printer.externalId, quantity: 1 }],
      }),
    );
    expect(missing).toMatchObject({
      ok: false,
      errors: { "shipping.name": "Enter the full name", "shipping.line1": "Enter the street address" },
    });
  });

  it("refuses unknown or hidden products and writes nothing", async () => {
    const before = await database.db.select({ n: count() }).from(orders);
    expect(
      await placeOrder(ctx, checkout({ cart: [{ groupKey: "Norton", id: "no-such", quantity: 1 }] })),
    ).toMatchObject({
      ok: false,
      errors: { cart: expect.stringContaining("No longer available") },
    });
    await database.db.update(products).set({ hidden: true }).where(eq(products.id, printer.id));
    expect(
      await placeOrder(
        ctx,
        checkout({ cart: [{ groupKey: printer.groupKey, id: printer.externalId, quantity: 1 }] }),
      ),
    ).toMatchObject({ ok: false });
    await database.db.update(products).set({ hidden: false }).where(eq(products.id, printer.id));
    const after = await database.db.select({ n: count() }).from(orders);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("tells the owner a test order from a sale in the bank-transfer notice", async () => {
    const { saveSettings } = await import("./settings.server");
    const noticeOf = async (orderId: number) =>
      (await database.db.select().from(outboxEmails).where(eq(outboxEmails.orderId, orderId))).find(
        (email) => email.kind === "owner-bank-transfer",
      )!;
    // The demo store takes test payments: an order placed now is a test, whatever way it is paid.
    const test = await placeOrder(ctx, checkout({ paymentMethod: "bank-transfer" }));
    await saveSettings(database.db, { sandboxPayments: false });
    const real = await placeOrder(ctx, checkout({ paymentMethod: "bank-transfer" }));
    await saveSettings(database.db, { sandboxPayments: true });
    if (!test.ok || !real.ok) throw new Error("not placed");
    expect((await noticeOf(test.orderId)).subject).toMatch(
      `Test order #${test.number} waits for a bank transfer`,
    );
    expect((await noticeOf(test.orderId)).text).toContain("no money moved");
    const sale = await noticeOf(real.orderId);
    expect(sale.subject).toMatch(new RegExp(`^Order #${real.number} waits for a bank transfer`));
    expect(sale.text).not.toContain("test order");
  });

  it("refuses the sandbox in production unless the setting enables it", async () => {
    const production = ordersTestContext(database.db, ctx.cipher, { ...ctx.env, NODE_ENV: "production" });
    // The demo data enables it.
    expect(await placeOrder(production, checkout())).toMatchObject({ ok: true });
    const { saveSettings } = await import("./settings.server");
    await saveSettings(database.db, { sandboxPayments: false });
    expect(await placeOrder(production, checkout())).toMatchObject({
      ok: false,
      errors: { paymentMethod: expect.any(String) },
    });
    await saveSettings(database.db, { sandboxPayments: true });
  });

  it("never gives one key to two orders: concurrent orders for the last key get one key each or wait cleanly", async () => {
    const [product] = await database.db
      .select()
      .from(products)
      .where(and(eq(products.groupKey, "Avira"), eq(products.externalId, "1")));
    // Leave exactly one free key in this product's pool.
    const free = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(and(eq(licenceKeys.productId, product!.id), isNull(licenceKeys.orderLineId)));
    for (const key of free.slice(1)) await database.db.delete(licenceKeys).where(eq(licenceKeys.id, key.id));

    const results = await Promise.all(
      [1, 2, 3].map(() => placeOrder(ctx, checkout({ cart: [{ groupKey: "Avira", id: "1", quantity: 1 }] }))),
    );
    const placed = results.map((result) => {
      if (!result.ok) throw new Error("not placed");
      return result;
    });
    const keyed = await database.db
      .select({ orderId: orderLines.orderId, keyId: licenceKeys.id })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(licenceKeys.productId, product!.id));
    const forThese = keyed.filter((row) => placed.some((result) => result.orderId === row.orderId));
    expect(forThese).toHaveLength(1);
    const waiting = await Promise.all(
      placed.map(
        async (result) => (await database.db.select().from(orders).where(eq(orders.id, result.orderId)))[0]!,
      ),
    );
    expect(waiting.filter((order) => order.awaitingKeys === 1 && order.status === "paid")).toHaveLength(2);

    // New keys arrive: paying again does nothing, but the pool serves the next order.
    await addLicenceKeys(database.db, ctx.cipher, product!.id, ["FRESH-KEY-0001"]);
    const next = await placeOrder(ctx, checkout({ cart: [{ groupKey: "Avira", id: "1", quantity: 1 }] }));
    expect(next).toMatchObject({ ok: true, status: "fulfilled" });
  });

  /** A product of the demo store left with `keys` free keys, taking waiting orders or not. */
  async function productWithPool(groupKey: string, keys: number, waitingOrders: boolean) {
    const [product] = await database.db
      .update(products)
      .set({ waitingOrders })
      .where(and(eq(products.groupKey, groupKey), eq(products.externalId, "1")))
      .returning();
    const free = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(and(eq(licenceKeys.productId, product!.id), isNull(licenceKeys.orderLineId)));
    for (const key of free.slice(keys))
      await database.db.delete(licenceKeys).where(eq(licenceKeys.id, key.id));
    return product!;
  }

  const orderCount = async () => (await database.db.select({ n: count() }).from(orders))[0]!.n;

  it("prices each line with its availability: in stock, waiting for keys, or not orderable now", async () => {
    await productWithPool("Webroot", 3, false);
    await productWithPool("Avast", 0, true);
    const priced = await priceCart(database.db, [
      { groupKey: "Webroot", id: "1", quantity: 3 },
      { groupKey: "Avast", id: "1", quantity: 2 },
      { groupKey: "hp", id: "1", quantity: 99 },
    ]);
    // The demo printers have a stock count (below 99) and take backorders.
    const [hp] = await database.db
      .select({ stock: products.stock })
      .from(products)
      .where(and(eq(products.groupKey, "hp"), eq(products.externalId, "1")));
    expect(priced.lines.map((line) => line.availability)).toEqual([
      { status: "in-stock", inStock: 3, maxQuantity: 3 },
      { status: "waiting", inStock: 0, maxQuantity: 99 },
      { status: "waiting", inStock: hp!.stock, maxQuantity: 99 },
    ]);
    expect(priced.overStock).toBe(false);
    const over = await priceCart(database.db, [{ groupKey: "Webroot", id: "1", quantity: 4 }]);
    expect(over.lines[0]!.availability).toEqual({ status: "unavailable", inStock: 3, maxQuantity: 3 });
    expect(over.overStock).toBe(true);
  });

  it("sells a product that takes no waiting orders only as far as its keys go, says so per line, writes nothing", async () => {
    const empty = await productWithPool("TotalAV", 0, false);
    const before = await orderCount();
    expect(
      await placeOrder(
        ctx,
        checkout({
          cart: [
            { groupKey: "Norton", id: "1", quantity: 1 },
            { groupKey: "TotalAV", id: "1", quantity: 99 },
          ],
        }),
      ),
    ).toEqual({
      ok: false,
      errors: { cart: `${empty.name} is out of stock and cannot be ordered now: remove it from your cart.` },
    });
    const short = await productWithPool("Bitdefender", 3, false);
    expect(
      await placeOrder(ctx, checkout({ cart: [{ groupKey: "Bitdefender", id: "1", quantity: 5 }] })),
    ).toEqual({
      ok: false,
      errors: { cart: `Only 3 of ${short.name} can be ordered now: lower the quantity to 3 or fewer.` },
    });
    expect(await orderCount()).toBe(before);
    expect(
      await placeOrder(ctx, checkout({ cart: [{ groupKey: "Bitdefender", id: "1", quantity: 3 }] })),
    ).toMatchObject({ ok: true, status: "fulfilled" });
  });

  it("checks the last keys inside the order's transaction: of orders placed at once, only as many as there are keys", async () => {
    const product = await productWithPool("Kaspersky", 1, false);
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        placeOrder(ctx, checkout({ cart: [{ groupKey: "Kaspersky", id: "1", quantity: 1 }] })),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([
      {
        ok: false,
        errors: {
          cart: `${product.name} is out of stock and cannot be ordered now: remove it from your cart.`,
        },
      },
      {
        ok: false,
        errors: {
          cart: `${product.name} is out of stock and cannot be ordered now: remove it from your cart.`,
        },
      },
    ]);
  });

  it("completes an order that comes to 0.00 when it is placed, whatever way to pay was chosen", async () => {
    const mcafee = and(eq(products.groupKey, "McAfee"), eq(products.externalId, "1"));
    const [free] = await database.db.select().from(products).where(mcafee);
    await database.db.update(products).set({ priceCents: 0 }).where(mcafee);
    const cart = [{ groupKey: "McAfee", id: "1", quantity: 1 }];
    for (const paymentMethod of ["bank-transfer", "none"] as const) {
      const result = await placeOrder(ctx, checkout({ cart, paymentMethod }));
      expect(result, paymentMethod).toMatchObject({ ok: true, status: "fulfilled", paymentMethod: "none" });
      if (!result.ok) throw new Error("not placed");
      const [order] = await database.db.select().from(orders).where(eq(orders.id, result.orderId));
      expect(order).toMatchObject({ totalCents: 0, paymentMethod: "none", paymentStatus: "paid" });
      const view = await orderForBuyer(ctx, result.number);
      expect(view!.lines[0]!.keys).toHaveLength(1);
      expect(view!.bankTransferInstructions).toBeFalsy();
      expect(
        view!.events
          .map((event) => event.message)
          .reverse()
          .slice(0, 2),
      ).toEqual([
        "Order placed; it comes to 0.00, so there is nothing to pay",
        "Nothing to pay: the total is 0.00",
      ]);
      const emails = await database.db.select().from(outboxEmails).where(eq(outboxEmails.orderId, order!.id));
      const receipt = emails.find((email) => email.kind === "payment-receipt")!;
      expect(receipt.subject).toBe(`Order #${order!.number} is confirmed`);
      expect(receipt.text).toContain(
        "Your order comes to $0.00, so there is nothing to pay: it is confirmed.",
      );
      const confirmation = emails.find((email) => email.kind === "order-confirmation")!;
      expect(confirmation.text).not.toContain("How to pay");
    }
    // Nothing to pay is no way to pay an order with a price.
    const before = await orderCount();
    const priced = await placeOrder(ctx, checkout({ paymentMethod: "none" }));
    expect(priced).toEqual({
      ok: false,
      errors: {
        paymentMethod: `Your order comes to $${(norton.priceCents / 100).toFixed(2)}: choose how to pay it.`,
      },
    });
    expect(await orderCount()).toBe(before);
    await database.db.update(products).set({ priceCents: free!.priceCents }).where(mcafee);
  });

  it("takes a waiting order for a product with an empty pool, and tells the buyer in words", async () => {
    await productWithPool("AVG", 0, true);
    const result = await placeOrder(ctx, checkout({ cart: [{ groupKey: "AVG", id: "1", quantity: 2 }] }));
    if (!result.ok) throw new Error("not placed");
    expect(result.status).toBe("paid");
    const view = await orderForBuyer(ctx, result.number);
    expect(view!.events.map((event) => event.message).reverse()).toEqual([
      "Order placed, to be paid with a test payment",
      "Paid with a test payment",
      "2 licence keys to follow by e-mail",
      expect.stringMatching(/^Invoice INV-\d{6} issued$/),
    ]);
    const bank = await placeOrder(ctx, checkout({ paymentMethod: "bank-transfer" }));
    if (!bank.ok) throw new Error("not placed");
    expect((await orderForBuyer(ctx, bank.number))!.events[0]!.message).toBe(
      "Order placed, to be paid by bank transfer",
    );
  });
});

describe("the checkout form's rules", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    return checkoutSchema.safeParse(formToObject(data));
  };
  const valid = {
    idempotencyKey: "6f1d3a8e-8d8f-4d5e-9a51-8b1f2f7c1c11",
    email: "ada@example.com",
    "billing.name": "Ada",
    "billing.line1": "1 Example Street",
    "billing.city": "New York",
    "billing.postalCode": "10001",
    "billing.country": "US",
    paymentMethod: "sandbox",
    cart: JSON.stringify([{ groupKey: "Norton", id: "1", quantity: 1 }]),
    acceptTerms: "on",
  };
  const messages = (fields: Record<string, string>) => {
    const result = form(fields);
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
  };

  it("accepts a complete form", () => {
    expect(form(valid).success).toBe(true);
  });

  it("says which field is wrong and why", () => {
    expect(messages({})).toMatchObject({
      email: "Enter a valid e-mail address",
      "billing.name": "Enter the full name",
      paymentMethod: "Choose a payment method",
      acceptTerms: "Please accept the terms and conditions to place the order",
    });
    expect(messages({ ...valid, email: "not-an-email" })).toEqual({ email: "Enter a valid e-mail address" });
    expect(messages({ ...valid, "billing.country": "XX" })).toEqual({
      "billing.country": "Choose a country from the list",
    });
    expect(messages({ ...valid, "billing.name": "x".repeat(101) })).toEqual({
      "billing.name": "The full name must be at most 100 characters",
    });
    expect(messages({ ...valid, paymentMethod: "cash" })).toEqual({
      paymentMethod: "Choose a payment method",
    });
  });

  it("accepts only whole quantities from 1 to 99 and a sane cart", () => {
    const cart = (value: unknown) => messages({ ...valid, cart: JSON.stringify(value) });
    for (const quantity of [0, -1, 1.5, 100, 1e9, "2", "x", null]) {
      expect(
        cart([
          { groupKey: "Norton", id: "1", quantity: 1 },
          { groupKey: "hp", id: "1", quantity },
        ]),
      ).toEqual({
        cart: "Line 2 of your cart: the quantity must be a whole number from 1 to 99",
      });
    }
    expect(cart([])).toEqual({ cart: "Your cart is empty" });
    expect(cart({ not: "a list" })).toEqual({
      cart: "Your cart could not be read: reload the page and try again",
    });
    expect(messages({ ...valid, cart: "{oops" })).toEqual({
      cart: "Your cart could not be read: reload the page and try again",
    });
    expect(messages({ ...valid, cart: "x".repeat(30_000) })).toEqual({ cart: "Your cart is too large" });
  });

  it("ignores forged fields such as a price or a status", () => {
    const result = form({ ...valid, totalCents: "1", status: "paid", "billing.__proto__.admin": "1" });
    expect(result.success).toBe(true);
    expect(Object.keys(result.data!)).not.toContain("totalCents");
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
