import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orders } from "~db/schema";
import { placeOrder } from "~/modules/orders/orders.server";
import { authRequest, cookieHeader, lastEmail, signUpConfirmed } from "../../../tests/support/accounts";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { checkout, ordersTestContext, testEnv } from "../../../tests/support/orders";
import { seedDemo } from "../../../tests/support/seed";
import { type Auth, createAuth } from "./auth.server";
import { claimableOrderCount, joinGuestOrders, ordersJoinedFromGuest } from "./guest-orders.server";
import { requestEmailChange } from "./self-service.server";

const ORIGIN = "http://shop.test";
const env = testEnv({ PUBLIC_URL: ORIGIN });
const PASSWORD = "correct horse";

describe.each(drivers)("guest orders joining an account on %s", (driver) => {
  let database: TestDatabase;
  let auth: Auth;
  let guestOrder: (email: string) => Promise<number>;
  const { logger } = recordingLogger();

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    auth = createAuth({ db: database.db, env, logger, mailer: { kick() {} }, rateLimit: false });
    const ctx = ordersTestContext(database.db, await seedDemo(database.db), env);
    guestOrder = async (email) => {
      const placed = await placeOrder(ctx, checkout({ email }));
      if (!placed.ok) throw new Error("the order was not placed");
      return placed.number;
    };
  });
  afterAll(async () => {
    await database.close();
  });

  /** Who each order belongs to (null: a guest's), by number. */
  async function owners(numbers: number[]) {
    const rows = await database.db
      .select({ number: orders.number, userId: orders.userId })
      .from(orders)
      .where(inArray(orders.number, numbers));
    return Object.fromEntries(rows.map((row) => [row.number, row.userId]));
  }

  async function joinEvents(numbers: number[]) {
    return database.db
      .select({ number: orders.number, data: orderEvents.data, actor: orderEvents.actor })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(and(inArray(orders.number, numbers), eq(orderEvents.type, "claimed")))
      .orderBy(asc(orders.number));
  }

  /** Signs up without opening the confirmation link; returns the account's id and that link. */
  async function signUpOnly(email: string) {
    const reply = await authRequest(auth, ORIGIN, "POST", "/sign-up/email", {
      name: "Ada Lovelace",
      email,
      password: PASSWORD,
    });
    expect(reply.status).toBe(200);
    const mail = await lastEmail(database.db, email.toLowerCase(), "email-verification");
    const link = mail!.text.match(/https?:\/\/\S+\/api\/auth(\/verify-email\?\S+)/)![1]!;
    return { id: (reply.body.user as { id: string }).id, link };
  }

  it("the confirmation link joins the address's guest orders to the account, once; nothing joins before it", async () => {
    const mine = [await guestOrder("Joiner@Example.com"), await guestOrder("joiner@example.com")];
    const theirs = await guestOrder("someone.else@example.com");
    const { id, link } = await signUpOnly("joiner@example.com");

    // Signed up, not confirmed: whoever signed up may not own the address, so its orders stay out of the account,
    // even when the account asks for them.
    expect(await owners([...mine, theirs])).toEqual({ [mine[0]!]: null, [mine[1]!]: null, [theirs]: null });
    expect(await joinGuestOrders(database.db, id, "customer")).toEqual({ ok: false, reason: "unverified" });
    expect(await owners(mine)).toEqual({ [mine[0]!]: null, [mine[1]!]: null });

    const opened = await authRequest(auth, ORIGIN, "GET", link);
    expect(opened.status).toBe(302);
    expect(await owners([...mine, theirs])).toEqual({ [mine[0]!]: id, [mine[1]!]: id, [theirs]: null });
    expect(await joinEvents(mine)).toEqual(
      mine.map((number) => ({ number, actor: "customer", data: { by: "email-confirmed" } })),
    );
    expect(await ordersJoinedFromGuest(database.db, id)).toEqual(
      mine.map((number) => ({ number, by: "email-confirmed" })),
    );
    expect(await claimableOrderCount(database.db, "joiner@example.com")).toBe(0);

    // Once: the link opened again, or a join asked for, adds nothing and records nothing more.
    expect((await authRequest(auth, ORIGIN, "GET", link)).status).toBe(302);
    expect(await joinGuestOrders(database.db, id, "customer")).toEqual({ ok: true, joined: [] });
    expect(await joinEvents(mine)).toHaveLength(2);
  });

  it("someone who signs up with another person's address never gets their orders, nor a session", async () => {
    const victims = await guestOrder("victim@example.com");
    const { id } = await signUpOnly("victim@example.com");
    const signIn = await authRequest(auth, ORIGIN, "POST", "/sign-in/email", {
      email: "victim@example.com",
      password: PASSWORD,
    });
    expect(signIn.status).toBe(401);
    expect(await joinGuestOrders(database.db, id, "customer")).toEqual({ ok: false, reason: "unverified" });
    expect(await owners([victims])).toEqual({ [victims]: null });
    expect(await ordersJoinedFromGuest(database.db, id)).toEqual([]);
  });

  it("orders placed as a guest after the address was confirmed join when the customer asks", async () => {
    const { id } = await signUpConfirmed(auth, database.db, ORIGIN, {
      name: "Ada Lovelace",
      email: "later@example.com",
      password: PASSWORD,
    });
    const later = [await guestOrder("later@example.com"), await guestOrder("later@example.com")];
    expect(await owners(later)).toEqual({ [later[0]!]: null, [later[1]!]: null });
    expect(await claimableOrderCount(database.db, "later@example.com")).toBe(2);
    // Asked twice at once (two tabs): each order joins once, with one entry in its history.
    const [first, second] = await Promise.all([
      joinGuestOrders(database.db, id, "customer"),
      joinGuestOrders(database.db, id, "customer"),
    ]);
    const joined = [first, second].flatMap((result) => (result.ok ? result.joined : []));
    expect(joined.sort((a, b) => a - b)).toEqual(later);
    expect(await joinEvents(later)).toHaveLength(2);
    expect(await ordersJoinedFromGuest(database.db, id)).toEqual(
      later.map((number) => ({ number, by: "customer" })),
    );
  });

  it("a new address brings its guest orders when its link is opened, not when it is asked for", async () => {
    const { id, cookie } = await signUpConfirmed(auth, database.db, ORIGIN, {
      name: "Ada Lovelace",
      email: "moving@example.com",
      password: PASSWORD,
    });
    const atNew = await guestOrder("moved@example.com");
    const request = new Request(`${ORIGIN}/user/account`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN },
    });
    expect(
      (await requestEmailChange({ auth, env, db: database.db, logger }, request, "moved@example.com", "/"))
        .ok,
    ).toBe(true);
    expect(await joinGuestOrders(database.db, id, "customer")).toEqual({ ok: true, joined: [] });
    expect(await owners([atNew])).toEqual({ [atNew]: null });

    const mail = await lastEmail(database.db, "moved@example.com", "email-change");
    const link = mail!.text.match(/https?:\/\/\S+\/api\/auth(\/verify-email\?\S+)/)![1]!;
    expect((await authRequest(auth, ORIGIN, "GET", link, undefined, { cookie })).status).toBe(302);
    expect(await owners([atNew])).toEqual({ [atNew]: id });
    expect(await ordersJoinedFromGuest(database.db, id)).toEqual([{ number: atNew, by: "email-confirmed" }]);
  });

  it("a password reset link proves the address too: an account never confirmed gets its guest orders", async () => {
    const forgotten = await guestOrder("reset.joiner@example.com");
    const { id } = await signUpOnly("reset.joiner@example.com");
    const asked = await authRequest(auth, ORIGIN, "POST", "/request-password-reset", {
      email: "reset.joiner@example.com",
      redirectTo: "/user/reset-password",
    });
    expect(asked.status).toBe(200);
    await auth.afterAnswer.settled();
    const mail = await lastEmail(database.db, "reset.joiner@example.com", "password-reset");
    const token = mail!.text.match(/\/api\/auth\/reset-password\/([^?\s]+)/)![1]!;
    expect(await owners([forgotten])).toEqual({ [forgotten]: null });
    const reset = await authRequest(auth, ORIGIN, "POST", "/reset-password", {
      token,
      newPassword: "a new one",
    });
    expect(reset.status).toBe(200);
    expect(await owners([forgotten])).toEqual({ [forgotten]: id });
    expect(await ordersJoinedFromGuest(database.db, id)).toEqual([
      { number: forgotten, by: "password-reset" },
    ]);
    // Signing in works now, and shows the order in the account.
    const signIn = await authRequest(auth, ORIGIN, "POST", "/sign-in/email", {
      email: "reset.joiner@example.com",
      password: "a new one",
    });
    expect(signIn.status).toBe(200);
    expect(cookieHeader(signIn.response)).toContain("session_token");
  });
});
