import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { outboxEmails } from "~db/schema";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { createMailer, enqueueEmail, MAX_ATTEMPTS } from "./outbox.server";

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
    expect(row).toMatchObject({ status: "stored", subject: "Hello", text: "Hi Ada", attempts: 1 });
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
