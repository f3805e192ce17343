import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~db/client.server";
import {
  auditLog,
  licenceKeys,
  orderLines,
  orders,
  outboxEmails,
  productVariants,
  renewalReminderOptOuts,
  renewalReminders,
} from "~db/schema";
import { createAuth } from "~/modules/accounts/auth.server";
import { renewalSettingsSchema } from "~/modules/admin/settings-schemas";
import { saveSettingsSection } from "~/modules/admin/store-settings.server";
import { signUpConfirmed } from "../../../tests/support/accounts";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { addLicenceKeys } from "./licence-keys.server";
import { type OrdersContext, placeOrder } from "./orders.server";
import {
  customerOfToken,
  dueReminder,
  expiringLicences,
  type ReminderContext,
  renewalsWon,
  sendRenewalReminders,
  remindersOff,
  setReminders,
  unsubscribeToken,
} from "./renewals.server";
import { refundOrder } from "./refunds.server";
import { getSettings, saveSettings } from "./settings.server";

const DAY = 24 * 60 * 60 * 1000;
const BD_1D_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 1 };
const BD_3D_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-3D-1Y", quantity: 1 };

describe("which reminder is due", () => {
  it("is the nearest mark reached, none before the first or after the day of expiry", () => {
    const days = [30, 7, 0];
    expect(dueReminder(days, 31)).toBeNull();
    expect(dueReminder(days, 30)).toBe(30);
    expect(dueReminder(days, 10)).toBe(30);
    expect(dueReminder(days, 7)).toBe(7);
    expect(dueReminder(days, 5)).toBe(7);
    expect(dueReminder(days, 0)).toBe(0);
    expect(dueReminder(days, -40)).toBeNull();
    expect(dueReminder([14], 3)).toBe(14);
  });

  it("the settings form takes up to 5 distinct whole days from 0 to 365, and says what is wrong", () => {
    const parse = (days: string) => renewalSettingsSchema.safeParse({ renewalReminderDays: days });
    expect(parse("30, 7, 0").data).toEqual({ renewalReminders: false, renewalReminderDays: [30, 7, 0] });
    expect(parse("0 7 30").data?.renewalReminderDays).toEqual([30, 7, 0]);
    const message = (days: string) => parse(days).error?.issues[0]?.message;
    expect(message("")).toBe("Enter at least one day, like 30, 7, 0");
    expect(message("30, 400")).toBe("400 is too many days: at most 365");
    expect(message("7, 7")).toBe("7 is there twice: give each day once");
    expect(message("7.5")).toBe("“7.5” is not a whole number of days: use 0 to 365");
    expect(message("-1")).toBe("“-1” is not a whole number of days: use 0 to 365");
    expect(message("1 2 3 4 5 6")).toBe("At most 5 days (there are 6)");
  });

  it("an unsubscribe token names its customer only when the server signed it", () => {
    const secret = "s".repeat(40);
    const token = unsubscribeToken(secret, { email: "Guest@Example.com" });
    expect(customerOfToken(secret, token)).toEqual({ email: "guest@example.com" });
    expect(customerOfToken(secret, unsubscribeToken(secret, { userId: "u1" }))).toEqual({ userId: "u1" });
    expect(customerOfToken("t".repeat(40), token)).toBeNull();
    const [subject, signature] = token.split(".");
    const other = Buffer.from("e:other@example.com").toString("base64url");
    expect(customerOfToken(secret, `${other}.${signature}`)).toBeNull();
    expect(customerOfToken(secret, `${subject}.`)).toBeNull();
    expect(customerOfToken(secret, "junk")).toBeNull();
    expect(customerOfToken(secret, null)).toBeNull();
  });
});

