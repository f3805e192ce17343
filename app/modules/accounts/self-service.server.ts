/**
 * Account self-service: a signed-in customer or admin changes their name, e-mail address and password, sees and
 * ends their sessions, and (customers) deletes their account. Every change goes through better-auth's own endpoints
 * (`callAuth`), so the rules of auth-rules.server.ts and the origin checks and rate limits apply as for a direct
 * call to /api/auth; this module adds what the store needs around them.
 */
import { and, desc, eq, gt } from "drizzle-orm";
import type { Database } from "~db/client.server";
import { session } from "~db/schema";
import { redirect } from "react-router";
import type { ZodError } from "zod";
import { type ActionReply, refusal, success } from "~/lib/action-reply";
import { readFormBody } from "~/lib/form-data.server";
import { fieldErrors } from "~/lib/forms";
import type { ServerContext } from "~/context";
import { type AuthReply, callAuth } from "./auth.server";
import { flashCookie } from "./flash";
import { PRIVATE_HEADERS } from "./session.server";
import {
  changeEmailSchema,
  changeNameSchema,
  changePasswordSchema,
  deleteAccountSchema,
  endSessionSchema,
} from "./schemas";

type Ctx = Pick<ServerContext, "auth" | "env" | "db" | "logger">;

export type DeviceSession = {
  id: string;
  device: string;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
};

/** "Chrome on Linux" from a User-Agent header; plain words, never the raw header. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\/|Opera/.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : "Another browser";
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad|iPod/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /CrOS/.test(userAgent)
            ? "ChromeOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : null;
  return system ? `${browser} on ${system}` : browser;
}

/** The account's live sessions, newest activity first; the one of this request is marked. */
export async function listDeviceSessions(
  db: Database,
  userId: string,
  currentSessionId: string,
): Promise<DeviceSession[]> {
  const rows = await db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    })
    .from(session)
    .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
    .orderBy(desc(session.updatedAt), desc(session.createdAt))
    .limit(50);
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    createdAt: row.createdAt.toISOString(),
    lastActiveAt: row.updatedAt.toISOString(),
    current: row.id === currentSessionId,
  }));
}

export type SelfServiceField = "form" | "name" | "email" | "currentPassword" | "newPassword" | "password";
export type SelfServiceResult =
  | { ok: true; headers?: Headers }
  | { ok: false; status: number; errors: Partial<Record<SelfServiceField, string>> };

export const SELF_SERVICE_MESSAGES = {
  tooMany: "Too many attempts. Please wait a minute and try again.",
  crossSite: "This form was sent from another site, so it was refused. Please use the form on this page.",
  failed: "Something went wrong on our side. Please try again in a moment.",
  wrongPassword: "That is not your current password",
  sameEmail: "That is already your e-mail address",
  sessionGone: "That session has ended already.",
  adminCannotDelete:
    "An admin account cannot be deleted here. Another admin can make it a customer account first.",
} as const;

function refused(reply: AuthReply, passwordField: SelfServiceField = "currentPassword"): SelfServiceResult {
  const code = reply.body.code ?? "";
  if (reply.status === 429)
    return { ok: false, status: 429, errors: { form: SELF_SERVICE_MESSAGES.tooMany } };
  if (reply.status === 403 && code !== "ADMIN_CANNOT_DELETE")
    return { ok: false, status: 403, errors: { form: SELF_SERVICE_MESSAGES.crossSite } };
  if (code === "ADMIN_CANNOT_DELETE")
    return { ok: false, status: 403, errors: { form: SELF_SERVICE_MESSAGES.adminCannotDelete } };
  if (code === "INVALID_PASSWORD")
    return { ok: false, status: 400, errors: { [passwordField]: SELF_SERVICE_MESSAGES.wrongPassword } };
  if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG")
    return {
      ok: false,
      status: 400,
      errors: { newPassword: reply.body.message ?? "Choose another password" },
    };
  if (code === "INVALID_NAME") return { ok: false, status: 400, errors: { name: reply.body.message } };
  if (code === "INVALID_EMAIL" || code === "EMAIL_TAKEN")
    return {
      ok: false,
      status: 400,
      errors: { email: reply.body.message ?? "Enter a valid e-mail address" },
    };
  if (reply.body.message === "Email is the same")
    return { ok: false, status: 400, errors: { email: SELF_SERVICE_MESSAGES.sameEmail } };
  if (reply.status === 401) return { ok: false, status: 401, errors: { form: "Please sign in again." } };
  return {
    ok: false,
    status: reply.status >= 500 ? 500 : 400,
    errors: { form: SELF_SERVICE_MESSAGES.failed },
  };
}

