import { asc, eq, ne } from "drizzle-orm";
import nodemailer from "nodemailer";
import { openDatabase } from "~db/client.server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { outboxEmails } from "~db/schema";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { type RecordedMail, recordingTransport } from "../../../tests/support/mail";
import { backoffSeconds, createMailer, enqueueEmail, MAX_ATTEMPTS } from "./outbox.server";

const message = {
  kind: "test",
  to: "ada@example.com",
  subject: "Hello",
  text: "Hi Ada",
  html: "<p>Hi Ada</p>",
};

describe.each(drivers)("the e-mail outbox on %s", (driver) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(driver);
  });
  afterEach(async () => {
    await database.close();
  });

  it("keeps messages in the outbox, readable, when no SMTP server is configured", async () => {
    const id = await enqueueEmail(database.db, message);
    const mailer = createMailer({
      db: database.db,
      logger: recordingLogger().logger,
      from: "store@example.com",
    });
    await mailer.dispatch();
    const [row] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
    // Kept, not tried: no attempt counted and no error.
    expect(row).toMatchObject({
      status: "stored",
      subject: "Hello",
      text: "Hi Ada",
      attempts: 0,
      lastError: null,
    });
  });

  it("never lets a failed write put the e-mail's body (licence keys) into the logs", async () => {
    const { logger, lines } = recordingLogger();
    const secret = "SECRET-KEY-4242-ABCD";
    const error = await enqueueEmail(database.db, {
      ...message,
      orderId: 2_000_000_000, // no such order: the insert fails
      text: `Your key: ${secret}`,
      html: `<p>${secret}</p>`,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/could not write an e-mail to the outbox \(23503/);
    logger.error({ err: error }, "placing the order failed");
    expect(JSON.stringify(lines())).toContain("could not write an e-mail to the outbox");
    expect(JSON.stringify(lines())).not.toContain(secret);
  });

  it("sends the messages stored without SMTP once a process that has SMTP runs, oldest first, each once", async () => {
    const logger = recordingLogger().logger;
    for (const n of [1, 2, 3]) await enqueueEmail(database.db, { ...message, subject: `Stored ${n}` });
    await createMailer({ db: database.db, logger, from: "store@example.com" }).dispatch();
    expect((await database.db.select().from(outboxEmails)).map((row) => row.status)).toEqual([
      "stored",
      "stored",
      "stored",
    ]);
    // A new message written after the restart comes after the older stored ones.
    await enqueueEmail(database.db, { ...message, subject: "New" });
    const sent: RecordedMail[] = [];
    const mailer = createMailer({
      db: database.db,
      logger,
      from: "store@example.com",
      transport: recordingTransport(sent),
    });
    await mailer.dispatch();
    await mailer.dispatch();
    expect(sent.map((mail) => mail.subject)).toEqual(["Stored 1", "Stored 2", "Stored 3", "New"]);
    const rows = await database.db.select().from(outboxEmails).orderBy(asc(outboxEmails.id));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ["sent", 1],
      ["sent", 1],
      ["sent", 1],
      ["sent", 1],
    ]);
  });

  it("leaves a message to the process that claimed it after this process's lease ran out", async () => {
    const logger = recordingLogger().logger;
    for (const n of [1, 2, 3]) await enqueueEmail(database.db, { ...message, subject: `Slow ${n}` });
    const sentB: RecordedMail[] = [];
    const b = createMailer({
      db: database.db,
      logger,
      from: "s@example.com",
      transport: recordingTransport(sentB),
    });
    const sentA: string[] = [];
    // A's SMTP server is so slow on its first message that A's lease on the whole batch runs out meanwhile, and
    // B (another process) claims and sends the rest before A gets to them.
    const slow = nodemailer.createTransport({
      name: "slow",
      version: "1",
      send(mail, callback) {
        const subject = String(mail.data.subject);
        void (async () => {
          if (sentA.length === 0) {
            // (The message being sent had its lease renewed just before; the others' leases run out.)
            await database.db
              .update(outboxEmails)
              .set({ nextAttemptAt: new Date(Date.now() - 1000) })
              .where(ne(outboxEmails.subject, subject));
            await b.dispatch();
          }
          sentA.push(subject);
          callback(null, { envelope: mail.message.getEnvelope(), messageId: mail.message.messageId() });
        })();
      },
    });
    const a = createMailer({ db: database.db, logger, from: "s@example.com", transport: slow });
    await a.dispatch();
    // Each went out once: A sent the one it was on, B the two it claimed, and A let those go.
    expect(sentA).toEqual(["Slow 1"]);
    expect(sentB.map((mail) => mail.subject)).toEqual(["Slow 2", "Slow 3"]);
    const rows = await database.db.select().from(outboxEmails);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("waits longer after each failure and stores the last error", async () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(20)).toBe(3600);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: 1, connectionTimeout: 500 });
    const id = await enqueueEmail(database.db, message);
    const mailer = createMailer({
      db: database.db,
      logger: recordingLogger().logger,
      from: "s@example.com",
      transport,
    });
    for (const [attempt, wait] of [
      [1, 30],
      [2, 60],
      [3, 120],
    ] as const) {
      const before = Date.now();
      await mailer.dispatch();
      const [row] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
      expect(row).toMatchObject({ status: "pending", attempts: attempt });
      expect(row!.lastError).toMatch(/ECONNREFUSED|connect/i);
      const delay = (row!.nextAttemptAt.getTime() - before) / 1000;
      expect(delay).toBeGreaterThan(wait - 5);
      expect(delay).toBeLessThan(wait + 5);
      // Not due yet: another run leaves it alone.
      await mailer.dispatch();
      const [still] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
      expect(still!.attempts).toBe(attempt);
      await database.db
        .update(outboxEmails)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(outboxEmails.id, id));
    }
  });

  it("sends through the transport and marks the message sent", async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const sent: string[] = [];
    const original = transport.sendMail.bind(transport);
    transport.sendMail = (async (mail: Parameters<typeof original>[0]) => {
      const info = await original(mail);
      sent.push(String(info.message));
      return info;
    }) as typeof transport.sendMail;
    const id = await enqueueEmail(database.db, message);
    const mailer = createMailer({
      db: database.db,
      logger: recordingLogger().logger,
      from: "store@example.com",
      transport,
    });
    await mailer.dispatch();
    const [row] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
    expect(row!.status).toBe("sent");
    expect(row!.sentAt).not.toBeNull();
    expect(JSON.parse(sent[0]!)).toMatchObject({
      subject: "Hello",
      text: "Hi Ada",
      to: [{ address: "ada@example.com" }],
    });
    // Sent once: a second run has nothing to do.
    await mailer.dispatch();
    expect(sent).toHaveLength(1);
  });

  it("keeps a message whose sending failed and retries it later, giving up after the last attempt", async () => {
    // A real SMTP transport pointed at a port where nothing listens.
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: 1, connectionTimeout: 500 });
    const { logger, lines } = recordingLogger();
    const id = await enqueueEmail(database.db, message);
    const mailer = createMailer({ db: database.db, logger, from: "store@example.com", transport });
    await mailer.dispatch();
    let [row] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row!.lastError).toBeTruthy();
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect(lines().some((line) => line.msg === "could not send an e-mail; will retry")).toBe(true);
    // Due again: retried until the last attempt, then marked failed (and kept).
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      await database.db
        .update(outboxEmails)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(outboxEmails.id, id));
      await mailer.dispatch();
    }
    [row] = await database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("the e-mail outbox with two processes on PostgreSQL", () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase("postgres");
  });
  afterEach(async () => {
    await database.close();
  });

  it("sends each stored message exactly once when two senders run at the same time", async () => {
    const logger = recordingLogger().logger;
    const total = 60;
    for (let n = 0; n < total; n++) await enqueueEmail(database.db, { ...message, subject: `Message ${n}` });
    await createMailer({ db: database.db, logger, from: "store@example.com" }).dispatch();
    // A second connection pool on the same database, as a second server process has.
    const second = await openDatabase({ url: database.url! });
    try {
      const sentA: RecordedMail[] = [];
      const sentB: RecordedMail[] = [];
      const a = createMailer({
        db: database.db,
        logger,
        from: "store@example.com",
        transport: recordingTransport(sentA),
      });
      const b = createMailer({
        db: second.db,
        logger,
        from: "store@example.com",
        transport: recordingTransport(sentB),
      });
      await Promise.all([a.dispatch(), b.dispatch(), a.dispatch(), b.dispatch()]);
      await Promise.all([a.dispatch(), b.dispatch()]);
      const subjects = [...sentA, ...sentB].map((mail) => mail.subject).sort();
      expect(subjects).toHaveLength(total);
      expect(new Set(subjects).size).toBe(total);
      // Both did some of the work.
      expect(sentA.length).toBeGreaterThan(0);
      expect(sentB.length).toBeGreaterThan(0);
      const rows = await database.db.select().from(outboxEmails);
      expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