describe.each(drivers)("renewal reminders on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let reminders: ReminderContext;
  const ada = { id: "", email: "ada.renewals@example.com" };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    reminders = { db: database.db, env: ctx.env, mailer: { kick() {} } };
    const auth = createAuth({
      db: database.db,
      env: ctx.env,
      logger: recordingLogger().logger,
      mailer: { kick() {} },
      rateLimit: false,
    });
    ada.id = (
      await signUpConfirmed(auth, database.db, ctx.env.PUBLIC_URL, {
        name: "Ada Renewals",
        email: ada.email,
        password: "correct horse battery",
      })
    ).id;
    await saveSettings(database.db, { renewalReminders: true, renewalReminderDays: [30, 7, 0] });
    // Keys enough for every order of the file in both pools (the demo store's hold a few).
    const variants = await database.db
      .select()
      .from(productVariants)
      .where(inArray(productVariants.sku, [BD_1D_1Y.variant, BD_3D_1Y.variant]));
    for (const variant of variants)
      await addLicenceKeys(
        database.db,
        ctx.cipher,
        variant.productId,
        Array.from({ length: 30 }, () => `RENEW-${randomUUID()}`),
        variant.id,
      );
  });

  /** A paid order of `cart`, and its keys expiring `daysLeft` days after `now` (at `now`'s time of day). */
  async function bought(email: string, userId: string | null, cart: object[]) {
    const placed = await placeOrder(ctx, checkout({ email, cart: cart as never }), userId);
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const keys = await database.db
      .select({ id: licenceKeys.id })
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, placed.orderId));
    if (keys.length === 0) throw new Error(`order #${placed.number} got no keys`);
    return { ...placed, keyIds: keys.map((key) => key.id) };
  }
  const expire = (keyIds: number[], at: Date) =>
    database.db.update(licenceKeys).set({ expiresAt: at }).where(inArray(licenceKeys.id, keyIds));
  const remindersOf = (keyIds: number[]) =>
    database.db
      .select({
        keyId: renewalReminders.licenceKeyId,
        days: renewalReminders.days,
        emailId: renewalReminders.emailId,
      })
      .from(renewalReminders)
      .where(inArray(renewalReminders.licenceKeyId, keyIds));
  const mailsOf = (orderId: number) =>
    database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, orderId), eq(outboxEmails.kind, "renewal-reminder")));

  it("writes the 30-day reminder once when two job instances race, with its renew and unsubscribe links", async () => {
    const now = new Date("2031-06-01T09:00:00Z");
    const order = await bought("race@example.com", null, [BD_1D_1Y]);
    await expire(order.keyIds, new Date(now.getTime() + 30 * DAY + 3_600_000));
    // On PostgreSQL a second client, as a second server process has; PGlite has one connection.
    const second = database.url ? await openDatabase({ url: database.url }) : null;
    try {
      const passes = await Promise.all([
        sendRenewalReminders(reminders, now),
        sendRenewalReminders(second ? { ...reminders, db: second.db } : reminders, now),
        sendRenewalReminders(reminders, now),
      ]);
      expect(passes.flat()).toEqual([{ keyId: order.keyIds[0], days: 30 }]);
    } finally {
      await second?.close();
    }
    expect(await sendRenewalReminders(reminders, now)).toEqual([]);
    expect(await sendRenewalReminders(reminders, new Date(now.getTime() + 3 * DAY))).toEqual([]);

    const mails = await mailsOf(order.orderId);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect((await remindersOf(order.keyIds))[0]?.emailId).toBe(mail!.id);
    expect(mail!.to).toBe("race@example.com");
    expect(mail!.subject).toBe("Your Bitdefender Total Security licence expires in 30 days");
    expect(mail!.text).toContain("Bitdefender Total Security (1 device, 1 year)");
    expect(mail!.text).toContain("expires on 1 July 2031, in 30 days.");
    expect(mail!.text).toContain(
      "Renew: https://shop.example.com/antivirus/bitdefender/total-security?variant=BD-TS-1D-1Y",
    );
    const link = /No more renewal reminders: (\S+)/.exec(mail!.text)![1]!;
    expect(link).toMatch(/^https:\/\/shop\.example\.com\/reminders\/unsubscribe\?token=/);
    expect(customerOfToken(ctx.env.AUTH_SECRET, new URL(link).searchParams.get("token"))).toEqual({
      email: "race@example.com",
    });
    expect(mail!.headers).toEqual({
      "List-Unsubscribe": `<${link}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail!.html).toContain(
      'href="https://shop.example.com/antivirus/bitdefender/total-security?variant=BD-TS-1D-1Y"',
    );
  });

  it("sends the nearest mark reached, never marks passed long ago, and the next marks as their days come", async () => {
    const now = new Date("2033-03-10T12:00:00Z");
    const at = (days: number) => new Date(now.getTime() + days * DAY);
    const keys: Record<string, number> = {};
    for (const [name, days] of [
      ["d31", 31],
      ["d30", 30],
      ["d10", 10],
      ["d5", 5],
      ["today", 0.1],
      ["expired40", -40],
    ] as const) {
      const order = await bought(`${name}.marks@example.com`, null, [BD_1D_1Y]);
      keys[name] = order.keyIds[0]!;
      await expire(order.keyIds, at(days));
    }
    const sent = await sendRenewalReminders(reminders, now);
    expect(Object.fromEntries(sent.map(({ keyId, days }) => [keyId, days]))).toEqual({
      [keys.d30!]: 30,
      [keys.d10!]: 30,
      [keys.d5!]: 7,
      [keys.today!]: 0,
    });
    const [todayMail] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.to, "today.marks@example.com"), eq(outboxEmails.kind, "renewal-reminder")));
    expect(todayMail!.subject).toBe("Your Bitdefender Total Security licence expires today");
    expect(todayMail!.text).toContain("expires today.");

    // Three days later the key 10 days out has 7 left, and the one 31 days out 28; five days later the one 5 days
    // out expires that day.
    expect((await sendRenewalReminders(reminders, at(3))).map(({ keyId, days }) => [keyId, days])).toEqual([
      [keys.d10, 7],
      [keys.d31, 30],
    ]);
    const later = await sendRenewalReminders(reminders, at(5));
    expect(later.map(({ keyId, days }) => [keyId, days])).toEqual([[keys.d5, 0]]);
    const all = await remindersOf(Object.values(keys));
    expect(all.filter((row) => row.keyId === keys.d31).map((row) => row.days)).toEqual([30]);
    expect(all.filter((row) => row.keyId === keys.expired40)).toEqual([]);
    expect(all.filter((row) => row.keyId === keys.d30).map((row) => row.days)).toEqual([30]);
  });

  it("honours an unsubscribe (a guest's address, an account) until reminders are turned on again", async () => {
    const now = new Date("2035-01-01T08:00:00Z");
    const guest = await bought("Quiet.Guest@example.com", null, [BD_1D_1Y]);
    const account = await bought(ada.email, ada.id, [BD_1D_1Y]);
    // A guest order placed with the account's address is the account holder's too.
    const asGuest = await bought(ada.email, null, [BD_3D_1Y]);
    const all = [...guest.keyIds, ...account.keyIds, ...asGuest.keyIds];
    await expire(all, new Date(now.getTime() + 7 * DAY));
    const guestToken = unsubscribeToken(ctx.env.AUTH_SECRET, { email: "quiet.guest@example.com" });
    await setReminders(
      database.db,
      customerOfToken(ctx.env.AUTH_SECRET, guestToken)!,
      false,
      "quiet.guest@example.com",
    );
    await setReminders(database.db, { userId: ada.id }, false, ada.email);
    // Asking twice changes nothing, and is audited once.
    await setReminders(database.db, { userId: ada.id }, false, ada.email);
    expect(await sendRenewalReminders(reminders, now)).toEqual([]);
    const audits = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.actor, ada.email));
    expect(audits.filter((row) => row.action === "renewals.unsubscribe")).toHaveLength(1);

    await setReminders(database.db, { userId: ada.id }, true, ada.email, ada.email);
    const sent = await sendRenewalReminders(reminders, now);
    expect(sent.map((row) => row.keyId).sort()).toEqual([...account.keyIds, ...asGuest.keyIds].sort());
    const [mail] = await mailsOf(account.orderId);
    expect(mail!.to).toBe(ada.email);
    expect(mail!.text).toContain("Your licences: https://shop.example.com/user/licences");
    expect(
      await database.db
        .select()
        .from(renewalReminderOptOuts)
        .where(eq(renewalReminderOptOuts.email, "quiet.guest@example.com")),
    ).toHaveLength(1);
    expect(await remindersOf(guest.keyIds)).toEqual([]);
  });

  it("the dashboard counts whole days, as the reminder does: a key 30 days off is listed whatever the hour", async () => {
    const midnight = new Date(Date.UTC(2031, 5, 10));
    const now = new Date(midnight.getTime() + 30 * 60_000);
    const { keyIds } = await bought("hours.renewals@example.com", null, [BD_1D_1Y, BD_1D_1Y, BD_1D_1Y]);
    const [thirtyDaysAtNoon, thirtyOneDays, expiredThisMorning] = keyIds as [number, number, number];
    await expire([thirtyDaysAtNoon], new Date(midnight.getTime() + 30 * DAY + 12 * 60 * 60_000));
    await expire([thirtyOneDays], new Date(midnight.getTime() + 31 * DAY));
    await expire([expiredThisMorning], new Date(midnight.getTime() + 10 * 60_000));
    const listed = (await expiringLicences(database.db, now, 30, 50)).soonest.map((licence) => licence.keyId);
    expect(listed).toContain(thirtyDaysAtNoon);
    expect(listed).not.toContain(thirtyOneDays);
    expect(listed).not.toContain(expiredThisMorning);
    const sent = await sendRenewalReminders(reminders, now);
    expect(sent).toContainEqual({ keyId: thirtyDaysAtNoon, days: 30 });
  });

  it("sends nothing for a revoked key or one renewed since, and counts the renewal won", async () => {
    const now = new Date();
    const soon = new Date(now.getTime() + 20 * DAY);
    const refunded = await bought("refunded.renewals@example.com", null, [BD_1D_1Y]);
    const renewed = await bought("renewed.renewals@example.com", null, [BD_1D_1Y]);
    const otherVariant = await bought("other.renewals@example.com", null, [BD_1D_1Y]);
    await expire([...refunded.keyIds, ...renewed.keyIds, ...otherVariant.keyIds], soon);
    await refundOrder(ctx, refunded.number, { mode: "full", reason: "" }, "admin@example.com");
    const expiring = await expiringLicences(database.db, now, 30, 50);
    // Test payments are test orders, left out of the renewals won: these two are taken as real.
    const againOrder = await bought("Renewed.Renewals@example.com", null, [BD_1D_1Y]);
    const differentOrder = await bought("other.renewals@example.com", null, [BD_3D_1Y]);
    await database.db
      .update(orders)
      .set({ isTest: false })
      .where(inArray(orders.id, [againOrder.orderId, differentOrder.orderId, renewed.orderId]));

    const sent = await sendRenewalReminders(reminders, now);
    const keysSent = sent.map((row) => row.keyId);
    expect(keysSent).toContain(otherVariant.keyIds[0]);
    expect(keysSent).not.toContain(renewed.keyIds[0]);
    expect(keysSent).not.toContain(refunded.keyIds[0]);

    const listed = expiring.soonest.map((licence) => licence.keyId);
    expect(listed).toContain(renewed.keyIds[0]);
    expect(listed).not.toContain(refunded.keyIds[0]);
    const after = await expiringLicences(database.db, now, 30, 50);
    const entry = after.soonest.find((licence) => licence.keyId === renewed.keyIds[0]);
    expect(entry).toMatchObject({ renewed: true, reminded: false, email: "renewed.renewals@example.com" });
    expect(after.soonest.find((licence) => licence.keyId === otherVariant.keyIds[0])).toMatchObject({
      renewed: false,
      reminded: true,
    });

    const won = await renewalsWon(database.db, new Date(now.getTime() + 60_000));
    const [line] = await database.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, againOrder.orderId));
    expect(won).toEqual({
      orders: 1,
      revenueCents: line!.lineTotalCents - line!.discountCents,
      afterReminder: 0,
    });
  });

  it("the owner's save of the section is live at once and audited; switched off, nothing is sent", async () => {
    await saveSettingsSection(
      database.db,
      "renewals",
      { renewalReminders: false, renewalReminderDays: [14, 1] },
      "owner@example.com",
    );
    try {
      expect(await getSettings(database.db)).toMatchObject({
        renewalReminders: false,
        renewalReminderDays: [14, 1],
      });
      const [entry] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "settings.renewals"), eq(auditLog.actor, "owner@example.com")));
      expect(entry).toMatchObject({
        before: { renewalReminders: true, renewalReminderDays: [30, 7, 0] },
        after: { renewalReminders: false, renewalReminderDays: [14, 1] },
      });
      const now = new Date("2037-05-05T05:00:00Z");
      const order = await bought("switched.off@example.com", null, [BD_1D_1Y]);
      await expire(order.keyIds, new Date(now.getTime() + DAY));
      expect(await sendRenewalReminders(reminders, now)).toEqual([]);
    } finally {
      await saveSettings(database.db, { renewalReminders: true, renewalReminderDays: [30, 7, 0] });
    }
  });

  it("an account shows and lifts a guest's unsubscribe of an address its orders were placed with", async () => {
    const now = new Date("2039-02-02T02:00:00Z");
    const old = await bought("old.ada@example.com", null, [BD_1D_1Y]);
    await setReminders(database.db, { email: "old.ada@example.com" }, false, "old.ada@example.com");
    // The guest order joins Ada's account (as it does once she confirms that address).
    await database.db.update(orders).set({ userId: ada.id }).where(eq(orders.id, old.orderId));
    await expire(old.keyIds, new Date(now.getTime() + 7 * DAY));
    expect(await remindersOff(database.db, { userId: ada.id }, ada.email)).toBe(true);
    expect(await sendRenewalReminders(reminders, now)).toEqual([]);
    await setReminders(database.db, { userId: ada.id }, true, ada.email, ada.email);
    expect(await remindersOff(database.db, { userId: ada.id }, ada.email)).toBe(false);
    expect(await sendRenewalReminders(reminders, now)).toEqual([{ keyId: old.keyIds[0], days: 7 }]);
  });
});
