/** Attacks on discount codes and taxes at the cart quote and the checkout. */
import { type Attack, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };
const NORTON = [{ groupKey: "Norton", id: "1", quantity: 1 }];
const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

export const pricingCheckoutAttacks: Attack[] = [
  {
    name: "send a discount code of 10,000 characters, or one of markup, to the cart quote and the checkout",
    async run({ send, refused, expectStatus }) {
      for (const code of [
        "W".repeat(10_000),
        "W".repeat(41),
        "<script>alert(1)</script>",
        "WELCOME10' OR 1=1 --",
      ]) {
        const quote = await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: NORTON, code }),
        });
        await expectStatus(quote, 400, `the quote with a code of ${code.length} characters`);
        const { error } = (await quote.json()) as { error: string };
        refused(
          /A discount code (is at most 40 characters|has only letters, digits, - and _)/.test(error),
          `quote message: ${error}`,
        );
        const order = await send("/payment", {
          method: "POST",
          headers: form,
          body: checkoutForm(NORTON, { discountCode: code }),
        });
        await expectStatus(order, 400, `the checkout with a code of ${code.length} characters`);
        const html = await order.text();
        refused(
          html.includes("A discount code is at most 40 characters") ||
            html.includes("A discount code has only letters, digits, - and _"),
          "the checkout does not say what is wrong with the code",
        );
        refused(!html.includes("<script>alert(1)</script>"), "the checkout echoed the code's markup");
      }
      const unknown = await send("/api/cart/quote", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ lines: NORTON, code: "NO-SUCH-CODE" }),
      });
      await expectStatus(unknown, 200, "the quote with an unknown code");
      const body = (await unknown.json()) as { codeProblem: string; discountCents: number };
      refused(body.discountCents === 0, "an unknown code took money off");
      refused(
        body.codeProblem === 'The discount code "NO-SUCH-CODE" is not valid',
        `quote said: ${body.codeProblem}`,
      );
    },
  },
  {
    name: "tell unknown, paused, expired, upcoming and used-up discount codes apart, and try hundreds of codes from one client",
    async run(kit) {
      const { send, refused, expectStatus, signInAdmin, randomAddress } = kit;
      const cookie = await signInAdmin();
      const admin = (path: string, values: Record<string, string>) =>
        send(path, { method: "POST", headers: { ...form, cookie }, body: new URLSearchParams(values) });
      const run = Date.now().toString(36).toUpperCase();
      const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 16);
      const terms = { kind: "percent", value: "10", scope: "order" };
      const codes = {
        paused: `PAUSED-${run}`,
        upcoming: `LATER-${run}`,
        expired: `OLD-${run}`,
        usedUp: `ONE-${run}`,
      };
      for (const [code, values] of [
        [codes.paused, { paused: "on" }],
        [codes.upcoming, { startsAt: at(48) }],
        [codes.expired, { startsAt: at(-48), endsAt: at(24) }],
        [codes.usedUp, { usageLimit: "1" }],
      ] as const) {
        const created = await admin("/admin/promotions/new", { ...terms, code, ...values });
        await expectStatus(created, [302, 303], `creating the code ${code}`);
      }
      // A code cannot be created already ended: its end is moved to now, as the owner ends one early.
      const list = await (await send(`/admin/promotions?q=${codes.expired}`, { headers: { cookie } })).text();
      const edit = new RegExp(`data-code="${codes.expired}"[\\s\\S]*?href="(/admin/promotions/\\d+)"`).exec(
        list,
      );
      if (!edit) throw new Error(`no link to edit ${codes.expired} on the list`);
      await expectStatus(
        await admin(edit[1]!, { ...terms, code: codes.expired, startsAt: at(-48), endsAt: at(0) }),
        [302, 303],
        "ending the code now",
      );
      const used = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, { discountCode: codes.usedUp }),
        from: randomAddress(),
      });
      await expectStatus(used, 302, "the one order the used-up code allows");

      // Every answer, with the code as typed taken out, must be the same as an unknown code's.
      const answer = async (code: string) => {
        const response = await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: NORTON, code }),
        });
        await expectStatus(response, 200, `the quote with ${code}`);
        return (await response.text()).replaceAll(code, "CODE");
      };
      const unknown = await answer(`NOPE-${run}`);
      for (const code of [
        codes.paused,
        codes.upcoming,
        codes.expired,
        codes.usedUp,
        codes.paused.toLowerCase(),
      ]) {
        const said = await answer(code);
        refused(
          said === unknown,
          `the quote for ${code} differs from an unknown code's:\n${said}\n${unknown}`,
        );
      }

      // A dictionary from the same client, ten at a time: the store must stop answering long before its end.
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let batch = 0; batch < 20 && !statuses.includes(429); batch++) {
        const responses = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            send("/api/cart/quote", {
              method: "POST",
              headers: json,
              body: JSON.stringify({ lines: NORTON, code: `WORD-${run}-${batch * 10 + i}` }),
            }),
          ),
        );
        for (const response of responses) {
          statuses.push(response.status);
          if (response.status === 429) retryAfter = response.headers.get("retry-after");
          await response.body?.cancel();
        }
      }
      refused(statuses.includes(429), `${statuses.length} codes from one client and never a 429`);
      refused(
        statuses.filter((status) => status === 200).length <= 20,
        `${statuses.filter((status) => status === 200).length} codes were checked before the 429`,
      );
      refused(Number(retryAfter) > 0, `the 429 said Retry-After: ${retryAfter}`);
      // Nor does the right code get through, at the quote or at placing an order.
      const right = await send("/api/cart/quote", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ lines: NORTON, code: "WELCOME10" }),
      });
      await expectStatus(right, 429, "the right code after the limit, at the quote");
      const order = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, { discountCode: "WELCOME10" }),
      });
      await expectStatus(order, 429, "the right code after the limit, at placing an order");
    },
  },
  {
    name: "forge discount, tax and total fields into the checkout form, and a tax ID of markup",
    async run({ send, refused, expectStatus }) {
      const place = { billing: { country: "US", region: "NY" } };
      const quote = (await (
        await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: NORTON, ...place }),
        })
      ).json()) as { totalCents: number; taxCents: number };
      refused(quote.taxCents > 0, "the demo store charged no New York sales tax");
      const placed = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, {
          "billing.region": "NY",
          discountCents: "999999",
          discountCode_: "WELCOME10",
          promotionId: "1",
          taxCents: "0",
          taxBreakdown: "[]",
          pricesIncludeTax: "on",
          totalCents: "1",
          subtotalCents: "1",
        }),
      });
      await expectStatus(placed, 302, "placing the order with forged fields");
      const page = await (await send(placed.headers.get("location")!)).text();
      refused(
        page.includes(money(quote.totalCents)),
        "the order's total is not the store's price with its tax",
      );
      refused(!page.includes("Discount ("), "forged fields gave the order a discount");
      // The total the page showed is only compared: one forged lower is refused, never charged.
      const lower = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, { "billing.region": "NY", expectedTotalCents: "1" }),
      });
      await expectStatus(lower, 400, "an order claiming the total shown was $0.01");
      refused(
        (await lower.text()).includes("Your total is now"),
        "the checkout does not say the total changed",
      );
      const badId = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm(NORTON, { buyerTaxId: "<img src=x onerror=alert(1)>" }),
      });
      await expectStatus(badId, 400, "a tax ID of markup");
      refused(
        (await badId.text()).includes("A tax ID has only letters, digits, spaces, dots, slashes and dashes"),
        "the checkout does not say what is wrong with the tax ID",
      );
    },
  },
];
