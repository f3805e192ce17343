import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, licenceKeyReports, licenceKeys, orderLines, orders } from "~db/schema";
import { keysForOrder } from "~/modules/orders/licence-keys.server";
import { type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import { refundOrder } from "~/modules/orders/refunds.server";
import { signUpCustomers } from "../../../tests/support/accounts";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { joinGuestOrders } from "./guest-orders.server";
import { detachPersonalData } from "./personal-data.server";
import { licenceExpiry, licenceExpiryText } from "./licences";
import { licencesForUser, reportLicenceKey, revealLicenceKey } from "./licences.server";

const DAY = 24 * 60 * 60 * 1000;
const BITDEFENDER_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 1 };
const NORTON = { groupKey: "Norton", id: "1", quantity: 1 };

describe.each(drivers)("the customer's licences on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  const ada = { id: "", email: "ada.licences@example.com" };
  const bob = { id: "", email: "bob.licences@example.com" };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(() => signUpCustomers(database.db, ctx.env, [ada, bob]));

  async function order(email: string, cart: object[], userId: string | null) {
    const placed = await placeOrder(ctx, checkout({ email, cart: cart as never }), userId);
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId));
    const keys = await database.db
      .select()
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, placed.orderId));
    return { ...placed, lines, keys: keys.map((row) => row.licence_keys) };
  }

  const auditsOf = (keyId: number) =>
    database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, "licence_key"), eq(auditLog.entityId, String(keyId))));

  it("lists the keys of the customer's orders and joined guest orders, newest first; never another's or a revoked one", async () => {
    const now = new Date();
    const own = await order(ada.email, [BITDEFENDER_1Y, NORTON], ada.id);
    expect(own.keys).toHaveLength(2);
    const bobs = await order(bob.email, [NORTON], bob.id);
    // A guest order with Ada's address is hers only once it joins her account (her address is confirmed).
    const guest = await order(ada.email, [NORTON], null);
    expect((await licencesForUser(database.db, ada.id, now)).map((licence) => licence.orderNumber)).toEqual([
      own.number,
      own.number,
    ]);
    expect(await joinGuestOrders(database.db, ada.id, "customer")).toEqual({
      ok: true,
      joined: [guest.number],
    });

    const listed = await licencesForUser(database.db, ada.id, now);
    expect(listed.map((licence) => [licence.orderNumber, licence.id])).toEqual([
      [guest.number, guest.keys[0]!.id],
      ...[...own.keys].sort((a, b) => b.id - a.id).map((key) => [own.number, key.id]),
    ]);
    expect(listed.some((licence) => licence.id === bobs.keys[0]!.id)).toBe(false);
    const bitdefender = listed.find((licence) => licence.variantLabel !== null)!;
    expect(bitdefender).toMatchObject({
      productName: "Bitdefender Total Security",
      variantLabel: "1 device, 1 year",
      brandWebsite: "https://www.example.com/support/bitdefender",
      supportPath: "/support/bitdefender",
      renew: {
        groupKey: "Bitdefender",
        id: "3",
        variant: "BD-TS-1D-1Y",
        productPath: "/antivirus/bitdefender/total-security?variant=BD-TS-1D-1Y",
      },
    });
    // The hint only: the page's data never carries a key.
    const ownKeys = [...(await keysForOrder(database.db, ctx.cipher, own.orderId)).values()].flat();
    expect(JSON.stringify(listed)).not.toContain(ownKeys[0]);
    expect(listed.every((licence) => /^••••.{4}$/.test(licence.hint))).toBe(true);

    // A refunded line's key is revoked: gone from the list.
    const nortonLine = own.lines.find((line) => line.variantSku === null)!;
    await refundOrder(
      ctx,
      own.number,
      { mode: "line", lineId: nortonLine.id, reason: "" },
      "admin@example.com",
    );
    const revoked = own.keys.find((key) => key.orderLineId === nortonLine.id)!;
    const afterRefund = await licencesForUser(database.db, ada.id, now);
    expect(afterRefund.map((licence) => licence.id)).not.toContain(revoked.id);
    expect(afterRefund).toHaveLength(2);
  });

  it("counts the days left from the stored expiry, as seen from the given moment", async () => {
    const placed = await order(ada.email, [BITDEFENDER_1Y], ada.id);
    const key = placed.keys[0]!;
    const perpetual = (await order(ada.email, [NORTON], ada.id)).keys[0]!;
    expect(key.expiresAt).not.toBeNull();
    expect(perpetual.expiresAt).toBeNull();
    // The stored date decides, whatever the term says: move it and the page follows.
    const expiresAt = new Date("2027-03-12T10:00:00Z");
    await database.db.update(licenceKeys).set({ expiresAt }).where(eq(licenceKeys.id, key.id));
    const seenAt = async (now: Date) => {
      const list = await licencesForUser(database.db, ada.id, now);
      return {
        key: licenceExpiryText(list.find((licence) => licence.id === key.id)!.expiry),
        perpetual: licenceExpiryText(list.find((licence) => licence.id === perpetual.id)!.expiry),
      };
    };
    expect(await seenAt(new Date(expiresAt.getTime() - 468 * DAY))).toEqual({
      key: "Expires 12 March 2027 · 468 days left",
      perpetual: "Does not expire",
    });
    // Part of a day left is a day left; at the moment it ends, it has expired.
    expect((await seenAt(new Date(expiresAt.getTime() - 1000))).key).toBe(
      "Expires 12 March 2027 · 1 day left",
    );
    expect((await seenAt(expiresAt)).key).toBe("Expired");
    expect(licenceExpiry(expiresAt, new Date(expiresAt.getTime() + DAY))).toEqual({ kind: "expired" });
  });

  it("reveals a key to its owner only, auditing who saw which key and never the key", async () => {
    const placed = await order(ada.email, [BITDEFENDER_1Y], ada.id);
    const key = placed.keys[0]!;
    const plain = [...(await keysForOrder(database.db, ctx.cipher, placed.orderId)).values()].flat()[0]!;

    expect(await revealLicenceKey(ctx, bob, key.id)).toBeNull();
    expect(await revealLicenceKey(ctx, ada, 2 ** 31 - 1)).toBeNull();
    expect(await auditsOf(key.id)).toEqual([]);

    expect(await revealLicenceKey(ctx, ada, key.id)).toBe(plain);
    const audits = await auditsOf(key.id);
    expect(audits).toMatchObject([
      { actor: ada.email, action: "licence.reveal", entity: "licence_key", entityId: String(key.id) },
    ]);
    expect(JSON.stringify(audits)).not.toContain(plain);

    // A revoked key is no longer the customer's to reveal.
    const [order_] = await database.db.select().from(orders).where(eq(orders.id, placed.orderId));
    await refundOrder(ctx, order_!.number, { mode: "full", reason: "" }, "admin@example.com");
    expect(await revealLicenceKey(ctx, ada, key.id)).toBeNull();
    expect(await auditsOf(key.id)).toHaveLength(1);
  });

  it("takes one open report per key from its owner only, shown on their list, and refuses a reason too short", async () => {
    const placed = await order(ada.email, [BITDEFENDER_1Y], ada.id);
    const key = placed.keys[0]!;
    const reportsOf = () =>
      database.db.select().from(licenceKeyReports).where(eq(licenceKeyReports.licenceKeyId, key.id));
    const reason = "The activation page says the key is not valid.";

    expect(await reportLicenceKey(database.db, bob, key.id, reason)).toBe(false);
    expect(await reportsOf()).toEqual([]);
    // The table holds the rule too: a reason that slipped past the form is refused, loudly.
    await expect(reportLicenceKey(database.db, ada, key.id, "short")).rejects.toThrow();
    expect(await reportsOf()).toEqual([]);

    const listed = async () =>
      (await licencesForUser(database.db, ada.id, new Date())).find((licence) => licence.id === key.id)!;
    expect((await listed()).reported).toBe(false);
    expect(await reportLicenceKey(database.db, ada, key.id, reason)).toBe(true);
    expect(await reportLicenceKey(database.db, ada, key.id, "Asking again about the same key.")).toBe(true);
    expect(await reportsOf()).toMatchObject([{ userId: ada.id, reason, status: "open" }]);
    expect((await listed()).reported).toBe(true);
    const audits = (await auditsOf(key.id)).filter((row) => row.action === "licence.report");
    expect(audits).toMatchObject([{ actor: ada.email, entity: "licence_key", entityId: String(key.id) }]);

    // The customer's words go with their account when they delete it.
    await detachPersonalData(database.db, { id: ada.id, email: ada.email, emailVerified: true });
    expect(await reportsOf()).toEqual([]);
  });
});
