import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Database, Transaction } from "~db/client.server";
import { type OutboxAttachment, outboxEmails } from "~db/schema";
import type { Logger } from "~/lib/logger.server";

export type OutgoingEmail = {
  kind: string;
  orderId?: number;
  to: string;
  /** Where replies go (an owner notification of a customer's message: the customer). */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** Documents to attach, made when the message is sent (see MailerOptions.attachments). */
  attachments?: OutboxAttachment[];
  /** Headers of its own (a reminder's List-Unsubscribe), sent as they are. */
  headers?: Record<string, string>;
};

/** Writes an e-mail in the caller's transaction: if the change it reports is stored, so is the message. */
export async function enqueueEmail(tx: Database | Transaction, email: OutgoingEmail) {
  try {
    const [row] = await tx
      .insert(outboxEmails)
      .values({
        ...email,
        orderId: email.orderId ?? null,
        replyTo: email.replyTo ?? null,
        attachments: email.attachments ?? [],
        headers: email.headers ?? {},
      })
      .returning({ id: outboxEmails.id });
    return row!.id;
  } catch (error) {
    throw withoutBody(error);
  }
}

/**
 * A failed write of an e-mail as an error that can be logged: the driver's error names the query's parameters (the
 * message's text and HTML, with licence keys and order links) and PostgreSQL's detail may quote the row. Only the
 * database's error code and message are kept (the code also as the cause's, where 23505 and the like are looked for).
 */
export function withoutBody(error: unknown): Error {
  let code: string | undefined;
  let message = "";
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = (current as { code?: unknown }).code;
    if (typeof candidate === "string") {
      code = candidate;
      message = current instanceof Error ? current.message : "";
      break;
    }
  }
  return new Error(`could not write an e-mail to the outbox${code ? ` (${code}: ${message})` : ""}`, {
    cause: code ? Object.assign(new Error(message), { code }) : undefined,
  });
}

/**
 * The message's own headers as written, unfolded: nodemailer would fold or encode a long List-Unsubscribe link,
 * which some mail programs then fail to read. No line breaks get in, so no header can add another.
 */
const preparedHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([key, value]) => [
      key,
      { prepared: true, value: value.replace(/[\r\n]+/g, " ") },
    ]),
  );

/** Attempts before a message is given up as failed; the wait doubles each time, from 30 s up to an hour. */
export const MAX_ATTEMPTS = 8;
export const backoffSeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
/** A claimed message is someone else's to send for this long; if that process dies, it is retried after. */
const LEASE_SECONDS = 300;

export type Mailer = {
  /** Sends what is due now (after a commit, say); resolves when done. Never throws. */
  dispatch(): Promise<void>;
  /** Wake the sender soon without waiting for it. */
  kick(): void;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
};

export type MailerOptions = {
  db: Database;
  logger: Logger;
  from: string;
  /** smtp://... ; without it messages are kept in the outbox as "stored", readable by the admin. */
  smtpUrl?: string;
  /** For tests: a transport of nodemailer's own kinds. */
  transport?: Transporter;
  /**
   * Makes the file of an attachment when its message is sent (an invoice's PDF, from its stored snapshot), so the
   * outbox row holds a reference, not the bytes. A message with attachments and no maker fails like a refused send.
   */
  attachments?: AttachmentMaker;
};

export type AttachmentMaker = (
  attachment: OutboxAttachment,
) => Promise<{ filename: string; content: Buffer; contentType: string }>;

export function createMailer({
  db,
  logger,
  from,
  smtpUrl,
  transport,
  attachments: makeAttachment,
}: MailerOptions): Mailer {
  // Time limits well inside the lease, so a hanging SMTP server cannot hold one message past it.
  const transporter =
    transport ??
    (smtpUrl
      ? nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: 30_000,
          greetingTimeout: 30_000,
          socketTimeout: 60_000,
        })
      : undefined);
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  async function claimDue() {
    // Take a lease on due messages so another process does not send them too. With a way to send, messages kept
    // as "stored" while there was none are due as well, oldest first with the rest.
    const waiting = transporter
      ? or(eq(outboxEmails.status, "pending"), eq(outboxEmails.status, "stored"))
      : eq(outboxEmails.status, "pending");
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: outboxEmails.id })
        .from(outboxEmails)
        .where(and(waiting, lte(outboxEmails.nextAttemptAt, sql`now()`)))
        .orderBy(asc(outboxEmails.id))
        .limit(20)
        .for("update", { skipLocked: true });
      if (due.length === 0) return [];
      // The lease's end, to the millisecond, is also this process's mark on the rows (see stillMine).
      return tx
        .update(outboxEmails)
        .set({ nextAttemptAt: new Date(Date.now() + LEASE_SECONDS * 1000) })
        .where(
          inArray(
            outboxEmails.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
    });
  }

  /**
   * Renews the lease on one message of the batch just before sending it, if the lease is still the one this process
   * took: when an earlier message of the batch took so long that the lease ran out and another process claimed
   * this one, it is that process's to send, not this one's.
   */
  async function stillMine(id: number, lease: Date) {
    const renewed = await db
      .update(outboxEmails)
      .set({ nextAttemptAt: new Date(Date.now() + LEASE_SECONDS * 1000) })
      .where(and(eq(outboxEmails.id, id), eq(outboxEmails.nextAttemptAt, lease)))
      .returning({ id: outboxEmails.id });
    return renewed.length === 1;
  }

  async function sendDue() {
    for (;;) {
      const batch = await claimDue();
      if (batch.length === 0) return;
      for (const email of batch) {
        if (!transporter) {
          // Kept, not tried: no attempt is counted, and it is due at once when a process that can send looks.
          await db
            .update(outboxEmails)
            .set({ status: "stored", nextAttemptAt: sql`now()` })
            .where(eq(outboxEmails.id, email.id));
          continue;
        }
        if (!(await stillMine(email.id, email.nextAttemptAt))) continue;
        try {
          const files = await Promise.all(
            email.attachments.map((attachment) => {
              if (!makeAttachment) throw new Error("this process cannot make the e-mail's attachments");
              return makeAttachment(attachment);
            }),
          );
          await transporter.sendMail({
            from,
            to: email.to,
            ...(email.replyTo ? { replyTo: email.replyTo } : {}),
            subject: email.subject,
            text: email.text,
            html: email.html,
            ...(files.length > 0 ? { attachments: files } : {}),
            ...(Object.keys(email.headers).length > 0 ? { headers: preparedHeaders(email.headers) } : {}),
          });
          await db
            .update(outboxEmails)
            .set({ status: "sent", attempts: email.attempts + 1, sentAt: sql`now()`, lastError: null })
            .where(eq(outboxEmails.id, email.id));
        } catch (error) {
          const attempts = email.attempts + 1;
          const message = error instanceof Error ? error.message : String(error);
          logger.warn({ emailId: email.id, attempts, err: message }, "could not send an e-mail; will retry");
          await db
            .update(outboxEmails)
            .set({
              attempts,
              lastError: message.slice(0, 1000),
              status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
              nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(attempts)})`,
            })
            .where(eq(outboxEmails.id, email.id));
        }
      }
    }
  }

  async function dispatch(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await sendDue();
        } catch (error) {
          logger.error({ err: error }, "the e-mail outbox could not be processed");
        }
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    dispatch,
    kick() {
      void dispatch();
    },
    start(intervalMs = 30_000) {
      timer = setInterval(() => void dispatch(), intervalMs);
      timer.unref();
      void dispatch();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
      transporter?.close();
    },
  };
}
