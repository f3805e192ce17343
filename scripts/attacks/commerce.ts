/** Attacks on what the store sells and to whom: order lookups, order links, the sandbox, stock and quantities. */
import { randomInt } from "node:crypto";
import { type Attack, type AttackKit, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };

/** Places a one-line order (the sandbox pays it at once) and returns its number and secret link. */
async function placeOrder({ send, expectStatus }: AttackKit, email: string, paymentMethod = "sandbox") {
  const placed = await send("/payment", {
    method: "POST",
    headers: form,
    body: checkoutForm([{ groupKey: "Norton", id: "1", quantity: 1 }], { email, paymentMethod }),
  });
  await expectStatus(placed, 302, "placing the order");
  const path = placed.headers.get("location")!.replace(/&placed=1$/, "");
  return { number: Number(/\/order\/(\d+)/.exec(path)![1]), path };
}

/**
 * Guesses order numbers below the real one for a known e-mail address, then tries the real one: the store must
 * refuse with 429 within a few guesses, and still refuse when the real number comes.
 */
async function guessOrderNumbers(kit: AttackKit, rotateAddresses: boolean) {
  const email = `victim-${randomInt(1e9)}@example.com`;
  const { number } = await placeOrder(kit, email);
  let firstRefusal = 0;
  for (let guess = 1; guess <= 200 && firstRefusal === 0; guess++) {
    const response = await kit.send("/order/lookup", {
      method: "POST",
      headers: form,
      body: new URLSearchParams({ number: String(Math.max(1, number - guess)), email }),
      from: rotateAddresses ? kit.randomAddress() : undefined,
    });
    kit.refused(response.status !== 302, `guess ${guess} opened an order`);
    if (response.status === 429) firstRefusal = guess;
    else await kit.expectStatus(response, 404, `guess ${guess}`);
  }
  kit.refused(firstRefusal > 0 && firstRefusal <= 11, `no 429 within ${firstRefusal || 200} guesses`);
  const right = await kit.send("/order/lookup", {
    method: "POST",
    headers: form,
    body: new URLSearchParams({ number: `#${number}`, email }),
    from: rotateAddresses ? kit.randomAddress() : undefined,
  });
  await kit.expectStatus(right, 429, "the right number after the limit");
  const page = await right.text();
  kit.refused(page.includes("Too many attempts. Please wait"), "the refusal does not say what to do");
  kit.refused(!page.includes("DEMO-"), "the refusal shows a licence key");
}

const QUANTITY_TAMPERING: unknown[] = [0, -1, 1e9, 1.5, "x"];

