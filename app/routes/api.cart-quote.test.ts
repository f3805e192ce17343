import { beforeAll, describe, expect, it } from "vitest";
import { promotions } from "~db/schema";
import { CLIENT_IP_HEADER } from "~/lib/client-address";
import { LIMITS } from "~/lib/rate-limit.server";
import { drivers, type TestDatabase } from "../../tests/support/database";
import { checkout, useDemoStore } from "../../tests/support/orders";
import { limitCodeGuesses } from "~/modules/orders/code-guesses.server";
import { type OrdersContext, placeOrder } from "~/modules/orders/orders.server";
import { action } from "./api.cart-quote";

const NORTON = [{ groupKey: "Norton", id: "1", quantity: 1 }];
const DAY = 86_400_000;

describe.each(drivers)("discount codes at the cart's quote (POST /api/cart/quote) on %s", (driver) => {
  let database: TestDatabase;
  let ctx: OrdersContext;
  let clients = 0;
  const freshClient = () => `10.9.${Math.floor(++clients / 250)}.${clients % 250}`;

  useDemoStore(driver, (store) => ({ database, ctx } = store));
  beforeAll(async () => {
    const now = Date.now();
    await database.db.insert(promotions).values(
      [
        { code: "ASLEEP", paused: true },
        { code: "OLD-ONE", endsAt: new Date(now - DAY) },
        { code: "LATER", startsAt: new Date(now + DAY) },
        { code: "GONE", usageLimit: 1, uses: 1 },
        { code: "BIGCART", minSubtotalCents: 10_000_000 },
      ].map((values) => ({ kind: "percent" as const, percentBasisPoints: 1000, ...values })),
    );
  });

  /** The quote as the browser asks for it, from `client` (the address server/app.ts sets from the connection). */
  async function quote(code: string, client: string) {
    const request = new Request("http://localhost/api/cart/quote", {
      method: "POST",
      headers: { "content-type": "application/json", [CLIENT_IP_HEADER]: client },
      body: JSON.stringify({ lines: NORTON, code }),
    });
    const response = (await action({
      request,
      context: { db: database.db },
      params: {},
    } as never)) as Response;
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as { codeProblem: string | null; discountCents: number; error?: string },
    };
  }

  it("gives every code that cannot be used the same answer: unknown, paused, expired, not started, used up", async () => {
    const client = freshClient();
    const answers = [];
    for (const code of ["NO-SUCH-CODE", "asleep", "old-one", "Later", "gone"]) {
      const { status, body } = await quote(code, client);
      expect(status).toBe(200);
      expect(body.discountCents).toBe(0);
      answers.push(body.codeProblem);
    }
    expect(answers).toEqual([
      'The discount code "NO-SUCH-CODE" is not valid',
      'The discount code "asleep" is not valid',
      'The discount code "old-one" is not valid',
      'The discount code "Later" is not valid',
      'The discount code "gone" is not valid',
    ]);
    // A code that works still says what the cart lacks, and how much.
    expect((await quote("bigcart", client)).body.codeProblem).toMatch(
      /^The discount code "BIGCART" needs a subtotal of at least \$100,000\.00: add \$[\d,.]+ more$/,
    );
  });

  it("past the limit of codes that are not valid, refuses any code from that client with 429, the right one too", async () => {
    const client = freshClient();
    // Codes that work, or need more in the cart, are no guesses: they do not count.
    for (let i = 0; i < LIMITS.codeGuessesPerClient.points + 5; i++) {
      const { status, body } = await quote(i % 2 ? "welcome10" : "BIGCART", client);
      expect(status).toBe(200);
      expect(body.codeProblem === null || body.codeProblem.includes("needs a subtotal")).toBe(true);
    }
    for (let i = 0; i < LIMITS.codeGuessesPerClient.points; i++)
      expect((await quote(`GUESS-${i}`, client)).body.codeProblem).toBe(
        `The discount code "GUESS-${i}" is not valid`,
      );
    for (const code of ["GUESS-X", "WELCOME10"]) {
      const refused = await quote(code, client);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(14 * 60);
      expect(refused.body).toEqual({
        error: "Too many discount codes tried. Try again in 15 minutes.",
        codeProblem: "Too many discount codes tried. Try again in 15 minutes.",
      });
    }
    // A cart without a code is still priced; another client is not held back.
    expect((await quote("", client)).status).toBe(200);
    expect((await quote("WELCOME10", freshClient())).body.codeProblem).toBeNull();
  });

  it("counts codes that are not valid at placing an order against the same limit", async () => {
    const client = freshClient();
    // As the checkout's action places an order (app/routes/payment.tsx).
    const place = (discountCode: string) =>
      limitCodeGuesses(
        database.db,
        client,
        discountCode,
        () => placeOrder(ctx, checkout({ discountCode, paymentMethod: "bank-transfer" })),
        (result) => !result.ok && result.codeNotValid === true,
      );
    const placed = await place("WELCOME10");
    expect(placed).toMatchObject({ ok: true, result: { ok: true } });
    for (let i = 0; i < LIMITS.codeGuessesPerClient.points - 1; i++)
      expect((await quote(`TRY-${i}`, client)).status).toBe(200);
    expect(await place("LATER")).toEqual({
      ok: true,
      result: {
        ok: false,
        errors: { discountCode: 'The discount code "LATER" is not valid' },
        codeNotValid: true,
      },
    });
    expect((await quote("WELCOME10", client)).status).toBe(429);
    expect(await place("WELCOME10")).toMatchObject({
      ok: false,
      message: "Too many discount codes tried. Try again in 15 minutes.",
    });
  });
});
