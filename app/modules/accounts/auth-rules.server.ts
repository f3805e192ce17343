/**
 * The store's rules around better-auth, applied to every way in (our forms, a direct call to /api/auth, auth.api):
 *
 * - redirect targets taken from a request are paths on this site, percent-encoded so they fit a Location header;
 * - a user's name, e-mail and image obey the limits of the store's own forms, whichever endpoint writes them;
 * - an account signs in once its address is confirmed, and sign-up and sign-in answer the same whether or not an
 *   address has an account;
 * - a reset link e-mailed (or a successful reset) ends every older reset link of the account.
 */
import { and, eq, like, lte, ne } from "drizzle-orm";
import type { GenericEndpointContext } from "better-auth";
import {
  APIError,
  createAuthMiddleware,
  getSessionFromCtx,
  isAPIError,
  sendVerificationEmailFn,
} from "better-auth/api";
import type { Database } from "~db/client.server";
import { user, verification } from "~db/schema";
import type { Logger } from "~/lib/logger.server";
import { setActivity } from "./activity.server";
import { clearTemporaryPassword } from "./personal-data.server";
import { type FlashCode, flashCookie } from "./flash";
import { accountFieldsSchema, safeRedirect } from "./schemas";

/** Every request field better-auth turns into a redirect. */
const REDIRECT_FIELDS = ["callbackURL", "redirectTo", "errorCallbackURL", "newUserCallbackURL"] as const;

/** better-auth's own answer to a wrong password, reused so other refusals cannot be told apart from it. */
const WRONG_CREDENTIALS = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" };

/** How better-auth names the rows of reset links in `verification` (the value is the user's id). */
const RESET_LINK_PREFIX = "reset-password:";

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/**
 * The redirect fields of a body or query, made safe: a path on this site (percent-encoded) is kept, anything else
 * is refused with a 400 naming the field. Null when there is nothing to change.
 */
function safeRedirectFields(source: Record<string, unknown> | undefined) {
  if (!source) return null;
  let changed: Record<string, unknown> | null = null;
  for (const field of REDIRECT_FIELDS) {
    const value = source[field];
    if (value === undefined || value === null || value === "") continue;
    const safe = typeof value === "string" ? safeRedirect(value, "") : "";
    if (safe === "") {
      throw APIError.from("BAD_REQUEST", {
        code: "INVALID_REDIRECT",
        message: `${field} must be a path on this store, like /user/orders`,
      });
    }
    if (safe !== value) changed = { ...(changed ?? source), [field]: safe };
  }
  return changed;
}

/**
 * The fields of a user record that people type (name, e-mail, image), checked with the rules of the store's forms.
 * Returns the cleaned values (a trimmed name, a lower-case address) of the fields present; throws a 400 naming
 * the first problem.
 */
export function checkAccountFields(data: Record<string, unknown>): Record<string, unknown> {
  const present = Object.fromEntries(
    (["name", "email", "image"] as const)
      .filter((key) => data[key] !== undefined)
      .map((key) => [key, data[key]]),
  );
  const parsed = accountFieldsSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "name");
  throw APIError.from("BAD_REQUEST", {
    code: field === "email" ? "INVALID_EMAIL" : `INVALID_${field.toUpperCase()}`,
    message: issue.message,
  });
}

type RulesContext = { db: Database; logger: Logger; secureCookies: boolean };

/** Runs before every better-auth endpoint. */
export function beforeAuthRequest() {
  return createAuthMiddleware(async (ctx) => {
    let body = safeRedirectFields(record(ctx.body));
    const query = safeRedirectFields(record(ctx.query));
    // Sign-up checks and cleans its fields before looking the address up, so a known address and a new one get the
    // same answer (a synthetic user for the known one echoes the fields as they are here).
    if (ctx.path === "/sign-up/email") {
      const sent = body ?? record(ctx.body) ?? {};
      body = { ...sent, ...checkAccountFields(sent) };
    }
    // Deleting an account always takes its password (better-auth would take a fresh session alone).
    if (ctx.path === "/delete-user") {
      const sent = body ?? record(ctx.body) ?? {};
      if (typeof sent.password !== "string" || sent.password === "" || sent.token !== undefined) {
        throw APIError.from("BAD_REQUEST", {
          code: "PASSWORD_REQUIRED",
          message: "Enter your password to delete your account",
        });
      }
    }
    // An admin still on admin:create's temporary password uses none of the admin plugin's endpoints.
    if (ctx.path.startsWith("/admin/")) {
      const current = await getSessionFromCtx(ctx).catch(() => null);
      if ((current?.user as { mustChangePassword?: boolean } | undefined)?.mustChangePassword) {
        throw APIError.from("FORBIDDEN", {
          code: "TEMPORARY_PASSWORD",
          message: "Choose a new password first, at /admin/account",
        });
      }
    }
    // A new address asked for obeys the limits of every other address (it is stored once its link is opened).
    if (ctx.path === "/change-email") {
      const sent = body ?? record(ctx.body) ?? {};
      body = { ...sent, newEmail: checkAccountFields({ email: sent.newEmail ?? "" }).email };
    }
    if (body || query) return { context: { ...(body ? { body } : {}), ...(query ? { query } : {}) } };
  });
}