export const commerceAttacks: Attack[] = [
  {
    name: "guess order numbers for a known e-mail address from one client address",
    run: (kit) => guessOrderNumbers(kit, false),
  },
  {
    name: "guess order numbers for a known e-mail address from a new client address every time",
    run: (kit) => guessOrderNumbers(kit, true),
  },
  {
    name: "open an order with its old secret link after a new one was e-mailed",
    async run(kit) {
      const { send, refused, expectStatus } = kit;
      const { path, number } = await placeOrder(kit, `links-${randomInt(1e9)}@example.com`);
      const current = await send(path);
      await expectStatus(current, 200, "the order's link");
      refused(current.headers.get("cache-control") === "private, no-store", "the order page may be cached");
      const renew = await send(path, {
        method: "POST",
        headers: form,
        body: new URLSearchParams({ intent: "new-link" }),
      });
      // The page that answers is the old link's, which no longer opens the order (410), saying a new one was sent.
      await expectStatus(renew, [200, 410], "asking for a new link");
      refused((await renew.text()).includes("We sent a new link to"), "no new link was sent");
      const old = await send(path);
      await expectStatus(old, 410, "the old link");
      const html = await old.text();
      refused(!html.includes("DEMO-") && !html.includes("Test Buyer"), "the old link shows the order");
      refused(
        html.includes(`/order/lookup?number=${number}`),
        "the old link does not say how to get a new one",
      );
      // Asking again with the old link sends nothing and opens nothing.
      const again = await send(path, {
        method: "POST",
        headers: form,
        body: new URLSearchParams({ intent: "new-link" }),
      });
      await expectStatus(again, 410, "a new link asked with the old one");
      // Numbers no order can have are no order, not a database error.
      for (const odd of ["2147483648", "99999999999999999999", "0x10", "1e3", "-1"])
        await expectStatus(await send(`/order/${odd}?key=${"A".repeat(32)}`), 404, `/order/${odd}`);
    },
  },
  {
    name: "take licence keys for free: the sandbox is offered only with the demo store's notice",
    async run({ send, refused, expectStatus }) {
      const checkout = await send("/payment");
      await expectStatus(checkout, 200, "the checkout");
      const html = await checkout.text();
      // The attack store is the demo store, whose file asks for the sandbox; a store imported from its own file
      // has none (tests/integration/seed.test.ts).
      refused(html.includes("Demo store: no money moves."), "the sandbox is offered without the demo notice");
    },
  },
  {
    name: "take licence keys for free: claim there is nothing to pay for an order with a price",
    async run({ send, refused, expectStatus }) {
      const answer = await send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm([{ groupKey: "Norton", id: "1", quantity: 1 }], { paymentMethod: "none" }),
      });
      await expectStatus(answer, 400, "an order with a price, placed as if nothing were to pay");
      refused((await answer.text()).includes("choose how to pay it"), "the refusal does not say why");
    },
  },
  {
    name: "order 99 of a product with an empty key pool that takes no waiting orders",
    async run({ send, signInAdmin, refused, expectStatus }) {
      const cookie = await signInAdmin();
      const id = `attack-empty-${randomInt(1e9)}`;
      const created = await send("/admin/products/new", {
        method: "POST",
        headers: { ...form, cookie },
        body: new URLSearchParams({
          groupKey: "McAfee",
          externalId: id,
          name: `Attack ${id}`,
          route: `/antivirus/mcafee/${id}`,
          price: "9.99",
          description: "A product with no licence keys.",
          img: "/placeholder/product/mcafee-total-protection.svg",
          waitingOrders: "refuse",
        }),
      });
      await expectStatus(created, 302, "creating the product");
      const line = { groupKey: "McAfee", id, quantity: 99 };
      const quote = await send("/api/cart/quote", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ lines: [line] }),
      });
      await expectStatus(quote, 200, "the quote");
      const priced = (await quote.json()) as {
        overStock: boolean;
        lines: Array<{ availability: { status: string } }>;
      };
      refused(
        priced.overStock && priced.lines[0]?.availability.status === "unavailable",
        "the quote sells it",
      );
      const order = await send("/payment", { method: "POST", headers: form, body: checkoutForm([line]) });
      await expectStatus(order, 400, "the order");
      refused(
        (await order.text()).includes("is out of stock and cannot be ordered now"),
        "the refusal does not say which line",
      );
    },
  },
  {
    name: "tamper with quantities (0, -1, 1e9, 1.5, text) at the cart quote and the checkout",
    async run({ send, refused, expectStatus }) {
      for (const quantity of QUANTITY_TAMPERING) {
        const lines = [{ groupKey: "Norton", id: "1", quantity }];
        const quote = await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines }),
        });
        await expectStatus(quote, 400, `the quote with ${String(quantity)}`);
        const { error } = (await quote.json()) as { error: string };
        refused(
          error.includes("the quantity must be a whole number from 1 to 99"),
          `quote message: ${error}`,
        );
        // The form carries whatever the attacker puts in its cart.
        const tampered = lines as Array<{ groupKey: string; id: string; quantity: number }>;
        const order = await send("/payment", { method: "POST", headers: form, body: checkoutForm(tampered) });
        await expectStatus(order, 400, `the order with ${String(quantity)}`);
        refused(
          (await order.text()).includes("the quantity must be a whole number from 1 to 99"),
          `the checkout does not say what is wrong with ${String(quantity)}`,
        );
      }
    },
  },
  {
    name: "send cart lines of the wrong shape (no product, long keys, forged names and prices) to the cart quote",
    async run({ send, refused, expectStatus }) {
      const product = { groupKey: "Norton", id: "1", quantity: 1 };
      for (const line of [
        { ...product, groupKey: "" },
        { ...product, groupKey: "N".repeat(61) },
        { ...product, id: "1".repeat(101) },
        { ...product, groupKey: ["Norton"] },
        { ...product, name: null },
        { ...product, name: "N".repeat(301) },
        { ...product, priceCents: "1" },
        { ...product, priceCents: -1 },
        { ...product, priceCents: 0.5 },
        { ...product, priceCents: 1e12 },
        [product],
        "Norton",
        null,
      ]) {
        const quote = await send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: [line] }),
        });
        await expectStatus(quote, 400, `the quote with ${JSON.stringify(line).slice(0, 60)}`);
        const { error } = (await quote.json()) as { error: string };
        refused(error.includes("Line 1 of your cart is not a product of ours"), `quote message: ${error}`);
      }
      // A forged price is a hint at most: the quote charges the catalogue's.
      const quote = await send("/api/cart/quote", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ lines: [{ ...product, priceCents: 1 }] }),
      });
      await expectStatus(quote, 200, "the quote with a forged price");
      const { subtotalCents } = (await quote.json()) as { subtotalCents: number };
      refused(subtotalCents > 1, `the quote took the forged price (${subtotalCents})`);
    },
  },
  {
    name: "flood the contact form and the quote form from one client address",
    async run({ send, refused }) {
      for (const [path, fields] of [
        [
          "/contact",
          {
            name: "Flood",
            email: "flood@example.com",
            subject: "Hello",
            message: "A message to fill the inbox.",
          },
        ],
        [
          "/digital/web-development",
          {
            packageName: "Starter",
            name: "Flood",
            email: "flood@example.com",
            message: "A request to fill the inbox.",
          },
        ],
      ] as const) {
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) {
          const response = await send(path, {
            method: "POST",
            headers: form,
            body: new URLSearchParams(fields),
          });
          statuses.push(response.status);
        }
        refused(
          statuses.slice(-2).every((status) => status === 429),
          `${path} took ${statuses.join(", ")}`,
        );
      }
    },
  },
];
