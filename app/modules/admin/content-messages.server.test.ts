import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, contactMessages } from "~db/schema";
import { submitContactMessage, submitQuoteRequest } from "~/modules/content/messages.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import {
  getContactMessage,
  getQuoteRequest,
  listInbox,
  messageListQuery,
  openCounts,
  setMessageHandled,
} from "./content-messages.server";

/** The client address the forms were posted from. */
const CLIENT = "203.0.113.7";

const ADMIN = "owner@example.com";

describe.each(drivers)("the admin's inbox on %s", (driver) => {
  let database: TestDatabase;
  const ids: number[] = [];
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
    for (const [n, email] of ["ana@example.com", "BOB@example.org", "cy@example.com"].entries()) {
      const sent = await submitContactMessage(
        { db: database.db },
        { name: `Sender ${n}`, email, subject: `Subject ${n}`, message: `Message number ${n}, long enough.` },
        CLIENT,
      );
      if (!sent.ok || !sent.stored) throw new Error("not stored");
      ids.push(sent.id);
      // Distinct arrival times, one second apart, oldest first.
      await database.db
        .update(contactMessages)
        .set({ createdAt: new Date(Date.UTC(2026, 10, 1, 12, 0, n)) })
        .where(eq(contactMessages.id, sent.id));
    }
  });
  afterAll(async () => {
    await database.close();
  });

  it("lists contact messages newest first and searches them by e-mail, in any letters", async () => {
    const all = await listInbox(database.db, messageListQuery.parse({}));
    expect(all.rows.map((row) => row.email)).toEqual([
      "cy@example.com",
      "BOB@example.org",
      "ana@example.com",
    ]);
    expect(all.total).toBe(3);
    expect(all.rows[0]).toMatchObject({ name: "Sender 2", subject: "Subject 2", handledAt: null });
    const found = await listInbox(database.db, messageListQuery.parse({ q: "bob@EXAMPLE" }));
    expect(found.rows.map((row) => row.id)).toEqual([ids[1]]);
    const oldest = await listInbox(database.db, messageListQuery.parse({ dir: "asc", pageSize: "5" }));
    expect(oldest.rows[0]!.email).toBe("ana@example.com");
    const paged = await listInbox(database.db, messageListQuery.parse({ pageSize: "5", page: "2" }));
    expect(paged).toEqual({ rows: [], total: 3 });
    expect(await getContactMessage(database.db, ids[0]!)).toMatchObject({
      message: "Message number 0, long enough.",
    });
    expect(await getContactMessage(database.db, 987_654)).toBeNull();
  });

  it("marks a message handled and open again, filters by it, and records who did it", async () => {
    expect(await openCounts(database.db)).toEqual({ contact: 3, quote: 0 });
    expect(await setMessageHandled(database.db, "contact", ids[1]!, true, ADMIN)).toBe(true);
    const handledAt = (await getContactMessage(database.db, ids[1]!))!.readAt;
    expect(handledAt).toBeInstanceOf(Date);
    // Marking it again keeps the first time.
    expect(await setMessageHandled(database.db, "contact", ids[1]!, true, ADMIN)).toBe(true);
    expect((await getContactMessage(database.db, ids[1]!))!.readAt).toEqual(handledAt);
    const open = await listInbox(database.db, messageListQuery.parse({ status: "open" }));
    expect(open.rows.map((row) => row.id)).toEqual([ids[2], ids[0]]);
    const handled = await listInbox(database.db, messageListQuery.parse({ status: "handled" }));
    expect(handled.rows.map((row) => row.id)).toEqual([ids[1]]);
    expect(await openCounts(database.db)).toEqual({ contact: 2, quote: 0 });
    expect(await setMessageHandled(database.db, "contact", ids[1]!, false, ADMIN)).toBe(true);
    expect((await getContactMessage(database.db, ids[1]!))!.readAt).toBeNull();
    expect(await setMessageHandled(database.db, "contact", 987_654, true, ADMIN)).toBe(false);
    const audit = await database.db
      .select({ action: auditLog.action, actor: auditLog.actor })
      .from(auditLog)
      .where(and(eq(auditLog.entity, "contact_message"), eq(auditLog.entityId, String(ids[1]))))
      .orderBy(auditLog.id);
    expect(audit).toEqual([
      { action: "message.handled", actor: ADMIN },
      { action: "message.handled", actor: ADMIN },
      { action: "message.reopened", actor: ADMIN },
    ]);
  });

  it("lists quote requests with their service and package, and handles them", async () => {
    const sent = await submitQuoteRequest(
      { db: database.db },
      { slug: "web-development", packages: [{ name: "Growth" }] },
      {
        packageName: "Growth",
        name: "Dana",
        email: "dana@example.com",
        company: "Dana Ltd",
        message: "We need a new shop, soon.",
      },
      CLIENT,
    );
    if (!sent.ok || !sent.stored) throw new Error("not stored");
    const quotes = await listInbox(database.db, messageListQuery.parse({ kind: "quote" }));
    expect(quotes.rows).toEqual([
      expect.objectContaining({
        id: sent.id,
        email: "dana@example.com",
        subject: "Web Development · Growth",
      }),
    ]);
    expect(await getQuoteRequest(database.db, sent.id)).toMatchObject({
      company: "Dana Ltd",
      serviceTitle: "Web Development",
    });
    expect(await setMessageHandled(database.db, "quote", sent.id, true, ADMIN)).toBe(true);
    expect((await getQuoteRequest(database.db, sent.id))!.handledAt).toBeInstanceOf(Date);
    expect(await openCounts(database.db)).toEqual({ contact: 3, quote: 0 });
    // An unknown box or sort in the URL falls back to the defaults.
    expect(messageListQuery.parse({ kind: "spam", sort: "x", status: "?" })).toMatchObject({
      kind: "contact",
      sort: "received",
      dir: "desc",
      status: "all",
    });
  });
});
