import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEmails, session, user, verification } from "~db/schema";
import { authRequest, cookieHeader, lastEmail, signUpConfirmed } from "../../../tests/support/accounts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { testEnv } from "../../../tests/support/orders";
import { type Auth, createAuth } from "./auth.server";
import { createAdmin } from "../admin/create-admin.server";
import { safeRedirect } from "./schemas";

const ORIGIN = "http://shop.test";
const env = testEnv({ PUBLIC_URL: ORIGIN });
const PASSWORD = "correct horse battery";

describe("safeRedirect", () => {
  it("keeps paths on this site, percent-encoded so they fit a Location header", () => {
    expect(safeRedirect("/user/orders?x=1#top")).toBe("/user/orders?x=1#top");
    expect(safeRedirect("/search?q=café")).toBe("/search?q=caf%C3%A9");
    expect(safeRedirect("/caf\u0100")).toBe("/caf%C4%80");
    expect(safeRedirect("/\u{1F600}")).toBe("/%F0%9F%98%80");
    expect(safeRedirect("/a/../b")).toBe("/b");
  });

  it("refuses other sites, control characters and very long targets", () => {
    for (const bad of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "/x/..//evil.example",
      "",
      null,
      undefined,
      "/a\nb",
      "/\t/evil.example",
      `/${"a".repeat(2001)}`,
      // Short, but far longer once percent-encoded.
      `/${"\u0100".repeat(500)}`,
    ]) {
      expect(safeRedirect(bad), String(bad).slice(0, 30)).toBe("/user/dashboard");
    }
  });
});

