import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~db/client.server";
import { brandGroups, outboxEmails, products, productVariants, stockAlerts } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { type OrdersContext } from "./orders.server";
import { useDemoStore } from "../../../tests/support/orders";
import {
  addressOfToken,
  alertOfToken,
  confirmStockAlert,
  confirmToken,
  MAX_PENDING_PER_ADDRESS,
  requestStockAlert,
  sendStockAlerts,
  type StockAlertContext,
  stopStockAlerts,
  stopToken,
} from "./stock-alerts.server";

describe("back-in-stock tokens", () => {
  it("name their request or address only when the server signed them for that link", () => {
    const secret = "s".repeat(40);
    expect(alertOfToken(secret, confirmToken(secret, 42))).toBe(42);
    expect(addressOfToken(secret, stopToken(secret, "Ann@Example.com"))).toBe("ann@example.com");
    // A token for one link does nothing at the other, nor under another secret, nor altered.
    expect(alertOfToken(secret, stopToken(secret, "42@x"))).toBeNull();
    expect(addressOfToken(secret, confirmToken(secret, 42))).toBeNull();
    expect(alertOfToken("t".repeat(40), confirmToken(secret, 42))).toBeNull();
    const [, signature] = confirmToken(secret, 42).split(".");
    expect(alertOfToken(secret, `${Buffer.from("43").toString("base64url")}.${signature}`)).toBeNull();
    expect(alertOfToken(secret, null)).toBeNull();
  });
});

describe.each(drivers)("back-in-stock alerts on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let alerts: StockAlertContext;
  let printer: { id: number; name: string; route: string };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    alerts = { db: database.db, env: ctx.env, mailer: { kick() {} } };
    // A printer sold as itself, out of stock and not taking orders that wait.
    const [found] = await database.db
      .select({ id: products.id, name: products.name, route: products.route })
      .from(products)
      .innerJoin(brandGroups, eq(brandGroups.key, products.groupKey))
      .where(
        and(
          eq(brandGroups.section, "printer"),
          eq(products.hidden, false),
          sql`not exists (select 1 from ${productVariants} where ${productVariants.productId} = ${products.id})`,
        ),
      )
      .orderBy(asc(products.id))
      .limit(1);
    printer = found!;
    await setStock(0);
  });

  const setStock = (stock: number) =>
    database.db.update(products).set({ stock, waitingOrders: false }).where(eq(products.id, printer.id));
  const mailsTo = (to: string) =>
    database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to)).orderBy(asc(outboxEmails.id));
  const ask = (email: string, client = "203.0.113.1", product = printer.id) =>
    requestStockAlert(alerts, client, { product, variant: "", email });

  it("sends only the confirmation until confirmed, then one e-mail once it is back, however many processes look", async () => {
    const email = "ann.restock@example.com";
    expect(await ask("Ann.Restock@Example.com")).toMatchObject({ ok: true, state: "sent" });
    const [confirmation, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(confirmation!.kind).toBe("stock-alert-confirmation");
    expect(confirmation!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /Confirm: (\S+)/.exec(confirmation!.text)![1]!;
    const id = alertOfToken(ctx.env.AUTH_SECRET, new URL(link).searchParams.get("token"))!;

    // Back before it is confirmed: nothing goes.
    await setStock(2);
    expect(await sendStockAlerts(alerts)).toEqual([]);
    await setStock(0);
    expect(await confirmStockAlert(database.db, id)).toBe(true);
    // Asking again for the same, once confirmed, sends nothing more.
    expect(await ask(email)).toMatchObject({ ok: true, state: "already" });
    expect(await sendStockAlerts(alerts)).toEqual([]);
    expect(await mailsTo(email)).toHaveLength(1);

    await setStock(3);
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      const passes = await Promise.all([
        sendStockAlerts(alerts),
        sendStockAlerts(second ? { ...alerts, db: second.db } : alerts),
        sendStockAlerts(alerts),
      ]);
      expect(passes.flat()).toEqual([id]);
    } finally {
      await second?.close();
    }
    expect(await sendStockAlerts(alerts)).toEqual([]);
    const mails = await mailsTo(email);
    expect(mails.map((mail) => mail.kind)).toEqual(["stock-alert-confirmation", "back-in-stock"]);
    expect(mails[1]!.subject).toBe(`${printer.name} is back in stock`);
    expect(mails[1]!.text).toContain(`${ctx.env.PUBLIC_URL}${printer.route}`);
    const stop = /Stop every back-in-stock e-mail: (\S+)/.exec(mails[1]!.text)![1]!;
    expect(mails[1]!.headers["List-Unsubscribe"]).toBe(`<${stop}>`);
    // In stock now: the form says so instead of taking a request.
    expect(await ask(email)).toMatchObject({ ok: true, state: "available" });
    await setStock(0);
  });

  it("refuses a request beyond the address's limits (429), and the one-click way out drops what it has waiting", async () => {
    const email = "bob.restock@example.com";
    // Confirmation e-mails to one address, from clients all over.
    for (let n = 0; n < 3; n++)
      expect(await ask(email, `198.51.100.${n}`)).toMatchObject({ ok: true, state: "sent" });
    const refused = await ask(email, "198.51.100.9");
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(await mailsTo(email)).toHaveLength(3);

    // Requests waiting for one address: at most MAX_PENDING_PER_ADDRESS.
    const many = "carol.restock@example.com";
    const others = await database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.hidden, false))
      .orderBy(asc(products.id))
      .limit(MAX_PENDING_PER_ADDRESS);
    await database.db
      .insert(stockAlerts)
      .values(others.map((product) => ({ productId: product.id, email: many })))
      .onConflictDoNothing();
    const full = await ask(many, "192.0.2.7");
    expect(full).toMatchObject({ ok: false, status: 429 });
    expect(await mailsTo(many)).toEqual([]);

    expect(
      await stopStockAlerts(
        database.db,
        addressOfToken(ctx.env.AUTH_SECRET, stopToken(ctx.env.AUTH_SECRET, many))!,
      ),
    ).toBe(MAX_PENDING_PER_ADDRESS);
    const left = await database.db
      .select({ id: stockAlerts.id })
      .from(stockAlerts)
      .where(and(inArray(stockAlerts.email, [many]), isNull(stockAlerts.notifiedAt)));
    expect(left).toEqual([]);
  });

  it("refuses a product it does not sell with a 404, and drops requests left unconfirmed a week", async () => {
    expect(await ask("dan.restock@example.com", "192.0.2.8", 2_000_000_000)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await ask("erin.restock@example.com", "192.0.2.9")).toMatchObject({ ok: true, state: "sent" });
    await sendStockAlerts(alerts, new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    const kept = await database.db
      .select({ id: stockAlerts.id })
      .from(stockAlerts)
      .where(eq(stockAlerts.email, "erin.restock@example.com"));
    expect(kept).toEqual([]);
  });
});