/**
 * Before a session is created: an account whose address is not confirmed does not sign in. It gets the answer of a
 * wrong password (and the confirmation link again, by e-mail), or signing up and then in would tell whether the
 * address had an account before.
 */
export async function refuseUnconfirmedSignIn(
  db: Database,
  userId: string,
  ctx: GenericEndpointContext | null,
): Promise<void> {
  const [found] = await db
    .select({ id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, userId));
  if (!found || found.emailVerified) return;
  if (ctx) await sendVerificationEmailFn(ctx, found as Parameters<typeof sendVerificationEmailFn>[1]);
  throw APIError.from("UNAUTHORIZED", WRONG_CREDENTIALS);
}

/**
 * The change of address a confirmation link carries (better-auth's signed token on /verify-email, already checked
 * by the endpoint when its user update runs): the account's id and its old address, or null for any other request.
 */
export function emailChange(
  ctx: GenericEndpointContext | null,
): { userId: string; from: string; to: string } | null {
  if (ctx?.path !== "/verify-email") return null;
  const token = record(ctx.query)?.token;
  if (typeof token !== "string") return null;
  try {
    const payload = record(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")));
    const { email, updateTo, userId } = payload ?? {};
    if (typeof email !== "string" || typeof updateTo !== "string" || typeof userId !== "string") return null;
    return { userId, from: email.toLowerCase(), to: updateTo.toLowerCase() };
  } catch {
    return null;
  }
}

/** The old address of an account whose new address was just confirmed, to tell it; null otherwise. */
export const emailChangeFrom = (ctx: GenericEndpointContext | null) => emailChange(ctx)?.from ?? null;

/**
 * A user update that would give an account an address another account has is refused with a 400, not a 500 from
 * the unique index (two accounts asking for the same new address, the second link opened last).
 */
export async function refuseTakenEmail(db: Database, email: string, ctx: GenericEndpointContext | null) {
  const self = emailChange(ctx)?.userId ?? record(ctx?.body)?.userId;
  const [taken] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (taken && taken.id !== self) {
    throw APIError.from("BAD_REQUEST", {
      code: "EMAIL_TAKEN",
      message: "This e-mail address cannot be used for this account",
    });
  }
}

/** Runs after every better-auth endpoint. */
export function afterAuthRequest({ db, logger, secureCookies }: RulesContext) {
  return createAuthMiddleware(async (ctx) => {
    // A password chosen by the account itself: admin:create's temporary one is gone.
    const changedBy = ctx.context.session?.user.id;
    if (ctx.path === "/change-password" && changedBy && !isAPIError(ctx.context.returned)) {
      await clearTemporaryPassword(db, changedBy);
    }
    // The confirmation link signs the customer in (unless this browser is signed in to the account already):
    // Active from now, with a notice on the next page.
    const started = ctx.context.newSession;
    const signedInBefore = ctx.context.session?.session.id;
    if (ctx.path === "/verify-email" && started && started.session.id !== signedInBefore) {
      const activity = await setActivity(db, started.user.id, "Active", logger);
      const codes: FlashCode[] = ["email-verified"];
      if (!activity.ok)
        codes.push(
          activity.problem === "unknown-status" ? "activity-unknown-status" : "activity-write-failed",
        );
      ctx.setHeader("set-cookie", flashCookie(codes, secureCookies));
    }
  });
}

/**
 * Ends every reset link of the account older than this one, once this one is e-mailed; not as soon as it is stored,
 * since a link held back (over the cap of account e-mails) must not end the one the owner already has.
 */
export async function dropOlderResetLinks(db: Database, token: string) {
  const [row] = await db
    .select({ id: verification.id, value: verification.value, createdAt: verification.createdAt })
    .from(verification)
    .where(eq(verification.identifier, `${RESET_LINK_PREFIX}${token}`));
  if (!row) return;
  await db
    .delete(verification)
    .where(
      and(
        eq(verification.value, row.value),
        like(verification.identifier, `${RESET_LINK_PREFIX}%`),
        ne(verification.id, row.id),
        lte(verification.createdAt, row.createdAt),
      ),
    );
}

/** A reset link that was never e-mailed: nobody has it, so it is not kept. */
export async function dropResetLink(db: Database, token: string) {
  await db.delete(verification).where(eq(verification.identifier, `${RESET_LINK_PREFIX}${token}`));
}

/**
 * After a successful reset: no reset link of the account works any more, and the address is confirmed (only its
 * owner could open the link).
 */
export async function afterPasswordReset(db: Database, userId: string) {
  await db
    .delete(verification)
    .where(and(eq(verification.value, userId), like(verification.identifier, `${RESET_LINK_PREFIX}%`)));
  await db
    .update(user)
    .set({ emailVerified: true })
    .where(and(eq(user.id, userId), eq(user.emailVerified, false)));
}