describe.each(drivers)("better-auth's endpoints follow the store's rules on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  const call = (method: "GET" | "POST", path: string, body?: unknown, headers?: Record<string, string>) =>
    authRequest(auth, ORIGIN, method, path, body, headers);
  /** Better-auth's sign-up and sign-in endpoints, with what else a test sends (a callback, an image). */
  const signUpCall = (name: unknown, email: string, password: string, more: object = {}) =>
    call("POST", "/sign-up/email", { name, email, password, ...more });
  const signInCall = (email: string, password: string, more: object = {}) =>
    call("POST", "/sign-in/email", { email, password, ...more });
  const sessionsOf = async (email: string) => {
    const [found] = await database.db.select().from(user).where(eq(user.email, email));
    return found ? database.db.select().from(session).where(eq(session.userId, found.id)) : [];
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    auth = createAuth({
      db: database.db,
      env,
      logger: recordingLogger().logger,
      mailer: { kick() {} },
      rateLimit: false,
    });
  });
  afterAll(async () => {
    await database.close();
  });

  describe("redirect targets", () => {
    it("a character above U+00FF in a callback URL is sent percent-encoded, never a 500", async () => {
      const { cookie } = await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Redirected",
        email: "redirected@example.com",
        password: PASSWORD,
      });
      expect(cookie).toContain("session_token=");
      const signIn = await signInCall("redirected@example.com", PASSWORD, {
        callbackURL: "/caf\u0100?q=\u4e2d",
      });
      expect(signIn.status).toBe(200);
      expect(signIn.response.headers.get("location")).toBe("/caf%C4%80?q=%E4%B8%AD");

      // The confirmation link of another account, with a tampered callback.
      await signUpCall("Later", "later@example.com", PASSWORD);
      const mail = await lastEmail(database.db, "later@example.com", "email-verification");
      const token = /token=([^&\s]+)/.exec(mail!.text)![1]!;
      const verify = await call(
        "GET",
        `/verify-email?token=${token}&callbackURL=${encodeURIComponent("/\u0100")}`,
      );
      expect(verify.status).toBe(302);
      expect(verify.response.headers.get("location")).toBe("/%C4%80");
    });

    it("a callback to another site, or one that is far too long, is refused with 400 and no session", async () => {
      await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Careful",
        email: "careful@example.com",
        password: PASSWORD,
      });
      const before = (await sessionsOf("careful@example.com")).length;
      for (const callbackURL of ["https://evil.example/", "//evil.example", `/${"a".repeat(5000)}`]) {
        const reply = await signInCall("careful@example.com", PASSWORD, { callbackURL });
        expect(reply.status, callbackURL.slice(0, 30)).toBe(400);
        expect(reply.body).toEqual({
          code: "INVALID_REDIRECT",
          message: "callbackURL must be a path on this store, like /user/orders",
        });
      }
      expect((await sessionsOf("careful@example.com")).length).toBe(before);
      const reset = await call("POST", "/request-password-reset", {
        email: "careful@example.com",
        redirectTo: "https://evil.example/",
      });
      expect(reset.status).toBe(400);
      expect(reset.body.message).toBe("redirectTo must be a path on this store, like /user/orders");
    });
  });

  describe("names and other typed fields", () => {
    it("sign-up refuses a NUL, a control character, a huge or an empty name with 400 and writes nothing", async () => {
      const cases: Array<[unknown, string]> = [
        ["Ada\u0000Lovelace", "The name must not contain control characters"],
        ["Ada\u001bLovelace", "The name must not contain control characters"],
        ["x".repeat(200_000), "The name must be at most 100 characters"],
        ["   ", "Enter your name"],
      ];
      for (const [index, [name, message]] of cases.entries()) {
        const email = `bad-name-${index}@example.com`;
        const reply = await signUpCall(name, email, PASSWORD);
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({ code: "INVALID_NAME", message });
        expect(await database.db.select().from(user).where(eq(user.email, email))).toEqual([]);
        expect(await database.db.select().from(outboxEmails).where(eq(outboxEmails.to, email))).toEqual([]);
      }
      const image = await signUpCall("Pictured", "pictured@example.com", PASSWORD, {
        image: `https://example.com/${"x".repeat(200_000)}`,
      });
      expect(image.status).toBe(400);
      expect(image.body).toEqual({
        code: "INVALID_IMAGE",
        message: "The image address must be at most 2048 characters",
      });
      const script = await signUpCall("Pictured", "pictured@example.com", PASSWORD, {
        image: "javascript:alert(1)",
      });
      expect(script.status).toBe(400);
      expect(script.body.code).toBe("INVALID_IMAGE");
    });

    it("a name is stored trimmed, as the store's forms store it", async () => {
      await signUpCall("  Grace Hopper  ", "grace@example.com", PASSWORD);
      const [row] = await database.db.select().from(user).where(eq(user.email, "grace@example.com"));
      expect(row!.name).toBe("Grace Hopper");
    });

    it("update-user refuses a NUL or a huge name with 400 and keeps the old one", async () => {
      const { cookie } = await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Renamer",
        email: "renamer@example.com",
        password: PASSWORD,
      });
      for (const [name, message] of [
        ["Bad\u0000Name", "The name must not contain control characters"],
        ["y".repeat(200_000), "The name must be at most 100 characters"],
      ] as const) {
        const reply = await call("POST", "/update-user", { name }, { cookie });
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({ code: "INVALID_NAME", message });
      }
      const [row] = await database.db.select().from(user).where(eq(user.email, "renamer@example.com"));
      expect(row!.name).toBe("Renamer");
      const fine = await call("POST", "/update-user", { name: " Renamed " }, { cookie });
      expect(fine.status).toBe(200);
      const [renamed] = await database.db.select().from(user).where(eq(user.email, "renamer@example.com"));
      expect(renamed!.name).toBe("Renamed");
    });

    it("the admin plugin's create-user and update-user obey the same limits", async () => {
      const created = await createAdmin({ db: database.db, auth }, { email: "boss@example.com" });
      if (!created.created) throw new Error("expected a new admin");
      // This test is about names; the temporary password's own rule (set a new one first) has its own tests.
      await database.db
        .update(user)
        .set({ mustChangePassword: false })
        .where(eq(user.email, "boss@example.com"));
      const signIn = await signInCall("boss@example.com", created.password);
      expect(signIn.status).toBe(200);
      const cookie = cookieHeader(signIn.response);
      const create = await call(
        "POST",
        "/admin/create-user",
        { email: "made@example.com", password: PASSWORD, name: "z".repeat(200_000) },
        { cookie },
      );
      expect(create.status).toBe(400);
      expect(create.body.code).toBe("INVALID_NAME");
      expect(await database.db.select().from(user).where(eq(user.email, "made@example.com"))).toEqual([]);

      const target = await call(
        "POST",
        "/admin/create-user",
        { email: "made@example.com", password: PASSWORD, name: "Made" },
        { cookie },
      );
      expect(target.status).toBe(200);
      const id = (target.body.user as { id: string }).id;
      const update = await call(
        "POST",
        "/admin/update-user",
        { userId: id, data: { name: "Nul\u0000Name" } },
        { cookie },
      );
      expect(update.status).toBe(400);
      expect(update.body.code).toBe("INVALID_NAME");
      const [row] = await database.db.select().from(user).where(eq(user.id, id));
      expect(row!.name).toBe("Made");
    });
  });

  describe("sign-up tells nobody which addresses have accounts", () => {
    const shape = (body: Record<string, unknown>) => {
      const account = body.user as Record<string, unknown>;
      // The id and the times are new in either case; everything else must be the same.
      return {
        ...body,
        user: {
          ...account,
          id: typeof account.id,
          createdAt: typeof account.createdAt,
          updatedAt: typeof account.updatedAt,
        },
      };
    };

    it("a known and a new address get the same status, body and cookies; the owner gets an e-mail", async () => {
      await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Owner",
        email: "taken@example.com",
        password: PASSWORD,
      });
      const known = await signUpCall("Owner", "taken@example.com", "another password");
      const fresh = await signUpCall("Owner", "fresh@example.com", "another password");
      expect(known.status).toBe(200);
      expect(fresh.status).toBe(200);
      expect(shape(known.body)).toEqual(
        shape({ ...fresh.body, user: { ...(fresh.body.user as object), email: "taken@example.com" } }),
      );
      expect(Object.keys(known.body.user as object)).toEqual(Object.keys(fresh.body.user as object));
      expect(known.response.headers.getSetCookie()).toEqual([]);
      expect(fresh.response.headers.getSetCookie()).toEqual([]);
      expect(known.body.token).toBeNull();

      // The owner of the known address is told what happened; the new address gets its confirmation link.
      const told = await lastEmail(database.db, "taken@example.com", "existing-account");
      expect(told!.text).toContain("already has one");
      expect(told!.text).toContain(`${ORIGIN}/user/login`);
      expect(await lastEmail(database.db, "fresh@example.com", "email-verification")).toBeDefined();
      // Nothing changed for the owner: the old password still signs in, the new one does not.
      expect((await signInCall("taken@example.com", PASSWORD)).status).toBe(200);
      expect((await signInCall("taken@example.com", "another password")).status).toBe(401);
    });

    it("signing in before the address is confirmed answers like a wrong password, and sends the link again", async () => {
      await signUpCall("Prober", "unconfirmed@example.com", PASSWORD);
      const [row] = await database.db.select().from(user).where(eq(user.email, "unconfirmed@example.com"));
      const links = async () =>
        (
          await database.db
            .select()
            .from(outboxEmails)
            .where(
              and(
                eq(outboxEmails.to, "unconfirmed@example.com"),
                eq(outboxEmails.kind, "email-verification"),
              ),
            )
        ).length;
      expect(await links()).toBe(1);
      const right = await signInCall("unconfirmed@example.com", PASSWORD);
      const wrong = await signInCall("unconfirmed@example.com", "not the password");
      expect(right.status).toBe(401);
      expect(right.body).toEqual(wrong.body);
      expect(right.response.headers.getSetCookie()).toEqual([]);
      expect(await database.db.select().from(session).where(eq(session.userId, row!.id))).toEqual([]);
      expect(await links()).toBe(2);

      // The link confirms the address and signs in, with the notice for the next page.
      const mail = await lastEmail(database.db, "unconfirmed@example.com", "email-verification");
      const link = /\/api\/auth(\/verify-email\?\S+)/.exec(mail!.text)![1]!;
      const confirmed = await call("GET", link);
      expect(confirmed.status).toBe(302);
      const cookies = confirmed.response.headers.getSetCookie();
      expect(cookies.some((cookie) => cookie.startsWith("storefront.session_token="))).toBe(true);
      expect(cookies.some((cookie) => cookie.startsWith("storefront.flash=email-verified"))).toBe(true);
      const [after] = await database.db.select().from(user).where(eq(user.id, row!.id));
      expect(after).toMatchObject({ emailVerified: true, status: "Active" });
      expect((await signInCall("unconfirmed@example.com", PASSWORD)).status).toBe(200);
    });
  });

  describe("reset links", () => {
    const requestReset = async (email: string) => {
      const reply = await call("POST", "/request-password-reset", {
        email,
        redirectTo: "/user/reset-password",
      });
      expect(reply.status).toBe(200);
      await auth.afterAnswer.settled();
      const mail = await lastEmail(database.db, email, "password-reset");
      return /\/api\/auth\/reset-password\/([^?\s]+)/.exec(mail!.text)![1]!;
    };
    const reset = (token: string, newPassword: string) =>
      call("POST", "/reset-password", { token, newPassword });

    it("a newer link ends every older one; the newest works once", async () => {
      await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Forgetful",
        email: "forgetful@example.com",
        password: PASSWORD,
      });
      const first = await requestReset("forgetful@example.com");
      const second = await requestReset("forgetful@example.com");
      const third = await requestReset("forgetful@example.com");
      expect(new Set([first, second, third]).size).toBe(3);
      for (const old of [first, second]) {
        const refused = await reset(old, "stolen password");
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe("INVALID_TOKEN");
      }
      expect((await reset(third, "my new password")).status).toBe(200);
      expect((await reset(third, "again and again")).status).toBe(400);
      expect((await signInCall("forgetful@example.com", "my new password")).status).toBe(200);
    });

    it("a successful reset ends every other link of the account, and only of that account", async () => {
      const { id } = await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Racer",
        email: "racer@example.com",
        password: PASSWORD,
      });
      await signUpConfirmed(auth, database.db, ORIGIN, {
        name: "Bystander",
        email: "bystander@example.com",
        password: PASSWORD,
      });
      const bystander = await requestReset("bystander@example.com");
      const token = await requestReset("racer@example.com");
      // A link stored at the same moment by another request (two clicks at once, two processes).
      await database.db.insert(verification).values({
        id: "concurrent-link",
        identifier: "reset-password:concurrent-token",
        value: id,
        expiresAt: new Date(Date.now() + 60 * 60 * 1000),
        createdAt: new Date(Date.now() + 1000),
      });
      expect((await reset(token, "my new password")).status).toBe(200);
      expect((await reset("concurrent-token", "stolen password")).status).toBe(400);
      const left = await database.db
        .select()
        .from(verification)
        .where(like(verification.identifier, "reset-password:%"));
      expect(left.map((row) => row.value)).not.toContain(id);
      expect((await reset(bystander, "bystander's new one")).status).toBe(200);
    });
  });
});