const withCookies = (reply: AuthReply): Headers => {
  const headers = new Headers();
  for (const cookie of reply.cookies) headers.append("Set-Cookie", cookie);
  return headers;
};

/** A new name, with the limits of the sign-up form (checked again by the user update hook). */
export async function changeName(context: Ctx, request: Request, name: string): Promise<SelfServiceResult> {
  const reply = await callAuth(context, request, "/update-user", { name });
  return reply.status === 200 ? { ok: true } : refused(reply);
}

/**
 * Asks to move the account to a new address: better-auth e-mails a link to the new address, and only that link
 * changes it (the old address is told then). An address another account has gets the same answer and no e-mail,
 * so the form tells nobody which addresses have accounts.
 */
export async function requestEmailChange(
  context: Ctx,
  request: Request,
  newEmail: string,
  callbackURL: string,
): Promise<SelfServiceResult> {
  const reply = await callAuth(context, request, "/change-email", { newEmail, callbackURL });
  return reply.status === 200 ? { ok: true } : refused(reply);
}

/**
 * A new password, the current one required; every other session of the account ends, and this browser gets a new
 * session (the cookies in the result's headers).
 */
export async function changePassword(
  context: Ctx,
  request: Request,
  input: { currentPassword: string; newPassword: string },
): Promise<SelfServiceResult> {
  const reply = await callAuth(context, request, "/change-password", { ...input, revokeOtherSessions: true });
  return reply.status === 200 ? { ok: true, headers: withCookies(reply) } : refused(reply);
}

/** Ends one of the account's own sessions by its id (another account's id is "gone", the same as an ended one). */
export async function endSession(
  context: Ctx,
  request: Request,
  userId: string,
  sessionId: string,
): Promise<SelfServiceResult> {
  const [found] = await context.db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, userId)));
  if (!found) return { ok: false, status: 404, errors: { form: SELF_SERVICE_MESSAGES.sessionGone } };
  const reply = await callAuth(context, request, "/revoke-session", { token: found.token });
  return reply.status === 200 ? { ok: true } : refused(reply);
}

/**
 * Deletes the signed-in customer's account, the password required. Orders stay, detached from personal data
 * (`detachPersonalData`, run by the user delete hook); every session ends; the cookies are cleared.
 */
export async function deleteAccount(
  context: Ctx,
  request: Request,
  password: string,
): Promise<SelfServiceResult> {
  const reply = await callAuth(context, request, "/delete-user", { password });
  return reply.status === 200 ? { ok: true, headers: withCookies(reply) } : refused(reply, "password");
}

export type SelfServiceIntent = "name" | "email" | "password" | "end-session" | "delete";
/** What the account page's answer holds beyond any action's: which form, what was done, where a link went. */
type SelfServiceFields = {
  intent: SelfServiceIntent | null;
  errors: Partial<Record<string, string>>;
  /** What was done, for the message above the form. */
  done?: SelfServiceIntent;
  /** The new address a link was sent to. */
  pendingEmail?: string;
};
export type SelfServiceReply = ActionReply<SelfServiceFields>;

