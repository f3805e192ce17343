import { parse } from "csv-parse/sync";
import { asc, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { licenceKeys, orderLines, orders, productVariants } from "~db/schema";
import { toDecimalString } from "~/lib/money";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { linePaidCents } from "../orders/invoice-document";
import { type OrdersContext, placeOrder } from "../orders/orders.server";
import { saveSettings } from "../orders/settings.server";
import { csvField, keyPoolsCsv, ordersCsv } from "./exports.server";
import { markOrderPaid } from "../orders/lifecycle.server";
import { refundOrder } from "../orders/refunds.server";
import { orderListQuery } from "./orders.server";

describe("CSV fields", () => {
  it("quotes what needs quoting and keeps spreadsheet formulas from running", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@sum")).toBe("'@sum");
    expect(csvField(-5)).toBe("-5");
    expect(csvField("-12.50")).toBe("-12.50");
    expect(csvField("-1+1")).toBe("'-1+1");
    expect(csvField("-12.50 ")).toBe("'-12.50 ");
    expect(csvField(null)).toBe("");
  });
});

describe.each(drivers)("CSV exports on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  it("exports the orders the list's filters find, money as decimals", async () => {
    const paid = await placeOrder(ctx, checkout({ email: "export-a@example.com" }));
    const unpaid = await placeOrder(
      ctx,
      checkout({ email: "export-b@example.com", paymentMethod: "bank-transfer" }),
    );
    if (!paid.ok || !unpaid.ok) throw new Error("not placed");
    await refundOrder(ctx, paid.number, { mode: "amount", amountCents: 150 }, "owner@example.com");
    const all = await ordersCsv(database.db, orderListQuery.parse({ q: "export-" }));
    const lines = all.trim().split("\r\n");
    expect(lines[0]).toBe(
      "number,created_at,email,status,payment_method,payment_status,test_order,items,currency,subtotal,discount_code,discount,shipping,tax,total,refunded,net_after_refunds,awaiting_keys,tracking_number,paid_at",
    );
    expect(lines).toHaveLength(3);
    const pending = await ordersCsv(
      database.db,
      orderListQuery.parse({ q: "export-", status: "pending_payment" }),
    );
    expect(pending).toContain(`${unpaid.number},`);
    expect(pending).not.toContain(`${paid.number},`);
    const row = lines.find((line) => line.startsWith(`${paid.number},`))!;
    expect(row).toContain(",partially_refunded,yes,1,");
    expect(row).toContain(",1.50,");
  });

  it("says which orders are tests, and what each comes to after its refunds", async () => {
    // The demo store takes test payments: this order is a test, and stays one once they are switched off.
    const test = await placeOrder(ctx, checkout({ email: "columns-test@example.com" }));
    await saveSettings(database.db, { sandboxPayments: false });
    try {
      const real = await placeOrder(
        ctx,
        checkout({
          email: "columns-real@example.com",
          paymentMethod: "bank-transfer",
          cart: [
            { groupKey: "Norton", id: "1", quantity: 1 },
            { groupKey: "Avira", id: "1", quantity: 2 },
          ],
        }),
      );
      if (!test.ok || !real.ok) throw new Error("not placed");
      await markOrderPaid(ctx, real.number, "owner@example.com");
      const [order] = await database.db.select().from(orders).where(eq(orders.id, real.orderId));
      const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, real.orderId));
      const avira = lines.find((line) => line.groupKey === "Avira")!;
      await refundOrder(ctx, real.number, { mode: "line", lineId: avira.id }, "owner@example.com");
      const refunded = linePaidCents(avira, order!.pricesIncludeTax);

      const [header, ...rows] = parse(
        await ordersCsv(database.db, orderListQuery.parse({ q: "columns-" })),
      ) as string[][];
      const byNumber = new Map(
        rows.map((cells) => [
          Number(cells[0]),
          Object.fromEntries(header!.map((name, i) => [name, cells[i]])),
        ]),
      );
      expect(byNumber.get(test.number)).toMatchObject({ test_order: "yes", refunded: "0.00" });
      expect(byNumber.get(test.number)!.net_after_refunds).toBe(byNumber.get(test.number)!.total);
      expect(byNumber.get(real.number)).toMatchObject({
        test_order: "no",
        payment_status: "partially_refunded",
        total: toDecimalString(order!.totalCents),
        refunded: toDecimalString(refunded),
        net_after_refunds: toDecimalString(order!.totalCents - refunded),
      });
    } finally {
      await saveSettings(database.db, { sandboxPayments: true });
    }
  });

  it("exports key pools as hints, never the keys", async () => {
    const csv = await keyPoolsCsv(database.db);
    expect(csv.split("\r\n")[0]).toBe(
      "group,product_id,product,route,key_id,key_hint,state,order_number,added_at,assigned_at,variant_sku,supplier,cost,batch",
    );
    expect(csv).toMatch(/••••\w{4},assigned,\d+/);
    expect(csv).toMatch(/,available,,/);
    expect(csv).not.toMatch(/DEMO-/);
  });

  it("names each key's variant, supplier, cost and batch; an unknown cost stays empty, never zero", async () => {
    const [variantKey] = await database.db
      .select({ id: licenceKeys.id, sku: productVariants.sku })
      .from(licenceKeys)
      .innerJoin(productVariants, eq(productVariants.id, licenceKeys.variantId))
      .orderBy(asc(licenceKeys.id))
      .limit(1);
    const [ownPoolKey] = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .where(isNull(licenceKeys.variantId))
      .orderBy(asc(licenceKeys.id))
      .limit(1);
    await database.db
      .update(licenceKeys)
      // A supplier typed as a formula is written so that a spreadsheet shows it rather than runs it.
      .set({ supplier: "=Keys, Ltd", costCents: 1250, batch: "PO-2026-11" })
      .where(eq(licenceKeys.id, variantKey!.id));
    await database.db
      .update(licenceKeys)
      .set({ supplier: null, costCents: null, batch: null })
      .where(eq(licenceKeys.id, ownPoolKey!.id));
    const rows = parse(await keyPoolsCsv(database.db), { bom: true, columns: true }) as Array<
      Record<string, string>
    >;
    expect(rows.find((row) => row.key_id === String(variantKey!.id))).toMatchObject({
      variant_sku: variantKey!.sku,
      supplier: "'=Keys, Ltd",
      cost: "12.50",
      batch: "PO-2026-11",
    });
    expect(rows.find((row) => row.key_id === String(ownPoolKey!.id))).toMatchObject({
      variant_sku: "",
      supplier: "",
      cost: "",
      batch: "",
    });
    expect(Object.keys(rows[0]!)).not.toContain("key");
  });
});
