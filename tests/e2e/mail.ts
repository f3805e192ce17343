import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import PostalMime from "postal-mime";

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Its headers by name, in lower case (the last of a name given twice). */
  headers: Record<string, string>;
  /** Attached files by name, with their bytes. */
  attachments: Array<{ filename: string; mimeType: string; content: Uint8Array }>;
};

/** The messages the store sent to the test SMTP server (see scripts/e2e-server.mjs). */
export async function sentMail(baseURL: string): Promise<Mail[]> {
  const dir = `test-results/mail-${new URL(baseURL).port}`;
  const files = readdirSync(dir).sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await PostalMime.parse(readFileSync(path.join(dir, file)));
      return {
        to: parsed.to?.map((to) => to.address).join(", ") ?? "",
        subject: parsed.subject ?? "",
        text: parsed.text ?? "",
        html: parsed.html ?? "",
        replyTo: parsed.replyTo?.map((to) => to.address).join(", "),
        headers: Object.fromEntries(parsed.headers.map((header) => [header.key, header.value])),
        attachments: parsed.attachments.map((file) => ({
          filename: file.filename ?? "",
          mimeType: file.mimeType,
          content: new Uint8Array(file.content as ArrayBuffer),
        })),
      };
    }),
  );
}

export async function waitForMail(
  baseURL: string,
  match: (mail: Mail) => boolean,
  timeout = 20_000,
): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await sentMail(baseURL)).find(match);
        return found !== undefined;
      },
      { timeout },
    )
    .toBe(true);
  return found!;
}

/** The link of the first confirmation e-mail sent to an address (after signing up): it confirms and signs in. */
export async function confirmationLink(baseURL: string, to: string): Promise<string> {
  const mail = await waitForMail(baseURL, (sent) => sent.to === to && /Confirm/.test(sent.subject));
  return mail.text.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
}
