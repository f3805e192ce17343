import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~db/client.server";
import { auditLog, outboxEmails, products, savedCarts, stockAlerts, user } from "~db/schema";
import { formatMoney } from "~/lib/money";
import { priceCart } from "~/modules/cart/pricing.server";
import { nameWithVariant } from "~/modules/catalogue/variants";
import { detachPersonalData } from "~/modules/accounts/personal-data.server";
import { signUpCustomers } from "../../../tests/support/accounts";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { type OrdersContext, placeOrder } from "./orders.server";
import {
  type SavedCartContext,
  savedCartOf,
  saveCart,
  savedCartUnsubscribeToken,
  sendSavedCartReminders,
  setSavedCartReminders,
  userOfUnsubscribeToken,
} from "./saved-carts.server";
import { getSettings, inrRateOf, saveSettings } from "./settings.server";

const HOUR = 3_600_000;
const BD_1D_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 2 };
const BD_3D_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-3D-1Y", quantity: 1 };

describe.each(drivers)("saved-cart reminders on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let reminders: SavedCartContext;
  const [ann, bob, cy, dee, eve, fay] = ["ann", "bob", "cy", "dee", "eve", "fay"].map((name) => ({
    id: "",
    email: `${name}.saved-cart@example.com`,
  })) as [{ id: string; email: string }, ...Array<{ id: string; email: string }>];

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    reminders = { db: database.db, env: ctx.env, mailer: { kick() {} } };
    await signUpCustomers(database.db, ctx.env, [ann, bob!, cy!, dee!, eve!, fay!]);
    await saveSettings(database.db, { savedCartReminders: true, savedCartReminderHours: 24 });
  });

  const remindersTo = (email: string) =>
    database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, email))
      .orderBy(asc(outboxEmails.id))
      .then((mails) => mails.filter((mail) => mail.kind === "saved-cart-reminder"));
  /** Moves a saved cart's last change back by `hours`, as that much time passing would. */
  const leftFor = (userId: string, hours: number) =>
    database.db
      .update(savedCarts)
      .set({ updatedAt: new Date(Date.now() - hours * HOUR) })
      .where(eq(savedCarts.userId, userId));

  it("sends one reminder a day after the cart's last change, with its lines at today's prices, even when several processes look", async () => {
    expect(await saveCart(database.db, ann.id, [BD_1D_1Y, BD_3D_1Y], "USD")).toEqual({
      ok: true,
      saved: true,
    });
    await leftFor(ann.id, 23);
    expect(await sendSavedCartReminders(reminders)).toEqual([]);
    await leftFor(ann.id, 25);
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      const passes = await Promise.all([
        sendSavedCartReminders(reminders),
        sendSavedCartReminders(second ? { ...reminders, db: second.db } : reminders),
      ]);
      expect(passes.flat()).toEqual([ann.id]);
    } finally {
      await second?.close();
    }
    // Never twice for the same cart, however long it waits, nor when the browser sends the same cart again.
    expect(await saveCart(database.db, ann.id, [BD_3D_1Y, BD_1D_1Y], "USD")).toEqual({
      ok: true,
      saved: true,
    });
    expect(await sendSavedCartReminders(reminders, new Date(Date.now() + 30 * 24 * HOUR))).toEqual([]);
    const [mail, ...more] = await remindersTo(ann.email);
    expect(more).toEqual([]);
    const lines = await savedCartOf(database.db, ann.id);
    expect(lines.map((line) => line.quantity)).toEqual([2, 1]);
    for (const line of lines) expect(mail!.text).toContain(`${line.quantity} × ${line.name}`);
    expect(mail!.text).toContain(`${ctx.env.PUBLIC_URL}/user/saved-cart`);
    const unsubscribe = /No more cart reminders: (\S+)/.exec(mail!.text)![1]!;
    expect(mail!.headers["List-Unsubscribe"]).toBe(`<${unsubscribe}>`);
    expect(userOfUnsubscribeToken(ctx.env.AUTH_SECRET, new URL(unsubscribe).searchParams.get("token"))).toBe(
      ann.id,
    );

    // A changed cart is a new cart: it gets its own reminder a day after the change.
    await saveCart(database.db, ann.id, [{ ...BD_1D_1Y, quantity: 3 }], "USD");
    expect(await sendSavedCartReminders(reminders)).toEqual([]);
    await leftFor(ann.id, 25);
    expect(await sendSavedCartReminders(reminders)).toEqual([ann.id]);
    expect(await remindersTo(ann.email)).toHaveLength(2);
  });

  it("prices the reminder in the currency the customer shops in; a new currency alone does not restart the day", async () => {
    await saveCart(database.db, fay!.id, [BD_1D_1Y], "USD");
    await leftFor(fay!.id, 25);
    // The customer switched to rupees after leaving the cart: the same lines, the day still counted from them.
    expect(await saveCart(database.db, fay!.id, [BD_1D_1Y], "INR")).toEqual({ ok: true, saved: true });
    expect(await sendSavedCartReminders(reminders)).toEqual([fay!.id]);
    const [mail] = await remindersTo(fay!.email);
    const [line] = (
      await priceCart(database.db, [BD_1D_1Y], {
        currency: "INR",
        rate: inrRateOf(await getSettings(database.db)),
      })
    ).lines;
    expect(mail!.text).toContain(
      `2 × ${nameWithVariant(line!.name, line!.variantLabel)}: ${formatMoney(line!.lineTotalCents, "INR")}`,
    );
    expect(mail!.text).toMatch(/: ₹[\d,]+\.\d\d\n/);
    expect(mail!.text).not.toContain("$");
  });

  it("sends none when the switch is off, to a customer who unsubscribed, or who ordered since the cart changed", async () => {
    await saveCart(database.db, bob!.id, [BD_1D_1Y], "USD");
    await leftFor(bob!.id, 25);
    await saveSettings(database.db, { savedCartReminders: false });
    expect(await sendSavedCartReminders(reminders)).toEqual([]);
    await saveSettings(database.db, { savedCartReminders: true });

    expect(await setSavedCartReminders(database.db, bob!.id, false)).toBe(true);
    // An account deleted since the link was sent: nothing to change, said so, nothing written.
    expect(await setSavedCartReminders(database.db, "no-such-account", false)).toBe(false);
    const [audit] = await database.db.select().from(auditLog).where(eq(auditLog.entityId, bob!.id));
    expect(audit?.action).toBe("saved-carts.unsubscribe");

    await saveCart(database.db, cy!.id, [BD_1D_1Y], "USD");
    await leftFor(cy!.id, 25);
    const placed = await placeOrder(ctx, checkout({ email: cy!.email, cart: [BD_1D_1Y] as never }), cy!.id);
    expect(placed.ok).toBe(true);

    expect(await sendSavedCartReminders(reminders)).toEqual([]);
    expect(await remindersTo(bob!.email)).toEqual([]);
    expect(await remindersTo(cy!.email)).toEqual([]);
  });

  it("never keeps a guest's cart; refuses a cart it cannot read; an emptied cart and a deleted account take theirs away", async () => {
    // A guest has no account to keep a cart for: the table refuses a cart without one.
    await expect(saveCart(database.db, "no-such-user", [BD_1D_1Y], "USD")).rejects.toThrow();
    expect(
      await saveCart(database.db, dee!.id, [{ groupKey: "Bitdefender", quantity: 1 }], "USD"),
    ).toMatchObject({
      ok: false,
    });
    expect(await saveCart(database.db, dee!.id, "junk", "USD")).toMatchObject({ ok: false });
    expect(await saveCart(database.db, dee!.id, [{ ...BD_1D_1Y, quantity: 500 }], "USD")).toMatchObject({
      ok: false,
    });

    await saveCart(database.db, dee!.id, [BD_1D_1Y], "USD");
    expect(await saveCart(database.db, dee!.id, [], "USD")).toEqual({ ok: true, saved: false });
    expect(await savedCartOf(database.db, dee!.id)).toEqual([]);

    // A deleted account: its saved cart goes with its row, and the back-in-stock requests of its address with it.
    await saveCart(database.db, eve!.id, [BD_1D_1Y], "USD");
    const [product] = await database.db.select({ id: products.id }).from(products).limit(1);
    await database.db.insert(stockAlerts).values({ productId: product!.id, email: eve!.email });
    await detachPersonalData(database.db, { id: eve!.id, email: eve!.email, emailVerified: true });
    await database.db.delete(user).where(eq(user.id, eve!.id));
    expect(await database.db.select().from(savedCarts).where(eq(savedCarts.userId, eve!.id))).toEqual([]);
    expect(await database.db.select().from(stockAlerts).where(eq(stockAlerts.email, eve!.email))).toEqual([]);
    expect(savedCartUnsubscribeToken(ctx.env.AUTH_SECRET, "x")).not.toBe(
      savedCartUnsubscribeToken("y".repeat(40), "x"),
    );
  });
});