type ActionOptions = {
  /** Where the new address's confirmation link comes back to. */
  callbackURL: string;
  /** Customers may delete their account; admins may not. */
  allowDelete: boolean;
  /** Where to go once the account is deleted, or a temporary password is replaced. */
  afterDelete?: string;
  afterPassword?: string;
};

const INTENTS = ["name", "email", "password", "end-session", "delete"] as const;

/** The account page's answer with its status: private, with the cookies better-auth set (a new session's). */
function respond(status: number, body: Omit<SelfServiceReply, "ok">, cookies?: Headers) {
  const headers = new Headers(PRIVATE_HEADERS);
  for (const cookie of cookies?.getSetCookie() ?? []) headers.append("Set-Cookie", cookie);
  return status < 400
    ? success<SelfServiceFields>(body, headers)
    : refusal<SelfServiceFields>(status, body, headers);
}

/**
 * The account page's action: every form on it posts an `intent`, parsed with its own zod schema, then goes to
 * better-auth. Returns the reply for the page (with its status), or a redirect.
 */
export async function selfServiceAction(
  context: Ctx,
  request: Request,
  viewer: { id: string; mustChangePassword: boolean },
  options: ActionOptions,
): Promise<Response | ReturnType<typeof respond>> {
  const body = await readFormBody(request);
  if (!body.ok)
    return respond(400, { intent: null, errors: { form: "The form could not be read: reload the page" } });
  const intent = INTENTS.find((known) => known === body.values.intent) ?? null;
  const bad = (error: ZodError) => respond(400, { intent, errors: fieldErrors(error) });
  const answer = (
    result: SelfServiceResult,
    done: SelfServiceIntent,
    extra: Partial<SelfServiceFields> = {},
  ) =>
    result.ok
      ? respond(200, { intent, errors: {}, done, ...extra }, result.headers)
      : respond(result.status, { intent, errors: result.errors });
  // An admin on a temporary password may only choose a new one.
  if (viewer.mustChangePassword && intent !== "password")
    return respond(403, { intent, errors: { form: "Choose a new password first." } });

  switch (intent) {
    case "name": {
      const parsed = changeNameSchema.safeParse(body.values);
      if (!parsed.success) return bad(parsed.error);
      return answer(await changeName(context, request, parsed.data.name), "name");
    }
    case "email": {
      const parsed = changeEmailSchema.safeParse(body.values);
      if (!parsed.success) return bad(parsed.error);
      const result = await requestEmailChange(context, request, parsed.data.email, options.callbackURL);
      return answer(result, "email", { pendingEmail: parsed.data.email });
    }
    case "password": {
      const parsed = changePasswordSchema.safeParse(body.values);
      if (!parsed.success) return bad(parsed.error);
      const result = await changePassword(context, request, parsed.data);
      if (result.ok && viewer.mustChangePassword && options.afterPassword)
        return redirect(options.afterPassword, { headers: result.headers });
      return answer(result, "password");
    }
    case "end-session": {
      const parsed = endSessionSchema.safeParse(body.values);
      if (!parsed.success) return bad(parsed.error);
      return answer(await endSession(context, request, viewer.id, parsed.data.session), "end-session");
    }
    case "delete": {
      // Not a form this page has (an admin's account is made a customer's by another admin first).
      if (!options.allowDelete)
        return respond(400, { intent, errors: { form: SELF_SERVICE_MESSAGES.adminCannotDelete } });
      const parsed = deleteAccountSchema.safeParse(body.values);
      if (!parsed.success) return bad(parsed.error);
      const result = await deleteAccount(context, request, parsed.data.password);
      if (!result.ok) return answer(result, "delete");
      const headers = result.headers ?? new Headers();
      headers.append(
        "Set-Cookie",
        flashCookie(["account-deleted"], context.env.PUBLIC_URL.startsWith("https://")),
      );
      headers.append("Clear-Site-Data", '"storage"');
      return redirect(options.afterDelete ?? "/", { headers });
    }
    default:
      return respond(400, { intent: null, errors: { form: "Choose what to do with the form's buttons." } });
  }
}
