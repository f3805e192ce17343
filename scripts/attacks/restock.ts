/**
 * Attacks on the back-in-stock form and links (/stock-alerts) and on saved carts (/api/cart/saved,
 * /user/saved-cart, /reminders/saved-cart).
 */
import { randomInt } from "node:crypto";
import type { Attack, AttackKit } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };

/** A router of the attacker's own making (as the admin), out of stock and refusing orders: its product id. */
async function unavailableRouter({ send, signInAdmin, expectStatus }: AttackKit): Promise<string> {
  const cookie = await signInAdmin();
  const id = `attack-restock-${randomInt(1e9)}`;
  const created = await send("/admin/products/new", {
    method: "POST",
    headers: { ...form, cookie },
    body: new URLSearchParams({
      groupKey: "tplink",
      externalId: id,
      name: `Attack router ${id}`,
      route: `/router/tplink/${id}`,
      price: "99.99",
      description: "A router for the back-in-stock attacks.",
      img: "/placeholder/product/mcafee-total-protection.svg",
      waitingOrders: "refuse",
      stock: "0",
    }),
  });
  await expectStatus(created, 302, "creating the router");
  const productId = /\/admin\/products\/(\d+)/.exec(created.headers.get("location") ?? "")?.[1];
  if (!productId) throw new Error(`creating the router led to ${created.headers.get("location")}`);
  return productId;
}

const notify = (kit: AttackKit, product: string, email: string, from?: string) =>
  kit.send("/stock-alerts", {
    method: "POST",
    headers: form,
    body: new URLSearchParams({ product, email }),
    ...(from ? { from } : {}),
  });

export const restockAttacks: Attack[] = [
  {
    name: "mail-bomb a stranger through the back-in-stock form, from many client addresses, and from one",
    async run(kit) {
      const { refused, expectStatus, randomAddress } = kit;
      const product = await unavailableRouter(kit);
      const victim = `victim-${randomInt(1e9)}@example.com`;
      const answers = [];
      for (let n = 0; n < 6; n++) answers.push((await notify(kit, product, victim, randomAddress())).status);
      refused(
        answers.filter((status) => status === 200).length <= 3,
        `${answers.join(", ")}: more than 3 confirmation e-mails to one address in an hour`,
      );
      const refusal = await notify(kit, product, victim, randomAddress());
      await expectStatus(refusal, 429, "a 7th request for one address");
      refused((await refusal.text()).includes("Too many attempts"), "the refusal does not say why");
      refused(refusal.headers.has("retry-after"), "the refusal does not say when to try again");

      // One client, a new address each time: the client's own limit stops it.
      const from = randomAddress();
      const statuses = [];
      for (let n = 0; n < 12; n++)
        statuses.push((await notify(kit, product, `spray-${n}-${randomInt(1e9)}@example.com`, from)).status);
      refused(statuses.includes(429), `one client asked for 12 addresses and got ${statuses.join(", ")}`);
    },
  },
  {
    name: "post nonsense to the back-in-stock form: no product, a made-up one, a huge id, a bad address, a variant it does not sell",
    async run(kit) {
      const { send, expectStatus } = kit;
      const product = await unavailableRouter(kit);
      const email = `nonsense-${randomInt(1e9)}@example.com`;
      const bodies: Array<[Record<string, string>, number[]]> = [
        [{ email }, [400]],
        [{ product: "abc", email }, [400]],
        [{ product: "99999999999999", email }, [400]],
        [{ product: "2000000000", email }, [404]],
        [{ product, email: "not-an-address" }, [400]],
        [{ product, email: `${"a".repeat(300)}@example.com` }, [400]],
        [{ product, variant: "NO-SUCH-SKU", email }, [404]],
      ];
      for (const [body, expected] of bodies)
        await expectStatus(
          await send("/stock-alerts", { method: "POST", headers: form, body: new URLSearchParams(body) }),
          expected,
          `the form with ${JSON.stringify(body).slice(0, 80)}`,
        );
      await expectStatus(
        await send("/stock-alerts", { method: "POST", headers: json, body: "{" }),
        400,
        "the form as broken JSON",
      );
    },
  },
  {
    name: "confirm or stop someone's back-in-stock alerts with made-up, altered and huge tokens",
    async run({ send, expectStatus }) {
      const encode = (text: string) => Buffer.from(text).toString("base64url");
      const tokens = [
        "",
        encode("1"),
        `${encode("1")}.${"A".repeat(32)}`,
        `${encode("someone@example.com")}.${"A".repeat(32)}`,
        `${encode("1")}.${"A".repeat(32)}.extra`,
        "%00%ff",
        "x".repeat(5000),
      ];
      for (const token of tokens)
        for (const page of ["confirm", "stop"]) {
          const path = `/stock-alerts/${page}?token=${encodeURIComponent(token)}`;
          await expectStatus(await send(path), [400, 414], `${page} with the token ${token.slice(0, 40)}`);
          await expectStatus(
            await send(path, { method: "POST", headers: form, body: "List-Unsubscribe=One-Click" }),
            [400, 414],
            `a POST to ${page} with the token ${token.slice(0, 40)}`,
          );
        }
    },
  },
  {
    name: "write or read a saved cart without an account, or someone else's, or send one the store cannot read or in a forged currency",
    async run({ send, signUp, expectStatus, refused }) {
      const line = { groupKey: "Bitdefender", id: "3", variant: "BD-TS-1D-1Y", quantity: 1 };
      await expectStatus(
        await send("/api/cart/saved", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: [line] }),
        }),
        401,
        "a guest's saved cart",
      );
      await expectStatus(await send("/api/cart/saved"), 405, "reading saved carts");
      const guest = await send("/user/saved-cart");
      refused(
        guest.status === 302 && (guest.headers.get("location") ?? "").startsWith("/user/login"),
        `a guest opened /user/saved-cart: ${guest.status}`,
      );
      const { cookie } = await signUp();
      for (const body of [
        "{",
        "null",
        '{"lines":"x"}',
        '{"lines":[{"groupKey":"x"}]}',
        JSON.stringify({ lines: [{ ...line, quantity: 1000 }] }),
        // A currency the store does not sell in, or one not written as it writes them.
        ...["EUR", "inr", "", 1, null, ["INR"]].map((currency) =>
          JSON.stringify({ lines: [line], currency }),
        ),
      ])
        await expectStatus(
          await send("/api/cart/saved", { method: "POST", headers: { ...json, cookie }, body }),
          400,
          `the saved cart ${body.slice(0, 40)}`,
        );
      // Whose cart is the session's to say: a user id in the body names nobody.
      const own = await send("/api/cart/saved", {
        method: "POST",
        headers: { ...json, cookie },
        body: JSON.stringify({ userId: "someone-else", lines: [line] }),
      });
      await expectStatus(own, 200, "the customer's own cart");
      const forged = `${Buffer.from("someone-else").toString("base64url")}.${"A".repeat(32)}`;
      await expectStatus(
        await send(`/reminders/saved-cart?token=${forged}`, { method: "POST", headers: form, body: "" }),
        400,
        "unsubscribing someone from cart reminders with a forged token",
      );
    },
  },
];
