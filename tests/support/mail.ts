import nodemailer, { type Transporter } from "nodemailer";

/** A message as the mailer handed it to the transport. */
export type RecordedMail = { to: string; subject: string; text: string; html: string };

/** A real nodemailer transport that keeps what it is given (each send takes a few milliseconds, like a server). */
export function recordingTransport(sent: RecordedMail[]): Transporter {
  return nodemailer.createTransport({
    name: "recording",
    version: "1",
    send(mail, callback) {
      const { to, subject, text, html } = mail.data as RecordedMail;
      setTimeout(() => {
        sent.push({ to, subject, text, html });
        callback(null, { envelope: mail.message.getEnvelope(), messageId: mail.message.messageId() });
      }, 3);
    },
  });
}
