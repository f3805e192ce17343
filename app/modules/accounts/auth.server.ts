import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { admin } from "better-auth/plugins";
import type { Database } from "~db/client.server";
import { account, rateLimit, session, user, verification } from "~db/schema";
import { CLIENT_IP_HEADER } from "~/lib/client-address";
import type { Env } from "~/lib/env.server";
import { createAfterAnswer } from "~/lib/after-answer.server";
import { consumeLimits, LIMITS } from "~/lib/rate-limit.server";
import type { Logger } from "~/lib/logger.server";
import { storeOrigin } from "~/lib/store-origin.server";
import { enqueueEmail, type Mailer, type OutgoingEmail } from "~/modules/email/outbox.server";
import {
  afterAuthRequest,
  afterPasswordReset,
  beforeAuthRequest,
  checkAccountFields,
  emailChangeFrom,
  refuseTakenEmail,
  dropOlderResetLinks,
  dropResetLink,
  refuseUnconfirmedSignIn,
} from "./auth-rules.server";
import {
  changeEmailEmail,
  emailChangedEmail,
  existingAccountEmail,
  passwordResetEmail,
  staffInviteEmail,
  verificationEmail,
} from "./emails/account-emails";
import { type JoinedBy, joinGuestOrders } from "./guest-orders.server";
import { clearTemporaryPassword, detachPersonalData } from "./personal-data.server";
import { MAX_PASSWORD, MIN_PASSWORD } from "./schemas";
import { isStaffRole, ROLE_LABELS } from "./staff-roles";

/** Session cookies are named `storefront.session_token` (`__Secure-…` on https). */
export const COOKIE_PREFIX = "storefront";
export { CLIENT_IP_HEADER };
export const AUTH_BASE_PATH = "/api/auth";

/** What better-auth answers a reset request, whether or not the address has an account. */
const RESET_ANSWER = "If this email exists in our system, check your email for the reset link";
const resetRequest = z.object({ email: z.email(), redirectTo: z.string().optional() });

export type AuthOptions = {
  db: Database;
  env: Pick<Env, "AUTH_SECRET" | "PUBLIC_URL" | "PUBLIC_URL_SET" | "NODE_ENV">;
  logger: Logger;
  mailer: Pick<Mailer, "kick">;
  /** The store's name in e-mails: a function is asked at each e-mail, so a renamed store is in the next one. */
  storeName?: string | (() => Promise<string | undefined>);
  /** better-auth's own default: on under NODE_ENV=production only. */
  rateLimit?: boolean;
};

/**
 * The one better-auth instance of a server process: e-mail and password accounts, sessions in the database
 * (HttpOnly cookies), the admin plugin's roles, password reset and e-mail verification through the outbox,
 * and rate limits kept in the database so every process counts the same attempts.
 */
