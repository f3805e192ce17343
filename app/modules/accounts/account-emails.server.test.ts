import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxEmails, rateLimits } from "~db/schema";
import { LIMITS } from "~/lib/rate-limit.server";
import { placeOrder } from "~/modules/orders/orders.server";
import { authRequest, lastEmail, signUpConfirmed } from "../../../tests/support/accounts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { checkout, ordersTestContext, testEnv } from "../../../tests/support/orders";
import { seedDemo } from "../../../tests/support/seed";
import { type Auth, createAuth } from "./auth.server";

const ORIGIN = "http://shop.test";
const env = testEnv({ PUBLIC_URL: ORIGIN });
const PASSWORD = "correct horse battery";
const CAP = LIMITS.accountEmailsPerAddress.points;
const SPAM_NAME = "Win a prize at http://evil.example";

/** Client address number `i`, as the server would put it in the request (one per request: no per-client limit helps). */
const from = (i: number) => ({ "x-client-ip": `203.0.113.${i}` });

/** An answer as the requester sees it, without what differs on every request anyway (ids and times). */
const seen = async (reply: Awaited<ReturnType<typeof authRequest>>, email: string) =>
  JSON.stringify({
    status: reply.status,
    cookies: reply.response.headers.getSetCookie(),
    body: JSON.stringify(reply.body)
      .replaceAll(email, "ADDRESS")
      .replaceAll(/"(id|createdAt|updatedAt)":"[^"]*"/g, '"$1":"…"'),
  });

