import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { outboxEmails } from "~db/schema";
import type { Env } from "~/lib/env.server";
import { type Auth, createAuth } from "~/modules/accounts/auth.server";
import { recordingLogger } from "./logger";

/** A request to better-auth's HTTP handler as the store's own pages send it (same origin). */
export async function authRequest(
  auth: Auth,
  origin: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await auth.handler(
    new Request(`${origin}/api/auth${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        origin,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = {};
  }
  return { status: response.status, body: json, response };
}

/** The cookies a response sets, as a Cookie header. */
export const cookieHeader = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");

/** The newest e-mail of this kind the store wrote to the outbox for an address. */
export async function lastEmail(db: Database, to: string, kind: string) {
  const [mail] = await db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.to, to), eq(outboxEmails.kind, kind)))
    .orderBy(desc(outboxEmails.id))
    .limit(1);
  return mail;
}

/**
 * Signs up the way a customer does: the sign-up, then the confirmation link from the e-mail, which signs in.
 * Returns the user's id and the session cookie the link set.
 */
export async function signUpConfirmed(
  auth: Auth,
  db: Database,
  origin: string,
  account: { name: string; email: string; password: string },
): Promise<{ id: string; cookie: string }> {
  const signedUp = await authRequest(auth, origin, "POST", "/sign-up/email", account);
  if (signedUp.status !== 200) throw new Error(`sign-up failed: ${signedUp.status}`);
  const mail = await lastEmail(db, account.email.toLowerCase(), "email-verification");
  const link = mail?.text.match(/https?:\/\/\S+\/api\/auth(\/verify-email\?\S+)/)?.[1];
  if (!link) throw new Error(`no confirmation link was e-mailed to ${account.email}`);
  const confirmed = await authRequest(auth, origin, "GET", link);
  if (confirmed.status !== 302) throw new Error(`the confirmation link answered ${confirmed.status}`);
  return { id: (signedUp.body.user as { id: string }).id, cookie: cookieHeader(confirmed.response) };
}

/** Signs up and confirms each account (as signUpConfirmed), setting its id: customers for a test's orders. */
export async function signUpCustomers(
  db: Database,
  env: Env,
  accounts: Array<{ id: string; email: string }>,
) {
  const auth = createAuth({
    db,
    env,
    logger: recordingLogger().logger,
    mailer: { kick() {} },
    rateLimit: false,
  });
  for (const account of accounts) {
    const { id } = await signUpConfirmed(auth, db, env.PUBLIC_URL, {
      name: "Test Customer",
      email: account.email,
      password: "correct horse battery",
    });
    account.id = id;
  }
}