export function createAuth({
  db,
  env,
  logger,
  mailer,
  storeName: nameOption,
  rateLimit: limit,
}: AuthOptions) {
  const DEFAULT_NAME = "KeyHaven Tech Store";
  const currentName = async () =>
    (typeof nameOption === "function" ? await nameOption() : nameOption) ?? DEFAULT_NAME;
  const storeName = typeof nameOption === "string" ? nameOption : DEFAULT_NAME;
  const send = async (email: OutgoingEmail) => {
    await enqueueEmail(db, email);
    mailer.kick();
  };
  /**
   * An account e-mail goes to whatever address a request names, so each address gets a few an hour at most, however
   * many clients ask. One over is dropped in silence: the answer is the one a sent e-mail gets, or it would tell the
   * requester about the cap, and through it whether the address has an account. Resolves to whether it was sent.
   */
  const sendAccountEmail = async (email: OutgoingEmail): Promise<boolean> => {
    const allowed = await consumeLimits(db, [
      { limit: LIMITS.accountEmailsPerAddress, key: email.to.trim().toLowerCase() },
    ]);
    if (!allowed.ok) {
      logger.warn({ kind: email.kind }, "account e-mail not sent: its address has had its share this hour");
      return false;
    }
    await send(email);
    return true;
  };
  const afterAnswer = createAfterAnswer(logger);
  /**
   * A reset asked for over HTTP is answered at once, and better-auth's own endpoint does the work after the answer
   * (called again without the request, which this hook leaves alone). Only an address with an account gets a token
   * stored, older links ended and an e-mail rendered and queued; done before answering, that made its answer
   * measurably slower than a missing address's, which told them apart. A body the endpoint would refuse (no e-mail
   * address) falls through to it, for its 400. Runs after beforeAuthRequest, which checks redirectTo.
   */
  const answerResetFirst = {
    id: "answer-reset-first",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/request-password-reset" && ctx.request !== undefined,
          handler: createAuthMiddleware(async (ctx) => {
            const asked = resetRequest.safeParse(ctx.body);
            if (!asked.success) return;
            afterAnswer.run("the password reset", () => auth.api.requestPasswordReset({ body: asked.data }));
            return ctx.json({ status: true, message: RESET_ANSWER });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
  // Joining is the store's bookkeeping, not part of proving the address: if it fails, the address stays confirmed and
  // the orders page offers to add the orders (claimableOrderCount), so the failure is logged rather than answered.
  const joinOnProof = async (userId: string, by: JoinedBy) => {
    try {
      const result = await joinGuestOrders(db, userId, by);
      if (result.ok && result.joined.length > 0)
        logger.info({ userId, orders: result.joined, by }, "guest orders joined the account");
    } catch (error) {
      logger.error({ err: error, userId, by }, "guest orders could not join the account");
    }
  };
  const auth = betterAuth({
    appName: storeName,
    // Links in e-mails come from here: PUBLIC_URL (or the local address), never from a request's Host.
    baseURL: env.PUBLIC_URL,
    basePath: AUTH_BASE_PATH,
    secret: env.AUTH_SECRET,
    // Requests are checked against the store's own origin (without PUBLIC_URL, the address they were sent to).
    trustedOrigins: (request) => [request ? storeOrigin(env, new URL(request.url).origin) : env.PUBLIC_URL],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user, session, account, verification, rateLimit },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD,
      maxPasswordLength: MAX_PASSWORD,
      // A new account signs in through the link e-mailed to its address (no session at sign-up). Sign-up answers
      // the same for an address that already has an account (its owner gets an e-mail instead), so nobody learns
      // which addresses do. The one rule that keeps unconfirmed accounts out is the session hook below.
      autoSignIn: false,
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        role: "user",
        banned: false,
        banReason: null,
        banExpires: null,
        ...additionalFields,
        id,
      }),
      onExistingUserSignUp: async ({ user: to }) => {
        await sendAccountEmail(
          existingAccountEmail({
            to: to.email,
            url: `${env.PUBLIC_URL}/user/login`,
            storeName: await currentName(),
          }),
        );
      },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      // Done after the answer (see answerResetFirst below).
      sendResetPassword: async ({ user: to, url, token }) => {
        // Staff invited by the owner who have not chosen a password yet get the invitation instead (ADR 0037).
        const { role, mustChangePassword } = to as {
          role?: string | null;
          mustChangePassword?: boolean | null;
        };
        const sent = await sendAccountEmail(
          isStaffRole(role) && mustChangePassword === true
            ? staffInviteEmail({ to: to.email, url, storeName: await currentName(), role: ROLE_LABELS[role] })
            : passwordResetEmail({
                to: to.email,
                name: to.emailVerified ? to.name : undefined,
                url,
                storeName: await currentName(),
              }),
        );
        await (sent ? dropOlderResetLinks : dropResetLink)(db, token);
      },
      onPasswordReset: async ({ user: reset }) => {
        await afterPasswordReset(db, reset.id);
        await clearTemporaryPassword(db, reset.id);
        // The reset link proved the address too: its guest orders join as they would on confirming it.
        await joinOnProof(reset.id, "password-reset");
      },
    },
    emailVerification: {
      // A confirmed address (a new account's, or a new address of an account) brings the guest orders placed with it.
      afterEmailVerification: async (confirmed) => {
        await joinOnProof(confirmed.id, "email-confirmed");
      },
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user: to, url }) => {
        // A link for a new address of an existing account (change-email) says so; otherwise it confirms a sign-up.
        const [stored] = await db.select({ email: user.email }).from(user).where(eq(user.id, to.id));
        const changing = stored !== undefined && stored.email.toLowerCase() !== to.email.toLowerCase();
        await sendAccountEmail(
          (changing ? changeEmailEmail : verificationEmail)({
            to: to.email,
            url,
            storeName: await currentName(),
          }),
        );
      },
    },
    // Every write of a user row, through any endpoint: the same limits as the store's forms.
    databaseHooks: {
      user: {
        create: { before: async (data) => ({ data: { ...data, ...checkAccountFields(data) } }) },
        update: {
          before: async (data, ctx) => {
            const checked = checkAccountFields(data);
            if (typeof checked.email === "string") await refuseTakenEmail(db, checked.email, ctx);
            return { data: { ...data, ...checked } };
          },
          // A confirmed change of address: the old address is told (see emailChangeFrom). Not under the cap of
          // account e-mails: it goes only to an address the account had confirmed, once per change a link to the
          // new address confirmed, and whoever took the account must not be able to silence it by using up the
          // old address's share first.
          after: async (changed, ctx) => {
            const from = emailChangeFrom(ctx);
            if (!from || from === changed.email.toLowerCase()) return;
            await send(
              emailChangedEmail({
                to: from,
                name: changed.name,
                newEmail: changed.email,
                url: `${env.PUBLIC_URL}/contact`,
                storeName: await currentName(),
              }),
            );
          },
        },
        // However an account is deleted, its orders stay without its personal data.
        delete: {
          before: async (gone) => {
            await detachPersonalData(db, gone);
          },
        },
      },
      session: {
        create: { before: async (row, ctx) => refuseUnconfirmedSignIn(db, row.userId, ctx) },
      },
    },
    user: {
      additionalFields: {
        // Set by admin:create with a temporary password; cleared when the account chooses its own.
        mustChangePassword: { type: "boolean", required: false, defaultValue: false, input: false },
      },
      // A new address is confirmed by the link better-auth e-mails to it (sendVerificationEmail above).
      changeEmail: { enabled: true },
      deleteUser: {
        enabled: true,
        // Customers delete their own account; an admin's account is made a customer's by another admin first.
        beforeDelete: async (gone) => {
          if (isStaffRole((gone as { role?: string | null }).role))
            throw APIError.from("FORBIDDEN", {
              code: "ADMIN_CANNOT_DELETE",
              message: "An admin account cannot be deleted",
            });
        },
      },
    },
    hooks: {
      before: beforeAuthRequest(),
      after: afterAuthRequest({ db, logger, secureCookies: env.PUBLIC_URL.startsWith("https://") }),
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // Every request reads the session from the database, so signing out ends it everywhere at once.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      ...(limit === undefined ? {} : { enabled: limit }),
      storage: "database",
      window: 60,
      max: 100,
    },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: env.PUBLIC_URL.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [admin({ defaultRole: "user", adminRoles: ["admin"] }), answerResetFirst],
    // A refused request (a bad name, a redirect to elsewhere) is answered with its 4xx and is no error of ours.
    onAPIError: {
      onError: (error) => {
        if (isAPIError(error) && error.statusCode < 500)
          logger.debug({ err: error }, "auth: request refused");
        else logger.error({ err: error }, "auth: request failed");
      },
    },
    telemetry: { enabled: false },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        const line = args.length > 0 ? { args: args.map(String) } : {};
        if (level === "error") logger.error(line, `auth: ${message}`);
        else if (level === "warn") logger.warn(line, `auth: ${message}`);
        else logger.debug(line, `auth: ${message}`);
      },
    },
  });
  // The work its answers left to do (the reset e-mail), for the shutdown and for tests to wait for.
  return Object.assign(auth, { afterAnswer });
}

