import { and, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, orderEvents, orderLines, orders, outboxEmails, session, user } from "~db/schema";
import { createAdmin } from "~/modules/admin/create-admin.server";
import { placeOrder } from "~/modules/orders/orders.server";
import { authRequest, cookieHeader, lastEmail, signUpConfirmed } from "../../../tests/support/accounts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { checkout, ordersTestContext, testEnv } from "../../../tests/support/orders";
import { seedDemo } from "../../../tests/support/seed";
import { addAddress } from "./addresses.server";
import { type Auth, createAuth } from "./auth.server";
import { DELETED_CUSTOMER_EMAIL, DELETED_CUSTOMER_NAME } from "./personal-data.server";
import {
  changePassword,
  deleteAccount,
  describeDevice,
  endSession,
  listDeviceSessions,
  requestEmailChange,
} from "./self-service.server";

const ORIGIN = "http://shop.test";
const env = testEnv({ PUBLIC_URL: ORIGIN });
const PASSWORD = "correct horse";

describe.each(drivers)("account self-service on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  const { logger } = recordingLogger();
  const ctx = () => ({ auth, env, db: database.db, logger });

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    auth = createAuth({ db: database.db, env, logger, mailer: { kick() {} }, rateLimit: false });
  });
  afterAll(async () => {
    await database.close();
  });

  /** A page request of the store's own, signed in with this cookie. */
  const pageRequest = (
    cookie: string,
    agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36",
  ) =>
    new Request(`${ORIGIN}/user/account`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "user-agent": agent },
    });

  async function customer(email: string) {
    return signUpConfirmed(auth, database.db, ORIGIN, { name: "Grace Hopper", email, password: PASSWORD });
  }

  async function signIn(
    email: string,
    password = PASSWORD,
    agent = "Mozilla/5.0 (Windows NT 10.0) Firefox/130.0",
  ) {
    const reply = await authRequest(
      auth,
      ORIGIN,
      "POST",
      "/sign-in/email",
      { email, password },
      {
        "user-agent": agent,
      },
    );
    return { status: reply.status, cookie: cookieHeader(reply.response) };
  }

  const sessionOf = async (cookie: string) =>
    auth.api.getSession({ headers: new Headers({ cookie }) }).catch(() => null);

  it("a new password needs the current one and signs every other session out", async () => {
    const first = await customer("pw@example.com");
    const second = await signIn("pw@example.com");
    expect(await sessionOf(second.cookie)).not.toBeNull();

    const wrong = await changePassword(ctx(), pageRequest(first.cookie), {
      currentPassword: "not my password",
      newPassword: "a brand new one",
    });
    expect(wrong).toMatchObject({ ok: false, status: 400, errors: { currentPassword: expect.any(String) } });
    expect(await sessionOf(second.cookie)).not.toBeNull();

    const changed = await changePassword(ctx(), pageRequest(first.cookie), {
      currentPassword: PASSWORD,
      newPassword: "a brand new one",
    });
    expect(changed.ok).toBe(true);
    // The other browser is signed out; this one carries on with the new session cookie it was given.
    expect(await sessionOf(second.cookie)).toBeNull();
    const renewed = changed.ok ? cookieHeader(new Response(null, { headers: changed.headers })) : "";
    expect(await sessionOf(renewed)).not.toBeNull();
    expect((await signIn("pw@example.com")).status).toBe(401);
    expect((await signIn("pw@example.com", "a brand new one")).status).toBe(200);
  });

  it("lists the account's sessions with their device, and ends only the account's own", async () => {
    const mine = await customer("sessions@example.com");
    const phone = await signIn(
      "sessions@example.com",
      PASSWORD,
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1",
    );
    const other = await customer("other-sessions@example.com");
    const current = await sessionOf(mine.cookie);

    const list = await listDeviceSessions(database.db, current!.user.id, current!.session.id);
    expect(list).toHaveLength(2);
    expect(list.filter((item) => item.current)).toHaveLength(1);
    expect(list.map((item) => item.device)).toContain("Safari on iOS");

    // Someone else's session id is "already ended" to this account, and stays signed in.
    const theirs = await sessionOf(other.cookie);
    const refused = await endSession(ctx(), pageRequest(mine.cookie), current!.user.id, theirs!.session.id);
    expect(refused).toMatchObject({ ok: false, status: 404 });
    expect(await sessionOf(other.cookie)).not.toBeNull();

    const phoneSession = list.find((item) => !item.current)!;
    const ended = await endSession(ctx(), pageRequest(mine.cookie), current!.user.id, phoneSession.id);
    expect(ended.ok).toBe(true);
    expect(await sessionOf(phone.cookie)).toBeNull();
    expect(await sessionOf(mine.cookie)).not.toBeNull();
  });

  it("describes browsers in plain words", () => {
    expect(describeDevice(null)).toBe("Unknown device");
    expect(describeDevice("Mozilla/5.0 (Windows NT 10.0; Win64) Chrome/130.0 Safari/537.36 Edg/130.0")).toBe(
      "Edge on Windows",
    );
    expect(describeDevice("Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36")).toBe(
      "Chrome on Android",
    );
  });

  it("changes the address only through the link sent to it, and tells the old address", async () => {
    const { id, cookie } = await customer("old@example.com");
    const asked = await requestEmailChange(ctx(), pageRequest(cookie), "new@example.com", "/user/account");
    expect(asked.ok).toBe(true);
    const [still] = await database.db.select().from(user).where(eq(user.id, id));
    expect(still!.email).toBe("old@example.com");

    const mail = await lastEmail(database.db, "new@example.com", "email-change");
    const link = mail!.text.match(/https?:\/\/\S+\/api\/auth(\/verify-email\?\S+)/)![1]!;
    const opened = await authRequest(auth, ORIGIN, "GET", link, undefined, { cookie });
    expect(opened.status).toBe(302);
    const [moved] = await database.db.select().from(user).where(eq(user.id, id));
    expect(moved).toMatchObject({ email: "new@example.com", emailVerified: true });
    const told = await lastEmail(database.db, "old@example.com", "email-changed");
    expect(told!.text).toContain("new@example.com");
  });

  it("an address another account has gets the same answer and no e-mail; bad addresses are refused", async () => {
    await customer("taken@example.com");
    const { cookie } = await customer("wants-taken@example.com");
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(outboxEmails);
    expect(
      (await requestEmailChange(ctx(), pageRequest(cookie), "taken@example.com", "/user/account")).ok,
    ).toBe(true);
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(outboxEmails);
    expect(after[0]!.n).toBe(before[0]!.n);

    const bad = await authRequest(
      auth,
      ORIGIN,
      "POST",
      "/change-email",
      { newEmail: `${"a".repeat(250)}@x.com` },
      { cookie },
    );
    expect(bad.status).toBe(400);
  });

  it("deletes a customer with the password: orders stay without personal data, sessions and addresses go", async () => {
    const cipher = await seedDemo(database.db);
    const orderCtx = ordersTestContext(database.db, cipher, env);
    const { id, cookie } = await customer("leaving@example.com");
    const other = await signIn("leaving@example.com");
    await addAddress(database.db, id, {
      name: "Grace Hopper",
      line1: "1 Navy Way",
      line2: "",
      city: "Arlington",
      region: "VA",
      postalCode: "22202",
      country: "US",
      phone: "555-0100",
      isDefault: true,
    });
    const signedIn = await placeOrder(orderCtx, checkout({ email: "leaving@example.com" }), id);
    const asGuest = await placeOrder(orderCtx, checkout({ email: "Leaving@Example.com" }));
    const stranger = await placeOrder(orderCtx, checkout({ email: "stays@example.com" }));
    // Signed in, with another address for this order's e-mails.
    const atWork = await placeOrder(orderCtx, checkout({ email: "leaving.at.work@example.com" }), id);
    if (!signedIn.ok || !asGuest.ok || !stranger.ok || !atWork.ok) throw new Error("orders were not placed");
    const ownerNotices = await database.db
      .select()
      .from(outboxEmails)
      .where(
        and(
          inArray(outboxEmails.orderId, [signedIn.orderId, atWork.orderId]),
          like(outboxEmails.kind, "owner-%"),
        ),
      );
    expect(ownerNotices.length).toBeGreaterThan(0);
    const [kept] = await database.db.select().from(orders).where(eq(orders.number, signedIn.number));

    const wrong = await deleteAccount(ctx(), pageRequest(cookie), "not my password");
    expect(wrong).toMatchObject({ ok: false, status: 400, errors: { password: expect.any(String) } });
    expect(await database.db.select().from(user).where(eq(user.id, id))).toHaveLength(1);

    const deleted = await deleteAccount(ctx(), pageRequest(cookie), PASSWORD);
    expect(deleted.ok).toBe(true);
    expect(await database.db.select().from(user).where(eq(user.id, id))).toHaveLength(0);
    expect(await database.db.select().from(session).where(eq(session.userId, id))).toHaveLength(0);
    expect(await database.db.select().from(addresses).where(eq(addresses.userId, id))).toHaveLength(0);
    expect(await sessionOf(other.cookie)).toBeNull();

    for (const number of [signedIn.number, asGuest.number]) {
      const [row] = await database.db.select().from(orders).where(eq(orders.number, number));
      expect(row).toMatchObject({
        userId: null,
        email: DELETED_CUSTOMER_EMAIL,
        billingAddress: {
          name: DELETED_CUSTOMER_NAME,
          line1: "",
          city: "",
          postalCode: "",
          phone: "",
          country: "US",
        },
      });
      // The store's records: amounts, lines and history stay.
      const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, row!.id));
      expect(lines.length).toBeGreaterThan(0);
      const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, row!.id));
      expect(events.map((event) => event.type)).toContain("customer-deleted");
    }
    const [after] = await database.db.select().from(orders).where(eq(orders.number, signedIn.number));
    expect(after).toMatchObject({
      totalCents: kept!.totalCents,
      subtotalCents: kept!.subtotalCents,
      status: kept!.status,
      accessVersion: kept!.accessVersion + 1,
    });
    const mails = await database.db
      .select()
      .from(outboxEmails)
      .where(inArray(sql`lower(${outboxEmails.to})`, ["leaving@example.com", "leaving.at.work@example.com"]));
    expect(mails).toHaveLength(0);
    // The owner's notices about those orders are the store's: still addressed to the owner, text and all.
    const noticesAfter = await database.db
      .select()
      .from(outboxEmails)
      .where(
        inArray(
          outboxEmails.id,
          ownerNotices.map((notice) => notice.id),
        ),
      );
    expect(noticesAfter.map(({ to, text }) => ({ to, text }))).toEqual(
      ownerNotices.map(({ to, text }) => ({ to, text })),
    );
    // Somebody else's order is untouched.
    const [untouched] = await database.db.select().from(orders).where(eq(orders.number, stranger.number));
    expect(untouched!.email).toBe("stays@example.com");
  });

  it("an admin cannot delete their own account; admin:create's temporary password must be replaced", async () => {
    const made = await createAdmin({ db: database.db, auth }, { email: "boss@example.com" });
    if (!made.created) throw new Error("no admin made");
    const [fresh] = await database.db.select().from(user).where(eq(user.email, "boss@example.com"));
    expect(fresh!.mustChangePassword).toBe(true);

    const { cookie } = await signIn("boss@example.com", made.password);
    const refused = await deleteAccount(ctx(), pageRequest(cookie), made.password);
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(await database.db.select().from(user).where(eq(user.email, "boss@example.com"))).toHaveLength(1);

    const changed = await changePassword(ctx(), pageRequest(cookie), {
      currentPassword: made.password,
      newPassword: "the owner's own password",
    });
    expect(changed.ok).toBe(true);
    const [after] = await database.db.select().from(user).where(eq(user.email, "boss@example.com"));
    expect(after!.mustChangePassword).toBe(false);
  });
});
