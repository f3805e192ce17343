import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outboxEmails } from "~db/schema";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { checkout, useDemoStore } from "../../../tests/support/orders";
import { checkOrderLink, orderPath } from "./access.server";
import { emailGuestOrderLink, findGuestOrder, maskEmail, renewOrderLink } from "./lookup.server";
import { orderForBuyer, orderLinkRef, type OrdersContext, placeOrder } from "./orders.server";

describe.each(drivers)("finding an order as a guest, and its secret links, on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let clients = 0;
  /** A new client address for each call, as an attacker rotating addresses would have. */
  const freshClient = () => `10.1.${Math.floor(++clients / 250)}.${clients % 250}`;

  useDemoStore(driver, (store) => ({ database, ctx } = store));

  async function place(email: string) {
    const result = await placeOrder(ctx, checkout({ email, paymentMethod: "bank-transfer" }));
    if (!result.ok) throw new Error("not placed");
    return result.number;
  }

  it("finds an order by number and e-mail, in any case, and gives its current link", async () => {
    const number = await place("finder@example.com");
    const found = await findGuestOrder(ctx, freshClient(), { number, email: "FINDER@example.com" });
    expect(found).toEqual({ ok: true, path: orderPath(ctx.env.AUTH_SECRET, { number, accessVersion: 0 }) });
    expect(await findGuestOrder(ctx, freshClient(), { number, email: "other@example.com" })).toEqual({
      ok: false,
      status: 404,
      message: "We could not find an order with that number and e-mail address.",
    });
  });

  it("stops guessing long before 200 tries, from one client address or from many", async () => {
    const number = await place("victim@example.com");
    // One client guessing numbers for any e-mail addresses.
    const client = freshClient();
    const fromOne = [];
    for (let guess = 0; guess < 12; guess++)
      fromOne.push(await findGuestOrder(ctx, client, { number: guess + 1, email: `x${guess}@example.com` }));
    expect(fromOne.filter((result) => !result.ok && result.status === 429)).toHaveLength(2);
    expect(fromOne.at(-1)).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringMatching(/^Too many attempts\. Please wait \d+ minutes and try again\.$/),
      retryAfterSeconds: expect.any(Number),
    });

    // Guesses for the victim's address from a new client address each time: the e-mail's count catches them,
    // and once refused the right number is refused too.
    const guesses = [];
    for (let guess = number - 10; guess < number; guess++)
      guesses.push(await findGuestOrder(ctx, freshClient(), { number: guess, email: "victim@example.com" }));
    expect(guesses.every((result) => !result.ok && result.status === 404)).toBe(true);
    expect(await findGuestOrder(ctx, freshClient(), { number, email: "victim@example.com" })).toMatchObject({
      ok: false,
      status: 429,
    });
  });

  it("e-mails a new link to the order's own address and retires the older ones", async () => {
    const number = await place("owner@example.com");
    const first = (await orderLinkRef(database.db, number))!;
    const oldKey = new URL(`http://x${orderPath(ctx.env.AUTH_SECRET, first)}`).searchParams.get("key");
    expect(checkOrderLink(ctx.env.AUTH_SECRET, first, oldKey)).toBe("current");

    const sent = await renewOrderLink(ctx, freshClient(), number);
    expect(sent).toEqual({ ok: true, sentTo: "owner@example.com" });
    const now = (await orderLinkRef(database.db, number))!;
    expect(now.accessVersion).toBe(first.accessVersion + 1);
    expect(checkOrderLink(ctx.env.AUTH_SECRET, now, oldKey)).toBe("retired");
    const newPath = orderPath(ctx.env.AUTH_SECRET, now);
    const newKey = new URL(`http://x${newPath}`).searchParams.get("key");
    expect(checkOrderLink(ctx.env.AUTH_SECRET, now, newKey)).toBe("current");
    // A key that was never a link of this order is no link at all.
    expect(checkOrderLink(ctx.env.AUTH_SECRET, now, "A".repeat(32))).toBe("invalid");
    expect(checkOrderLink(ctx.env.AUTH_SECRET, { number: number + 1, accessVersion: 0 }, oldKey)).toBe(
      "invalid",
    );

    const [mail] = await database.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "order-link")))
      .orderBy(desc(outboxEmails.id))
      .limit(1);
    expect(mail).toMatchObject({ to: "owner@example.com", subject: `A new link to your order #${number}` });
    expect(mail!.text).toContain(`${ctx.env.PUBLIC_URL}${newPath}`);
    expect(mail!.text).not.toContain(oldKey!);
    const view = await orderForBuyer(ctx, number);
    expect(view!.events[0]!.message).toBe(
      "A new link to this order was e-mailed; older links no longer work",
    );
  });

  it("asked from the lookup page, answers the same whether or not the order matches, and limits the e-mails", async () => {
    const number = await place("asker@example.com");
    const matching = await emailGuestOrderLink(ctx, freshClient(), { number, email: "asker@example.com" });
    const wrong = await emailGuestOrderLink(ctx, freshClient(), { number, email: "someone@example.com" });
    expect(matching).toEqual(wrong);
    expect((await orderLinkRef(database.db, number))!.accessVersion).toBe(1);
    // Three new links an hour for one order, however many addresses ask.
    await renewOrderLink(ctx, freshClient(), number);
    await renewOrderLink(ctx, freshClient(), number);
    expect(await renewOrderLink(ctx, freshClient(), number)).toMatchObject({ ok: false, status: 429 });
    expect((await orderLinkRef(database.db, number))!.accessVersion).toBe(3);
  });

  it("shows just enough of an address for its owner to recognise it", () => {
    expect(maskEmail("ada.lovelace@example.com")).toBe("a•••@example.com");
  });
});
