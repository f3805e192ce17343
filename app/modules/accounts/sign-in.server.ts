import type { ServerContext } from "~/context";
import { lastLoginOf, setActivity } from "./activity.server";
import { type AuthReply, callAuth } from "./auth.server";
import { type FlashCode, flashCookie } from "./flash";
import { MESSAGES } from "./messages";
import type { SignInInput, SignUpInput } from "./schemas";

export { MESSAGES };

export type AuthFailure = {
  status: number;
  /** The message for the form as a whole, or for one field. */
  errors: Partial<Record<"form" | "email" | "password" | "name", string>>;
};

function failure(reply: AuthReply): AuthFailure {
  const code = reply.body.code ?? "";
  if (reply.status === 429) return { status: 429, errors: { form: MESSAGES.tooMany } };
  if (code === "BANNED_USER") return { status: 403, errors: { form: MESSAGES.banned } };
  if (reply.status === 403) return { status: 403, errors: { form: MESSAGES.crossSite } };
  if (code === "INVALID_NAME")
    return { status: 400, errors: { name: reply.body.message ?? MESSAGES.failed } };
  if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG")
    return { status: 400, errors: { password: reply.body.message ?? "Choose another password" } };
  if (code === "INVALID_EMAIL") return { status: 400, errors: { email: "Enter a valid e-mail address" } };
  // Unknown e-mail and wrong password get the same answer: nothing tells whether an address has an account.
  if (reply.status === 401 || code === "INVALID_EMAIL_OR_PASSWORD")
    return { status: 401, errors: { form: MESSAGES.wrongCredentials } };
  return { status: reply.status >= 500 ? 500 : 400, errors: { form: MESSAGES.failed } };
}

export type SignedIn = { ok: true; userId: string; headers: Headers } | ({ ok: false } & AuthFailure);

type Ctx = Pick<ServerContext, "auth" | "env" | "db" | "logger">;

/** After a session is created: mark the user Active, and carry the session cookies and notices to the next page. */
async function started(context: Ctx, reply: AuthReply, notice: FlashCode): Promise<SignedIn> {
  const user = reply.body.user as { id?: unknown } | undefined;
  if (typeof user?.id !== "string") {
    context.logger.error({ status: reply.status }, "better-auth answered a sign-in without a user");
    return { ok: false, status: 500, errors: { form: MESSAGES.failed } };
  }
  // An account's first sign-in (one an admin made, with a temporary password) is no "welcome back".
  const first = notice === "signed-in" && (await lastLoginOf(context.db, user.id)) === null;
  const activity = await setActivity(context.db, user.id, "Active", context.logger);
  const codes: FlashCode[] = [first ? "first-sign-in" : notice];
  if (!activity.ok)
    codes.push(activity.problem === "unknown-status" ? "activity-unknown-status" : "activity-write-failed");
  const headers = new Headers();
  for (const cookie of reply.cookies) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", flashCookie(codes, context.env.PUBLIC_URL.startsWith("https://")));
  return { ok: true, userId: user.id, headers };
}

/** Signs in with e-mail and password: a new session (and cookie) each time. */
export async function signIn(context: Ctx, request: Request, input: SignInInput): Promise<SignedIn> {
  const reply = await callAuth(context, request, "/sign-in/email", {
    email: input.email,
    password: input.password,
    rememberMe: true,
    // Where the confirmation link comes back to, when the address is not confirmed yet and it is sent again.
    callbackURL: input.redirectTo,
  });
  if (reply.status !== 200) return { ok: false, ...failure(reply) };
  return started(context, reply, "signed-in");
}

/**
 * Creates an account (role "user": nothing the browser sends can change that) and e-mails the link that confirms
 * the address and signs the customer in, coming back to `redirectTo`. For an address that already has an account
 * its owner is e-mailed instead; the answer is the same either way, so it tells nobody which addresses have one.
 */
export async function signUp(
  context: Ctx,
  request: Request,
  input: SignUpInput,
): Promise<{ ok: true } | ({ ok: false } & AuthFailure)> {
  const reply = await callAuth(context, request, "/sign-up/email", {
    name: input.name,
    email: input.email,
    password: input.password,
    callbackURL: input.redirectTo,
  });
  if (reply.status === 200) return { ok: true };
  return { ok: false, ...failure(reply) };
}

/** Sends a reset link when the address has an account; the answer is the same either way. */
export async function requestPasswordReset(
  context: Ctx,
  request: Request,
  email: string,
): Promise<{ ok: true } | ({ ok: false } & AuthFailure)> {
  const reply = await callAuth(context, request, "/request-password-reset", {
    email,
    redirectTo: "/user/reset-password",
  });
  if (reply.status === 200) return { ok: true };
  return { ok: false, ...failure(reply) };
}

/** Sets a new password with a reset token (once; the token is then gone) and ends every session of the user. */
export async function resetPassword(
  context: Ctx,
  request: Request,
  token: string,
  password: string,
): Promise<{ ok: true } | ({ ok: false } & AuthFailure)> {
  const reply = await callAuth(context, request, "/reset-password", { token, newPassword: password });
  if (reply.status === 200) return { ok: true };
  if (reply.body.code === "INVALID_TOKEN")
    return { ok: false, status: 400, errors: { form: MESSAGES.resetInvalid } };
  return { ok: false, ...failure(reply) };
}

/** Signs out: marks the user InActive, deletes the session in the database and clears the cookie. */
export async function signOut(context: Ctx, request: Request, userId: string | null): Promise<Headers> {
  const codes: FlashCode[] = ["signed-out"];
  if (userId) {
    const activity = await setActivity(context.db, userId, "InActive", context.logger);
    if (!activity.ok)
      codes.push(activity.problem === "unknown-status" ? "activity-unknown-status" : "activity-write-failed");
  }
  const headers = new Headers();
  // Straight to better-auth's sign-out (our own check of the form's origin has passed): it deletes the session row,
  // so the cookie is worthless even if a copy of it survives, and answers with cookies that clear it.
  try {
    const result = await context.auth.api.signOut({ headers: request.headers, returnHeaders: true });
    for (const cookie of result.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch (error) {
    context.logger.warn({ err: error }, "sign-out: no session to end");
  }
  headers.append("Set-Cookie", flashCookie(codes, context.env.PUBLIC_URL.startsWith("https://")));
  return headers;
}
