import { randomUUID } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  licenceKeyReports,
  licenceKeys,
  orderLines,
  outboxEmails,
  productVariants,
} from "~db/schema";
import { licencesForUser, reportLicenceKey } from "~/modules/accounts/licences.server";
import { addLicenceKeys, keysForOrder } from "~/modules/orders/licence-keys.server";
import { buyerOrderView } from "~/modules/orders/order-view";
import { orderForBuyer, type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import { refundOrder } from "~/modules/orders/refunds.server";
import { signUpCustomers } from "../../../tests/support/accounts";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import {
  listKeyReports,
  openKeyReportCount,
  rejectKeyReport,
  replaceReportedKey,
} from "./key-reports.server";
import { keyReportQuery } from "./key-reports.server";
import { adminOrder } from "./orders.server";
import { createProduct, importKeys } from "./products.server";
import { productFormSchema } from "./schemas";

const BITDEFENDER_1Y = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 1 };
const BITDEFENDER_3D = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-3D-1Y", quantity: 1 };
const ADMIN = "owner@example.com";
const REASON = "The activation page says the key is not valid.";

describe.each(drivers)("the owner's queue of keys reported broken on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  const ada = { id: "", email: "ada.reports@example.com" };
  const bob = { id: "", email: "bob.reports@example.com" };

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(() => signUpCustomers(database.db, ctx.env, [ada, bob]));

  /** A paid order of the customer's, its keys delivered, each key reported broken: the keys and their reports. */
  async function reportedKeys(customer: { id: string; email: string }, cart = [BITDEFENDER_1Y]) {
    // Keys for the order whatever earlier tests left in the pool.
    for (const line of cart) {
      const [variant] = await database.db
        .select()
        .from(productVariants)
        .where(eq(productVariants.sku, line.variant));
      const fresh = Array.from({ length: line.quantity }, () => `SOLD-${randomUUID().toUpperCase()}`);
      await addLicenceKeys(database.db, ctx.cipher, variant!.productId, fresh, variant!.id);
    }
    const placed = await placeOrder(ctx, checkout({ email: customer.email, cart }), customer.id);
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const keys = (
      await database.db
        .select()
        .from(licenceKeys)
        .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
        .where(eq(orderLines.orderId, placed.orderId))
    ).map((row) => row.licence_keys);
    const reports = [];
    for (const key of keys) {
      expect(await reportLicenceKey(database.db, customer, key.id, REASON)).toBe(true);
      const [report] = await database.db
        .select()
        .from(licenceKeyReports)
        .where(and(eq(licenceKeyReports.licenceKeyId, key.id), eq(licenceKeyReports.status, "open")));
      reports.push(report!);
    }
    return { ...placed, keys, reports };
  }

  /** Leaves exactly `keys` unused in the pool of `key` (its product and variant). */
  async function setPool(key: { productId: number; variantId: number | null }, keys: string[]) {
    await database.db
      .delete(licenceKeys)
      .where(
        and(
          eq(licenceKeys.productId, key.productId),
          key.variantId === null ? isNull(licenceKeys.variantId) : eq(licenceKeys.variantId, key.variantId),
          isNull(licenceKeys.orderLineId),
        ),
      );
    await addLicenceKeys(database.db, ctx.cipher, key.productId, keys, key.variantId);
  }

  const keyRow = async (id: number) =>
    (await database.db.select().from(licenceKeys).where(eq(licenceKeys.id, id)))[0]!;
  const reportRow = async (id: number) =>
    (await database.db.select().from(licenceKeyReports).where(eq(licenceKeyReports.id, id)))[0]!;
  const auditsOf = (action: string) => database.db.select().from(auditLog).where(eq(auditLog.action, action));
  const mailCount = async () => (await database.db.select({ n: count() }).from(outboxEmails))[0]!.n;

  it("replaces a key from the same pool on the same line with the same expiry, revokes the old one, audits and e-mails it", async () => {
    const { orderId, number, keys, reports } = await reportedKeys(ada);
    const old = keys[0]!;
    const report = reports[0]!;
    const oldText = [...(await keysForOrder(database.db, ctx.cipher, orderId)).values()].flat()[0]!;
    expect(old.expiresAt).not.toBeNull();
    // The same product's other variant has keys; this variant's pool has exactly one, which must be the one given.
    const fresh = `REPLACE-${Date.now().toString(36).toUpperCase()}-ONE`;
    await setPool(old, [fresh]);
    expect(await openKeyReportCount(database.db)).toBeGreaterThanOrEqual(1);
    const queue = await listKeyReports(database.db, keyReportQuery.parse({}));
    expect(queue.rows.find((row) => row.id === report.id)).toMatchObject({
      status: "open",
      orderNumber: number,
      keyHint: old.keyHint,
      variant: "1 device, 1 year",
      customer: { email: ada.email },
      poolAvailable: 1,
    });

    const done = await replaceReportedKey(ctx, report.id, ADMIN);
    expect(done).toMatchObject({ ok: true, orderNumber: number });

    const revoked = await keyRow(old.id);
    expect(revoked.revokedAt).not.toBeNull();
    const given = await keyRow(revoked.replacedByKeyId!);
    expect(ctx.cipher.decrypt(given.keyCiphertext)).toBe(fresh);
    expect(given).toMatchObject({
      productId: old.productId,
      variantId: old.variantId,
      orderLineId: old.orderLineId,
      revokedAt: null,
      expiresAt: old.expiresAt,
    });
    expect(await reportRow(report.id)).toMatchObject({
      status: "replaced",
      resolvedBy: `admin:${ADMIN}`,
      replacementKeyId: given.id,
    });
    expect((await reportRow(report.id)).resolvedAt).not.toBeNull();

    // The customer's page and order show the new key only, with no report pending.
    const listed = await licencesForUser(database.db, ada.id, new Date());
    expect(listed.map((licence) => licence.id)).toContain(given.id);
    expect(listed.map((licence) => licence.id)).not.toContain(old.id);
    expect(listed.find((licence) => licence.id === given.id)).toMatchObject({
      reported: false,
      rejectedReply: null,
    });
    expect([...(await keysForOrder(database.db, ctx.cipher, orderId)).values()].flat()).toEqual([fresh]);
    // The admin's order says the old key was replaced, not revoked by a refund.
    const line = (await adminOrder(database.db, number))!.lines.find((row) => row.id === old.orderLineId)!;
    expect(line).toMatchObject({ replacedHints: [old.keyHint], revokedHints: [], keyHints: [given.keyHint] });

    const [audit] = (await auditsOf("licence.replace")).filter((row) => row.entityId === String(old.id));
    expect(audit).toMatchObject({
      actor: ADMIN,
      before: { key: old.id },
      after: { key: given.id, order: number },
    });
    expect(JSON.stringify(audit)).not.toContain(fresh);
    expect(JSON.stringify(audit)).not.toContain(oldText);

    const [mail] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, orderId), eq(outboxEmails.kind, "licence-key-replaced")));
    expect(mail).toMatchObject({ to: ada.email });
    expect(mail!.text).toContain(fresh);
    expect(mail!.html).toContain(fresh);
    expect(mail!.text).not.toContain(oldText);

    // Answering it again changes nothing.
    const mails = await mailCount();
    expect(await replaceReportedKey(ctx, report.id, ADMIN)).toMatchObject({ ok: false, status: 409 });
    expect(await rejectKeyReport(ctx, report.id, "No.", ADMIN)).toMatchObject({ ok: false, status: 409 });
    expect(await mailCount()).toBe(mails);
  });

  it("refuses a replacement from an empty pool, naming the product and variant, with nothing changed", async () => {
    const { keys, reports } = await reportedKeys(ada);
    const old = keys[0]!;
    await setPool(old, []);
    const mails = await mailCount();
    const audits = (await auditsOf("licence.replace")).length;

    expect(await replaceReportedKey(ctx, reports[0]!.id, ADMIN)).toEqual({
      ok: false,
      status: 409,
      message: "No unused key for Bitdefender Total Security (1 device, 1 year) is left: import keys first.",
    });
    expect(await keyRow(old.id)).toEqual(old);
    expect(await reportRow(reports[0]!.id)).toMatchObject({
      status: "open",
      resolvedAt: null,
      resolvedBy: null,
    });
    expect(await mailCount()).toBe(mails);
    expect(await auditsOf("licence.replace")).toHaveLength(audits);
  });

  it("refuses a forged report id, and a customer cannot report another's key", async () => {
    const { keys } = await reportedKeys(ada);
    const mails = await mailCount();
    for (const forged of [0, -1, 2_147_483_000]) {
      expect(await replaceReportedKey(ctx, forged, ADMIN)).toMatchObject({ ok: false, status: 404 });
      expect(await rejectKeyReport(ctx, forged, "Not broken.", ADMIN)).toMatchObject({
        ok: false,
        status: 404,
      });
    }
    expect(await reportLicenceKey(database.db, bob, keys[0]!.id, REASON)).toBe(false);
    expect(await mailCount()).toBe(mails);
  });

  it("closes the report of a key its line's refund withdraws; the refund e-mail says the keys no longer work", async () => {
    const { orderId, number, keys, reports } = await reportedKeys(bob);
    await refundOrder(ctx, number, { mode: "full" }, ADMIN);

    expect(await reportRow(reports[0]!.id)).toMatchObject({
      status: "refunded",
      resolvedBy: `admin:${ADMIN}`,
      reply: null,
    });
    expect((await reportRow(reports[0]!.id)).resolvedAt).not.toBeNull();
    expect(await keyRow(keys[0]!.id)).toMatchObject({ revokedAt: expect.any(Date), replacedByKeyId: null });
    // Nothing is left to answer: the queue no longer holds it, and neither answer changes it.
    expect(await replaceReportedKey(ctx, reports[0]!.id, ADMIN)).toMatchObject({ ok: false, status: 409 });
    expect(await rejectKeyReport(ctx, reports[0]!.id, "The key works.", ADMIN)).toMatchObject({
      ok: false,
      status: 409,
      message: "This report was answered already (refunded): nothing changed.",
    });
    const queue = await listKeyReports(database.db, keyReportQuery.parse({}));
    expect(queue.rows.map((row) => row.id)).not.toContain(reports[0]!.id);
    const closed = await listKeyReports(database.db, keyReportQuery.parse({ status: "refunded" }));
    expect(closed.rows.map((row) => row.id)).toContain(reports[0]!.id);

    const [mail] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, orderId), eq(outboxEmails.kind, "refund")));
    expect(mail!.text).toContain("Licence keys of refunded items no longer work");
    const view = buyerOrderView({ ...(await orderForBuyer(ctx, number))!, documents: [] });
    expect(view.lines.map((line) => line.keysWithdrawn)).toEqual([true]);
  });

  it("rejects a report with a reply the customer reads, who may then report the key again", async () => {
    const { orderId, keys, reports } = await reportedKeys(ada, [BITDEFENDER_3D]);
    const key = keys[0]!;
    const reply = "The key works: activate it in the Bitdefender Central account, not in the app.";
    expect(await rejectKeyReport(ctx, reports[0]!.id, reply, ADMIN)).toMatchObject({ ok: true });

    expect(await reportRow(reports[0]!.id)).toMatchObject({
      status: "rejected",
      reply,
      resolvedBy: `admin:${ADMIN}`,
    });
    expect(await keyRow(key.id)).toEqual(key);
    const listed = async () =>
      (await licencesForUser(database.db, ada.id, new Date())).find((licence) => licence.id === key.id)!;
    expect(await listed()).toMatchObject({ reported: false, rejectedReply: reply });
    const [audit] = (await auditsOf("licence.report.reject")).filter(
      (row) => row.entityId === String(key.id),
    );
    expect(audit).toMatchObject({ actor: ADMIN, after: { status: "rejected", reply } });
    const [mail] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.orderId, orderId), eq(outboxEmails.kind, "licence-key-report-rejected")));
    expect(mail!.to).toBe(ada.email);
    expect(mail!.text).toContain(reply);

    // A refusal without a reply does not fit the table.
    await expect(
      database.db
        .update(licenceKeyReports)
        .set({ reply: " " })
        .where(eq(licenceKeyReports.id, reports[0]!.id)),
    ).rejects.toThrow();

    expect(await reportLicenceKey(database.db, ada, key.id, "It still says the key is not valid.")).toBe(
      true,
    );
    expect(await listed()).toMatchObject({ reported: true, rejectedReply: null });
  });

  it("gives the last key of a pool to one of two replacements made at once; the other is told the pool is empty", async () => {
    const { keys, reports } = await reportedKeys(ada, [{ ...BITDEFENDER_1Y, quantity: 2 }]);
    expect(reports).toHaveLength(2);
    const last = `LAST-${Date.now().toString(36).toUpperCase()}-KEY`;
    await setPool(keys[0]!, [last]);

    const results = await Promise.all(reports.map((report) => replaceReportedKey(ctx, report.id, ADMIN)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([
      {
        ok: false,
        status: 409,
        message:
          "No unused key for Bitdefender Total Security (1 device, 1 year) is left: import keys first.",
      },
    ]);
    const statuses = await Promise.all(reports.map(async (report) => (await reportRow(report.id)).status));
    expect(statuses.sort()).toEqual(["open", "replaced"]);
    const revoked = await Promise.all(keys.map(async (key) => (await keyRow(key.id)).revokedAt !== null));
    expect(revoked.filter(Boolean)).toHaveLength(1);
    const holders = await database.db
      .select({ line: licenceKeys.orderLineId })
      .from(licenceKeys)
      .where(eq(licenceKeys.keyFingerprint, ctx.cipher.fingerprint(last)));
    expect(holders).toEqual([{ line: keys[0]!.orderLineId }]);
  });

  it("still owes a line the keys it waits for after one of its delivered keys was replaced", async () => {
    const created = await createProduct(
      database.db,
      productFormSchema.parse({
        groupKey: "Norton",
        externalId: "replace-wait",
        name: "Norton Replace Wait",
        description: "A pool too small for the order.",
        price: "10.00",
        img: "/placeholder/product/replace-wait.svg",
        route: "/antivirus/norton/replace-wait",
      }),
      ADMIN,
    );
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    await addLicenceKeys(database.db, ctx.cipher, created.id, ["WAIT-KEY-0001"]);
    // Two keys ordered, one in the pool: the line waits for its second.
    const placed = await placeOrder(
      ctx,
      checkout({ email: ada.email, cart: [{ groupKey: "Norton", id: "replace-wait", quantity: 2 }] }),
      ada.id,
    );
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    const [delivered] = await database.db
      .select()
      .from(licenceKeys)
      .innerJoin(orderLines, eq(orderLines.id, licenceKeys.orderLineId))
      .where(eq(orderLines.orderId, placed.orderId));
    expect(await reportLicenceKey(database.db, ada, delivered!.licence_keys.id, REASON)).toBe(true);
    const [report] = await database.db
      .select()
      .from(licenceKeyReports)
      .where(eq(licenceKeyReports.licenceKeyId, delivered!.licence_keys.id));
    await addLicenceKeys(database.db, ctx.cipher, created.id, ["WAIT-KEY-0002"]);
    expect(await replaceReportedKey(ctx, report!.id, ADMIN)).toMatchObject({ ok: true });

    // The replaced key is not one of the line's two: the next key imported is its second.
    const imported = await importKeys(ctx, created.id, ["WAIT-KEY-0003"], ADMIN);
    expect(imported.delivered).toEqual([placed.number]);
    expect([...(await keysForOrder(database.db, ctx.cipher, placed.orderId)).values()].flat().sort()).toEqual(
      ["WAIT-KEY-0002", "WAIT-KEY-0003"],
    );
  });
});
