import { readFileSync } from "node:fs";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders, promotions, settings } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { type OrdersContext, placeOrder } from "../orders/orders.server";
import { saveSettings } from "../orders/settings.server";
import { salesSummary } from "./dashboard.server";
import { promotionForEdit } from "./promotions.server";
import { markOrderPaid } from "../orders/lifecycle.server";

const ADMIN = "owner@example.com";

describe.each(drivers)("the dashboard's sales on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  const place = async (overrides: Parameters<typeof checkout>[0]) => {
    const result = await placeOrder(ctx, checkout(overrides));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result;
  };
  const orderRow = async (number: number) =>
    (await database.db.select().from(orders).where(eq(orders.number, number)))[0]!;

  it("counts the paid orders of today, 7 and 30 days and the chart without the orders placed in test mode", async () => {
    const before = await salesSummary(database.db);
    // The demo store takes test payments: a sandbox payment and a bank transfer placed now are both tests.
    const sandboxPaid = await place({ email: "dash-sandbox@example.com" });
    const transferInTestMode = await place({
      email: "dash-test-transfer@example.com",
      paymentMethod: "bank-transfer",
    });
    expect((await orderRow(sandboxPaid.number)).paymentStatus).toBe("paid");
    await saveSettings(database.db, { sandboxPayments: false });
    try {
      const real = await place({ email: "dash-real@example.com", paymentMethod: "bank-transfer" });
      // Paid after the sandbox was switched off, the test order stays a test.
      await markOrderPaid(ctx, transferInTestMode.number, ADMIN);
      await markOrderPaid(ctx, real.number, ADMIN);
      const realTotal = (await orderRow(real.number)).totalCents;

      const after = await salesSummary(database.db);
      for (const window of ["today", "week", "month"] as const) {
        expect(after[window]).toEqual({
          orders: before[window].orders + 1,
          revenueCents: before[window].revenueCents + realTotal,
        });
      }
      expect(after.chart).toHaveLength(30);
      expect(after.chart.at(-1)).toMatchObject({
        revenueCents: before.chart.at(-1)!.revenueCents + realTotal,
        orders: before.chart.at(-1)!.orders + 1,
      });
      expect(after.chart.reduce((sum, day) => sum + day.revenueCents, 0)).toBe(after.month.revenueCents);
      expect(after.testOrders).toBe(before.testOrders + 2);

      const marked = await database.db
        .select({ number: orders.number, isTest: orders.isTest })
        .from(orders)
        .where(inArray(orders.number, [sandboxPaid.number, transferInTestMode.number, real.number]));
      expect(Object.fromEntries(marked.map((row) => [row.number, row.isTest]))).toEqual({
        [sandboxPaid.number]: true,
        [transferInTestMode.number]: true,
        [real.number]: false,
      });
      // Off in production, a sandbox payment is still offered on a development server: it is a test all the same.
      const developerTest = await place({ email: "dash-dev-sandbox@example.com" });
      expect((await orderRow(developerTest.number)).isTest).toBe(true);
      expect((await salesSummary(database.db)).today).toEqual(after.today);
    } finally {
      await saveSettings(database.db, { sandboxPayments: true });
    }
  });

  it("sums orders in rupees apart from dollars, never adding them together, and a code's figures in its currency", async () => {
    const before = await salesSummary(database.db);
    await saveSettings(database.db, { sandboxPayments: false });
    try {
      const rupees = await place({
        email: "dash-inr@example.com",
        paymentMethod: "bank-transfer",
        currency: "INR",
      });
      await markOrderPaid(ctx, rupees.number, ADMIN);
      const row = await orderRow(rupees.number);
      expect(row.currency).toBe("INR");
      const after = await salesSummary(database.db);
      for (const window of ["today", "week", "month"] as const) {
        expect(after[window]).toEqual(before[window]);
        expect(after.rupees[window]).toEqual({
          orders: before.rupees[window].orders + 1,
          revenueCents: before.rupees[window].revenueCents + row.totalCents,
        });
      }
      expect(after.chart).toEqual(before.chart);

      // A dollar percentage code used in both currencies: its figures count the orders in its own currency only.
      const [code] = await database.db
        .insert(promotions)
        .values({ code: `TEN-${driver}`, kind: "percent", percentBasisPoints: 1000 })
        .returning();
      const inDollars = await place({ discountCode: code!.code, paymentMethod: "bank-transfer" });
      await place({ discountCode: code!.code, paymentMethod: "bank-transfer", currency: "INR" });
      expect(await promotionForEdit(database.db, code!.id)).toMatchObject({
        currency: "USD",
        orders: 1,
        revenueCents: (await orderRow(inDollars.number)).totalCents,
        ordersPlaced: 2,
      });
    } finally {
      await saveSettings(database.db, { sandboxPayments: true });
    }
  });

  it("marks the orders its migration can tell were tests, and leaves the others", async () => {
    const migration = readFileSync("db/migrations/0022_test_orders.sql", "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((part) => /\bUPDATE\b/.test(part))!;
    const old = await place({ email: "migrate-old@example.com", paymentMethod: "bank-transfer" });
    const oldSandbox = await place({ email: "migrate-sandbox@example.com" });
    const recent = await place({ email: "migrate-recent@example.com", paymentMethod: "bank-transfer" });
    const numbers = [old.number, oldSandbox.number, recent.number];
    const setPlaced = (number: number, daysAgo: number) =>
      database.db
        .update(orders)
        .set({ createdAt: sql`now() - make_interval(days => ${daysAgo})`, isTest: false })
        .where(eq(orders.number, number));
    const migrate = async (sandbox: boolean, savedDaysAgo: number) => {
      await setPlaced(old.number, 10);
      await setPlaced(oldSandbox.number, 10);
      await setPlaced(recent.number, 1);
      await database.db
        .update(settings)
        .set({ value: sandbox, updatedAt: sql`now() - make_interval(days => ${savedDaysAgo})` })
        .where(eq(settings.key, "sandboxPayments"));
      await database.db.execute(sql.raw(backfill));
      const rows = await database.db
        .select({ number: orders.number, isTest: orders.isTest })
        .from(orders)
        .where(inArray(orders.number, numbers));
      return numbers.map((number) => rows.find((row) => row.number === number)!.isTest);
    };
    try {
      // Saved on 5 days ago and not changed since: the orders of those days were placed in test mode.
      expect(await migrate(true, 5)).toEqual([false, true, true]);
      // Off now: when it was on before is not recorded; only the sandbox's own payments are known tests.
      expect(await migrate(false, 5)).toEqual([false, true, false]);
    } finally {
      await saveSettings(database.db, { sandboxPayments: true });
    }
  });
});