describe.each(drivers)("account e-mails on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  const log = recordingLogger();
  const call = (method: "GET" | "POST", path: string, body?: unknown, headers?: Record<string, string>) =>
    authRequest(auth, ORIGIN, method, path, body, headers);
  const mailTo = (to: string) => database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    // better-auth's own limits on, as in production: they count per client, which the requests below rotate.
    auth = createAuth({ db: database.db, env, logger: log.logger, mailer: { kick() {} }, rateLimit: true });
  });
  afterAll(async () => {
    await database.close();
  });

  it("one address gets at most the cap of account e-mails, however many client addresses ask, with the same answers", async () => {
    const target = "bombed@example.com";
    const signUps: string[] = [];
    const resets: string[] = [];
    // Each kind of request alone asks for more e-mails than the cap, from a new client address each time.
    for (let i = 1; i <= CAP + 2; i++) {
      const signUp = await call(
        "POST",
        "/sign-up/email",
        { name: "Someone", email: target, password: PASSWORD },
        from(i),
      );
      signUps.push(await seen(signUp, target));
      const reset = await call(
        "POST",
        "/request-password-reset",
        { email: target, redirectTo: "/user/reset-password" },
        from(100 + i),
      );
      resets.push(await seen(reset, target));
      // Signing in to the unconfirmed account sends its link again: one more kind of account e-mail.
      await call("POST", "/sign-in/email", { email: target, password: PASSWORD }, from(200 + i));
    }
    await auth.afterAnswer.settled();

    const sent = await mailTo(target);
    expect(sent).toHaveLength(CAP);
    expect(sent[0]!.kind).toBe("email-verification");

    // An address far from its cap gets the very answers the capped one got.
    const fresh = "fresh@example.com";
    const freshSignUp = await seen(
      await call("POST", "/sign-up/email", { name: "Someone", email: fresh, password: PASSWORD }, from(250)),
      fresh,
    );
    const freshReset = await seen(
      await call(
        "POST",
        "/request-password-reset",
        { email: fresh, redirectTo: "/user/reset-password" },
        from(251),
      ),
      fresh,
    );
    expect(signUps[0]).toMatch(/"status":200/);
    expect(new Set([...signUps, freshSignUp])).toEqual(new Set([freshSignUp]));
    expect(resets[0]).toMatch(/"status":200/);
    expect(new Set([...resets, freshReset])).toEqual(new Set([freshReset]));

    // The operator sees what was held back, by kind, and never the address; nor does the limits table hold it.
    const held = log.lines().filter((line) => line.msg.startsWith("account e-mail not sent"));
    expect(held.length).toBeGreaterThan(0);
    expect(held.map((line) => (line as { kind?: string }).kind)).toContain("password-reset");
    expect(JSON.stringify(held)).not.toContain("bombed");
    const keys = await database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(JSON.stringify(keys)).not.toContain("bombed");
  });

  it("reset requests over the cap leave the last link sent working", async () => {
    const email = "locked.out@example.com";
    await signUpConfirmed(auth, database.db, ORIGIN, { name: "Owner", email, password: PASSWORD });
    const ask = async (i: number) => {
      await call("POST", "/request-password-reset", { email, redirectTo: "/" }, from(i));
      await auth.afterAnswer.settled();
    };
    for (let i = 1; i < CAP; i++) await ask(i);
    const last = await lastEmail(database.db, email, "password-reset");
    const token = /\/reset-password\/([^?\s]+)/.exec(last!.text)![1]!;
    for (let i = CAP; i < CAP + 3; i++) await ask(i);
    expect(await mailTo(email)).toHaveLength(CAP);
    const reset = await call("POST", "/reset-password", { token, newPassword: "a brand new one" }, from(99));
    expect(reset.status).toBe(200);
  });

  it("order e-mails still reach an address whose account e-mails are used up", async () => {
    const buyer = "buyer@example.com";
    for (let i = 0; i < CAP + 2; i++)
      await call("POST", "/sign-up/email", { name: "Buyer", email: buyer, password: PASSWORD }, from(i));
    const cipher = await seedDemo(database.db);
    await placeOrder(ordersTestContext(database.db, cipher, env), checkout({ email: buyer }));
    const kinds = (await mailTo(buyer)).map((mail) => mail.kind);
    const accountKinds = ["email-verification", "existing-account"];
    expect(kinds.filter((kind) => accountKinds.includes(kind))).toHaveLength(CAP);
    expect(kinds.filter((kind) => !accountKinds.includes(kind))).toEqual([
      "order-confirmation",
      "payment-receipt",
    ]);
  });

  it("a sign-up's e-mails carry no name or link typed by the requester", async () => {
    const stranger = "stranger@example.com";
    await call("POST", "/sign-up/email", { name: SPAM_NAME, email: stranger, password: PASSWORD }, from(1));
    const confirm = await lastEmail(database.db, stranger, "email-verification");
    expect(confirm!.text.startsWith("Hello,\n")).toBe(true);

    // The same address signed up again: the "you already have an account" notice.
    await call(
      "POST",
      "/sign-up/email",
      { name: `${SPAM_NAME} now`, email: stranger, password: PASSWORD },
      from(2),
    );
    const again = await lastEmail(database.db, stranger, "existing-account");

    // A reset for the account someone else opened with the address: its name is theirs, not the address owner's.
    await call("POST", "/request-password-reset", { email: stranger, redirectTo: "/" }, from(3));
    await auth.afterAnswer.settled();
    const reset = await lastEmail(database.db, stranger, "password-reset");

    for (const mail of [confirm, again, reset]) {
      expect(mail, "an e-mail was sent").toBeDefined();
      expect(mail!.text).not.toContain("evil.example");
      expect(mail!.html).not.toContain("evil.example");
      expect(mail!.text).not.toContain("Win a prize");
      expect(mail!.text).toMatch(/^Hello,\n/);
    }
  });

  it("a confirmed account's name is in its reset e-mail, and not in the link to a new address", async () => {
    const { cookie } = await signUpConfirmed(auth, database.db, ORIGIN, {
      name: "Ada",
      email: "ada@example.com",
      password: PASSWORD,
    });
    await call("POST", "/request-password-reset", { email: "ada@example.com", redirectTo: "/" }, from(4));
    await auth.afterAnswer.settled();
    expect((await lastEmail(database.db, "ada@example.com", "password-reset"))!.text).toMatch(
      /^Hello Ada,\n/,
    );

    expect((await call("POST", "/update-user", { name: SPAM_NAME }, { cookie, ...from(5) })).status).toBe(
      200,
    );
    const moved = await call(
      "POST",
      "/change-email",
      { newEmail: "someone.else@example.com", callbackURL: "/" },
      { cookie, ...from(6) },
    );
    expect(moved.status).toBe(200);
    const link = await lastEmail(database.db, "someone.else@example.com", "email-change");
    expect(link).toBeDefined();
    expect(link!.text).toMatch(/^Hello,\n/);
    expect(link!.text).not.toContain("evil.example");
    expect(link!.html).not.toContain("evil.example");
  });
});
