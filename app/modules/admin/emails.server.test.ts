import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, outboxEmails } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { createMailer, enqueueEmail } from "../email/outbox.server";
import { type OrdersContext, placeOrder } from "../orders/orders.server";
import {
  emailListQuery,
  emailStatusCounts,
  getEmail,
  listEmails,
  orderEmails,
  resendEmail,
} from "./emails.server";

const ADMIN = "owner@example.com";

describe.each(drivers)("the admin's e-mail outbox on %s", (driver) => {
  let database: TestDatabase;
  let orderId: number;
  let orderNumber: number;
  let ctx: OrdersContext;
  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    const placed = await placeOrder(ctx, checkout({ email: "buyer@example.com" }));
    if (!placed.ok) throw new Error(JSON.stringify(placed.errors));
    orderNumber = placed.number;
    orderId = placed.orderId;
    for (let n = 1; n <= 30; n++)
      await enqueueEmail(database.db, {
        kind: "test",
        to: `reader${n}@example.com`,
        subject: n % 2 ? `Odd news ${n}` : `Even news ${n}`,
        text: `Text ${n}`,
        html: `<p>Html ${n}</p>`,
      });
    // No SMTP: everything is stored.
    await createMailer({
      db: database.db,
      logger: recordingLogger().logger,
      from: "s@example.com",
    }).dispatch();
  });

  it("lists the newest first, paged, and counts every status", async () => {
    const first = await listEmails(database.db, emailListQuery.parse({ pageSize: "10" }));
    expect(first.rows).toHaveLength(10);
    expect(first.total).toBeGreaterThan(30);
    expect(first.rows[0]!.subject).toBe("Even news 30");
    const third = await listEmails(database.db, emailListQuery.parse({ pageSize: "10", page: "3" }));
    expect(third.rows[0]!.subject).toBe("Even news 10");
    const counts = await emailStatusCounts(database.db);
    expect(counts).toMatchObject({ stored: first.total, sent: 0, pending: 0, failed: 0 });
  });

  it("searches recipients and subjects, and filters by status, on the server", async () => {
    const byAddress = await listEmails(database.db, emailListQuery.parse({ q: "reader7@" }));
    expect(byAddress.rows.map((row) => row.to)).toEqual(["reader7@example.com"]);
    const bySubject = await listEmails(database.db, emailListQuery.parse({ q: "odd news", pageSize: "100" }));
    expect(bySubject.total).toBe(15);
    // The status tabs count what the search finds.
    expect(await emailStatusCounts(database.db, "odd news")).toMatchObject({ stored: 15, sent: 0 });
    expect(await emailStatusCounts(database.db, "nothing-like-this")).toMatchObject({ stored: 0 });
    // A search's own % and _ match themselves.
    expect((await listEmails(database.db, emailListQuery.parse({ q: "%" }))).total).toBe(0);
    expect((await listEmails(database.db, emailListQuery.parse({ status: "sent" }))).total).toBe(0);
    expect((await listEmails(database.db, emailListQuery.parse({ status: "stored" }))).total).toBeGreaterThan(
      30,
    );
    // Anything unreadable falls back to the defaults.
    expect(emailListQuery.parse({ status: "spam", sort: "html", page: "-1" })).toMatchObject({
      status: "all",
      sort: "created",
      page: 1,
    });
  });

  it("lists an order's e-mails with the order's number", async () => {
    const emails = await orderEmails(database.db, orderId);
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.every((email) => email.orderNumber === orderNumber)).toBe(true);
    // The customer's e-mails go to the buyer; the owner's notice of the same order to the store.
    const customers = emails.filter((email) => !email.kind.startsWith("owner-"));
    expect(customers.map((email) => email.kind)).toContain("order-confirmation");
    expect(customers.every((email) => email.to === "buyer@example.com")).toBe(true);
    expect(emails.some((email) => email.kind.startsWith("owner-") && email.to !== "buyer@example.com")).toBe(
      true,
    );
  });

  it("lists a receipt's invoice among its attachments, with the admin's download, and a resend keeps it", async () => {
    const receipt = (await orderEmails(database.db, orderId)).find(
      (email) => email.kind === "payment-receipt",
    )!;
    const open = await getEmail(database.db, receipt.id);
    expect(open!.attachments).toEqual([
      {
        filename: expect.stringMatching(/^INV-\d{6}\.pdf$/),
        href: expect.stringMatching(new RegExp(`^/admin/orders/${orderNumber}/documents/INV-\\d{6}\\.pdf$`)),
      },
    ]);
    const copy = await getEmail(database.db, (await resendEmail(database.db, receipt.id, ADMIN))!);
    expect(copy!.attachments).toEqual(open!.attachments);
    // A message without attachments lists none.
    const plain = (await listEmails(database.db, emailListQuery.parse({ q: "Odd news 1" }))).rows[0]!;
    expect((await getEmail(database.db, plain.id))!.attachments).toEqual([]);
  });

  it("resends a copy, queued to be sent, and audits it without the message's body", async () => {
    const [original] = await orderEmails(database.db, orderId);
    const copyId = await resendEmail(database.db, original!.id, ADMIN);
    expect(copyId).not.toBeNull();
    const copy = await getEmail(database.db, copyId!);
    const first = await getEmail(database.db, original!.id);
    expect(copy).toMatchObject({
      status: "pending",
      attempts: 0,
      to: first!.to,
      subject: first!.subject,
      text: first!.text,
      html: first!.html,
      orderNumber,
    });
    // The first keeps its own history.
    expect(first!.status).toBe("stored");
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "email.resend"), eq(auditLog.entityId, String(copyId))));
    expect(entry).toMatchObject({ actor: ADMIN, entity: "email" });
    expect(entry!.after).toMatchObject({ resentFrom: original!.id, to: "buyer@example.com" });
    expect(JSON.stringify(entry)).not.toContain(first!.text);
    expect(await resendEmail(database.db, 999_999, ADMIN)).toBeNull();
    const [row] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, copyId!));
    expect(row!.kind).toBe(first!.kind);
  });
});