export type Auth = ReturnType<typeof createAuth>;

/** The headers of a browser request that better-auth needs to see (cookies, origin checks, rate limits). */
const FORWARDED = [
  "cookie",
  "origin",
  "referer",
  "user-agent",
  CLIENT_IP_HEADER,
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
];

export type AuthReply = {
  status: number;
  /** better-auth's JSON answer (its error code and message on failure). */
  body: Record<string, unknown> & { code?: string; message?: string };
  cookies: string[];
};

/**
 * Sends a form's request through better-auth's own HTTP handler, as if the browser had posted it to /api/auth:
 * the same origin checks and rate limits apply whichever way a request comes in.
 */
export async function callAuth(
  context: { auth: Auth; env: Pick<Env, "PUBLIC_URL" | "PUBLIC_URL_SET"> },
  request: Request,
  path: string,
  body: Record<string, unknown>,
): Promise<AuthReply> {
  const headers = new Headers({ "content-type": "application/json" });
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const response = await context.auth.handler(
    new Request(`${storeOrigin(context.env, new URL(request.url).origin)}${AUTH_BASE_PATH}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return {
    status: response.status,
    body: typeof parsed === "object" && parsed !== null ? (parsed as AuthReply["body"]) : {},
    cookies: response.headers.getSetCookie(),
  };
}
