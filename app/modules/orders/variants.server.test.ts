import { and, eq, inArray, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  invoices,
  licenceKeys,
  orderLines,
  orders,
  outboxEmails,
  products,
  productVariants,
} from "~db/schema";
import type { Product, ProductVariant } from "~db/schema/catalogue";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { placeCheckout, useDemoStore } from "../../../tests/support/orders";
import { priceCart } from "~/modules/cart/pricing.server";
import { lowKeyPools } from "~/modules/catalogue/stock.server";
import { deliverAwaitingKeys } from "./fulfilment.server";
import { addLicenceKeys } from "./licence-keys.server";
import { expiryText } from "./labels";
import { buyerOrderView } from "./order-view";
import { orderForBuyer, type OrdersContext } from "./orders.server";
import type { DocumentSnapshot } from "./invoice-document";

/** The instant `months` calendar months after `from`, as PostgreSQL adds them (the 31st to the month's last day). */
function monthsAfter(from: Date, months: number): Date {
  const to = new Date(from);
  const day = to.getUTCDate();
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() + months);
  const last = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
  to.setUTCDate(Math.min(day, last));
  return to;
}

describe.each(drivers)("variants of a product on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let product: Product;
  let yearly: ProductVariant;
  let twoYears: ProductVariant;

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    product = (
      await database.db
        .select()
        .from(products)
        .where(and(eq(products.groupKey, "Kaspersky"), eq(products.externalId, "2")))
    )[0]!;
    const variants = await database.db
      .insert(productVariants)
      .values([
        {
          productId: product.id,
          sku: "TEST-KAV-1Y",
          label: "1 device, 1 year",
          position: 0,
          priceCents: 1999,
          originalPriceCents: 2999,
          termMonths: 12,
        },
        {
          productId: product.id,
          sku: "TEST-KAV-2Y",
          label: "1 device, 2 years",
          position: 1,
          priceCents: 3499,
          originalPriceCents: 3499,
          termMonths: 24,
        },
      ])
      .returning();
    [yearly, twoYears] = [variants[0]!, variants[1]!];
    await addLicenceKeys(
      database.db,
      ctx.cipher,
      product.id,
      Array.from({ length: 3 }, (_, n) => `TEST-KAV-1Y-${n}`),
      yearly.id,
    );
  });

  const cartOf = (variant: string | undefined, quantity = 1) => [
    { groupKey: product.groupKey, id: product.externalId, quantity, ...(variant ? { variant } : {}) },
  ];

  it("prices the variant a line names (its SKU in any case), and sells a product with variants only as one", async () => {
    const priced = await priceCart(database.db, cartOf("test-kav-2y", 2));
    expect(priced.lines).toMatchObject([
      {
        variant: "TEST-KAV-2Y",
        variantLabel: "1 device, 2 years",
        termMonths: 24,
        unitPriceCents: 3499,
        lineTotalCents: 6998,
      },
    ]);
    // No key in the two-year pool yet: the order would wait for one.
    expect(priced.lines[0]!.availability).toMatchObject({ status: "waiting", inStock: 0 });
    expect((await priceCart(database.db, cartOf("TEST-KAV-1Y"))).lines[0]!.availability).toMatchObject({
      status: "in-stock",
      inStock: 3,
    });
    for (const variant of [undefined, "NO-SUCH-SKU"]) {
      const refused = await priceCart(database.db, cartOf(variant));
      expect(refused.lines).toEqual([]);
      expect(refused.unavailable).toHaveLength(1);
    }
  });

  it("snapshots the variant on the order line and dates its key's expiry from the payment plus the term", async () => {
    const productPoolBefore = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(
        and(
          eq(licenceKeys.productId, product.id),
          isNull(licenceKeys.variantId),
          isNull(licenceKeys.orderLineId),
        ),
      );
    const placed = await placeCheckout(ctx, { cart: cartOf("TEST-KAV-1Y") });
    expect(placed.status).toBe("fulfilled");
    const [order] = await database.db.select().from(orders).where(eq(orders.id, placed.orderId));
    const [line] = await database.db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId));
    expect(line).toMatchObject({
      productId: product.id,
      variantId: yearly.id,
      variantSku: "TEST-KAV-1Y",
      variantLabel: "1 device, 1 year",
      termMonths: 12,
      unitPriceCents: 1999,
    });
    const [key] = await database.db.select().from(licenceKeys).where(eq(licenceKeys.orderLineId, line!.id));
    expect(key!.variantId).toBe(yearly.id);
    expect(key!.expiresAt).toEqual(monthsAfter(order!.paidAt!, 12));

    // The buyer's page, the receipt and the invoice name the variant and say when the key expires.
    const view = buyerOrderView((await orderForBuyer(ctx, order!.number))!);
    const expires = expiryText(key!.expiresAt!.toISOString());
    expect(expires).toMatch(/^Expires \d{1,2} [A-Z][a-z]+ \d{4}$/);
    expect(view.lines[0]).toMatchObject({
      name: `${product.name} (${(await database.db.select().from(productVariants).where(eq(productVariants.id, yearly.id)))[0]!.label})`,
      keysExpireAt: key!.expiresAt!.toISOString(),
    });
    const [receipt] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, order!.id), eq(outboxEmails.kind, "payment-receipt")));
    expect(receipt!.text).toContain(`${product.name} (1 device, 1 year)`);
    expect(receipt!.text).toContain(expires);
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.orderId, order!.id));
    // The invoice line says until when the licence works, the day its key gives.
    const [paidFor] = (invoice!.snapshot as DocumentSnapshot).lines;
    const day = expires.replace(/^Expires /, "");
    expect(paidFor!.description).toBe(`${product.name} (1 device, 1 year); licence until ${day}`);

    // What was bought stays as it was sold, whatever the variant becomes; the product's own pool was not touched.
    await database.db
      .update(productVariants)
      .set({ label: "Renamed", priceCents: 1 })
      .where(eq(productVariants.id, yearly.id));
    const [after] = await database.db.select().from(orderLines).where(eq(orderLines.id, line!.id));
    expect(after).toMatchObject({ variantLabel: "1 device, 1 year", unitPriceCents: 1999 });
    const productPoolAfter = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(
        and(
          eq(licenceKeys.productId, product.id),
          isNull(licenceKeys.variantId),
          isNull(licenceKeys.orderLineId),
        ),
      );
    expect(productPoolAfter).toEqual(productPoolBefore);
  });

  it("never gives one key of a variant's pool twice under 20 orders at once; waiting orders get theirs later, dated from their payment", async () => {
    await addLicenceKeys(
      database.db,
      ctx.cipher,
      product.id,
      Array.from({ length: 5 }, (_, n) => `TEST-KAV-2Y-${n}`),
      twoYears.id,
    );
    const placed = await Promise.all(
      Array.from({ length: 20 }, () => placeCheckout(ctx, { cart: cartOf("TEST-KAV-2Y") })),
    );
    const orderIds = placed.map((result) => result.orderId);
    const keyed = await database.db
      .select({ keyId: licenceKeys.id, variantId: licenceKeys.variantId, orderId: orderLines.orderId })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(inArray(orderLines.orderId, orderIds));
    expect(keyed).toHaveLength(5);
    expect(new Set(keyed.map((row) => row.keyId)).size).toBe(5);
    expect(new Set(keyed.map((row) => row.orderId)).size).toBe(5);
    expect(keyed.every((row) => row.variantId === twoYears.id)).toBe(true);
    const waiting = await database.db
      .select()
      .from(orders)
      .where(and(inArray(orders.id, orderIds), eq(orders.awaitingKeys, 1)));
    expect(waiting).toHaveLength(15);

    // A key of another pool of the product never goes to them; one of theirs goes to the oldest, dated from its payment.
    await addLicenceKeys(database.db, ctx.cipher, product.id, ["TEST-KAV-1Y-LATE"], yearly.id);
    expect(await deliverAwaitingKeys(ctx, product.id)).toEqual([]);
    await addLicenceKeys(database.db, ctx.cipher, product.id, ["TEST-KAV-2Y-LATE"], twoYears.id);
    const [delivered] = await deliverAwaitingKeys(ctx, product.id);
    const [order] = await database.db.select().from(orders).where(eq(orders.number, delivered!));
    const [late] = await database.db
      .select({ expiresAt: licenceKeys.expiresAt })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, order!.id));
    expect(late!.expiresAt).toEqual(monthsAfter(order!.paidAt!, 24));
  });

  it("counts each variant's pool for the low pools, and not the product's own, which is never sold", async () => {
    const pools = await lowKeyPools(database.db, 1_000);
    const ofProduct = pools.filter((pool) => pool.productId === product.id);
    expect(ofProduct.map((pool) => pool.variant).sort()).toEqual(["TEST-KAV-1Y", "TEST-KAV-2Y"]);
    const unused = async (variantId: number) =>
      (
        await database.db
          .select({ id: licenceKeys.id })
          .from(licenceKeys)
          .where(and(eq(licenceKeys.variantId, variantId), isNull(licenceKeys.orderLineId)))
      ).length;
    expect(ofProduct.find((pool) => pool.variant === "TEST-KAV-1Y")).toEqual({
      productId: product.id,
      variant: "TEST-KAV-1Y",
      name: `${product.name} (${(await database.db.select().from(productVariants).where(eq(productVariants.id, yearly.id)))[0]!.label})`,
      available: await unused(yearly.id),
    });
    // A variant taken off sale is no pool to top up.
    await database.db
      .update(productVariants)
      .set({ hidden: true })
      .where(eq(productVariants.id, twoYears.id));
    const after = await lowKeyPools(database.db, 1_000);
    expect(after.filter((pool) => pool.productId === product.id).map((pool) => pool.variant)).toEqual([
      "TEST-KAV-1Y",
    ]);
    const available = after.map((pool) => pool.available);
    expect(available).toEqual([...available].sort((a, b) => a - b));
    await database.db
      .update(productVariants)
      .set({ hidden: false })
      .where(eq(productVariants.id, twoYears.id));
  });
});
