/** Attacks on an order's life after payment: refunds, shipments, notes, keys e-mailed again and CSV exports. */
import { randomInt } from "node:crypto";
import { type Attack, type AttackKit, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };

async function placeOrder(
  { send, expectStatus }: AttackKit,
  lines: { groupKey: string; id: string; quantity: number }[],
) {
  const email = `life-${randomInt(1e9)}@example.com`;
  const placed = await send("/payment", {
    method: "POST",
    headers: form,
    body: checkoutForm(lines, { email, paymentMethod: "sandbox" }),
  });
  await expectStatus(placed, 302, "placing the order");
  const path = placed.headers.get("location")!.replace(/&placed=1$/, "");
  return { number: Number(/\/order\/(\d+)/.exec(path)![1]), path, email };
}

const adminPost = (kit: AttackKit, cookie: string, number: number, fields: Record<string, string>) =>
  kit.send(`/admin/orders/${number}`, {
    method: "POST",
    headers: { ...form, cookie },
    body: new URLSearchParams(fields),
  });

/** The order's row of the admin's CSV export: what was refunded against the total. */
async function refundedOf(kit: AttackKit, cookie: string, number: number) {
  const csv = await (await kit.send(`/admin/export/orders.csv?q=${number}`, { headers: { cookie } })).text();
  const [header, ...lines] = csv.replace(/^\uFEFF/, "").split("\r\n");
  const row = lines.find((line) => line.startsWith(`${number},`))!.split(",");
  // By name: the columns' places change as the export grows.
  const column = (name: string) => row[header!.split(",").indexOf(name)]!;
  return { total: column("total"), refunded: column("refunded") };
}

export const orderLifeAttacks: Attack[] = [
  {
    name: "refund more than was paid: too large, negative, odd and repeated amounts, lines of other orders",
    async run(kit) {
      const { refused, expectStatus } = kit;
      const cookie = await kit.signInAdmin();
      // An order placed before, so that the store's first line is never this order's, even in a store of none.
      await placeOrder(kit, [{ groupKey: "Norton", id: "1", quantity: 1 }]);
      const order = await placeOrder(kit, [{ groupKey: "Norton", id: "1", quantity: 1 }]);
      const base = { intent: "refund", confirm: "yes" };
      for (const amount of ["-1", "0", "1e9", "NaN", "12.345", "99999999", "Infinity", "0x10", " ", "$-5"]) {
        const response = await adminPost(kit, cookie, order.number, { ...base, mode: "amount", amount });
        await expectStatus(response, [400, 409], `a refund of ${JSON.stringify(amount)}`);
      }
      for (const lineId of ["0", "-1", "abc", "99999999999", "1.5"]) {
        const response = await adminPost(kit, cookie, order.number, { ...base, mode: "line", lineId });
        await expectStatus(response, [400, 409], `a refund of line ${lineId}`);
      }
      // A real line id, but of another order: the store's first line belongs to an order placed before these.
      const response = await adminPost(kit, cookie, order.number, { ...base, mode: "line", lineId: "1" });
      await expectStatus(response, [400, 409], "a refund of another order's line");
      // Two refunds of everything at once: one wins, the other is refused; never more than the total.
      const both = await Promise.all([
        adminPost(kit, cookie, order.number, { ...base, mode: "full" }),
        adminPost(kit, cookie, order.number, { ...base, mode: "full" }),
      ]);
      refused(
        both.filter((response) => response.status === 200).length === 1,
        `two concurrent full refunds answered ${both.map((response) => response.status).join(" and ")}`,
      );
      const after = await refundedOf(kit, cookie, order.number);
      refused(after.refunded === after.total, `refunded ${after.refunded} of ${after.total}`);
      const again = await adminPost(kit, cookie, order.number, { ...base, mode: "amount", amount: "1.00" });
      await expectStatus(again, 409, "a refund after a full refund");
    },
  },
  {
    name: "a revoked licence key stays hidden from the buyer's page after a refund",
    async run(kit) {
      const cookie = await kit.signInAdmin();
      const order = await placeOrder(kit, [{ groupKey: "Norton", id: "1", quantity: 1 }]);
      const before = await (await kit.send(order.path)).text();
      const key = /data-testid="licence-key"[^>]*>([^<]+)</.exec(before)?.[1];
      kit.refused(Boolean(key), "the paid order shows no key to begin with");
      await kit.expectStatus(
        await adminPost(kit, cookie, order.number, { intent: "refund", confirm: "yes", mode: "full" }),
        200,
        "the refund",
      );
      const after = await (await kit.send(order.path)).text();
      kit.refused(!after.includes(key!), "the refunded order still shows its licence key");
      const again = await kit.send(order.path, {
        method: "POST",
        headers: form,
        body: new URLSearchParams({ intent: "keys-again" }),
      });
      await kit.expectStatus(again, 404, "asking for a refunded order's keys again");
    },
  },
  {
    name: "e-mail a buyer's keys again without their link, and flood their inbox from many addresses",
    async run(kit) {
      const order = await placeOrder(kit, [{ groupKey: "Norton", id: "1", quantity: 1 }]);
      const withoutLink = await kit.send(`/order/${order.number}`, {
        method: "POST",
        headers: form,
        body: new URLSearchParams({ intent: "keys-again" }),
      });
      await kit.expectStatus(withoutLink, 404, "keys again without the order's link");
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await kit.send(order.path, {
          method: "POST",
          headers: form,
          body: new URLSearchParams({ intent: "keys-again" }),
          from: kit.randomAddress(),
        });
        statuses.push(response.status);
      }
      kit.refused(
        statuses.filter((status) => status === 200).length <= 3 && statuses.at(-1) === 429,
        `keys again from six addresses answered ${statuses.join(", ")}`,
      );
    },
  },
  {
    name: "tracking links that run script, notes with markup, and exports or refunds by a customer",
    async run(kit) {
      const cookie = await kit.signInAdmin();
      const order = await placeOrder(kit, [{ groupKey: "hp", id: "1", quantity: 1 }]);
      for (const trackingUrl of [
        "javascript:alert(1)",
        "data:text/html,<script>",
        "//evil.example/x",
        "https://",
      ]) {
        const response = await adminPost(kit, cookie, order.number, {
          intent: "ship",
          carrier: "other",
          otherCarrier: "Parcelforce",
          trackingNumber: "TRACK-1234",
          trackingUrl,
        });
        await kit.expectStatus(response, 400, `a tracking page ${trackingUrl}`);
      }
      // A carrier left out, or another one without a name or with a header's line break in it, ships nothing.
      for (const [what, fields] of [
        ["no carrier", {}],
        ["another carrier without its name", { carrier: "other" }],
        [
          "a carrier's name with a line break",
          { carrier: "other", otherCarrier: "Parcel\r\nBcc: x@evil.example" },
        ],
        ["a carrier's name of 1,000 characters", { carrier: "other", otherCarrier: "P".repeat(1000) }],
      ] as const) {
        const response = await adminPost(kit, cookie, order.number, {
          intent: "ship",
          trackingNumber: "TRACK-1234",
          trackingUrl: "https://track.example.com/TRACK-1234",
          ...fields,
        });
        await kit.expectStatus(response, 400, what);
      }
      const note = "<img src=x onerror=alert(1)>";
      await kit.expectStatus(
        await adminPost(kit, cookie, order.number, { intent: "customer-note", customerNote: note }),
        200,
        "the customer note",
      );
      const page = await (await kit.send(order.path)).text();
      kit.refused(!page.includes(note), "the customer note reached the page as markup");
      await kit.expectStatus(
        await adminPost(kit, cookie, order.number, { intent: "note", note: "x".repeat(5000) }),
        400,
        "a note of 5,000 characters",
      );
      const customer = await kit.signUp();
      for (const path of ["/admin/export/orders.csv", "/admin/export/keys.csv"]) {
        const response = await kit.send(path, { headers: { cookie: customer.cookie } });
        await kit.expectStatus(response, [302, 303, 403], `${path} for a customer`);
        kit.refused(
          !(await response.text()).includes("number,created_at"),
          `${path} gave a customer the orders`,
        );
      }
      const refund = await adminPost(kit, customer.cookie, order.number, {
        intent: "refund",
        confirm: "yes",
        mode: "full",
      });
      await kit.expectStatus(refund, [302, 303, 403], "a refund posted by a customer");
      const keys = await (await kit.send("/admin/export/keys.csv", { headers: { cookie } })).text();
      kit.refused(!/DEMO-\w+-/.test(keys), "the key export holds whole keys");
    },
  },
  {
    name: "a customer approves or rejects a held order (their own, on the admin's page or their order page); two admins decide at once",
    async run(kit) {
      const cookie = await kit.signInAdmin();
      const settings = (values: Record<string, string>) =>
        kit.send("/admin/settings", {
          method: "POST",
          headers: { ...form, cookie },
          body: new URLSearchParams({ intent: "holds", holdCheckHours: "12", ...values }),
        });
      // Only an order this large is held: 61 × 49.99.
      await kit.expectStatus(
        await settings({ holdsEnabled: "on", holdFirstOrderAbove: "3000.00" }),
        [302, 303],
        "turning holds on",
      );
      try {
        const order = await placeOrder(kit, [{ groupKey: "Norton", id: "1", quantity: 61 }]);
        const status = async () =>
          /data-status="(\w+)"/.exec(await (await kit.send(order.path)).text())?.[1] ?? "";
        kit.refused((await status()) === "held", `the large first order is ${await status()}, not held`);
        const customer = await kit.signUp();
        for (const intent of ["approve", "reject"]) {
          const fields = { intent, confirm: "yes" };
          const asCustomer = await adminPost(kit, customer.cookie, order.number, fields);
          await kit.expectStatus(asCustomer, [302, 303, 403], `${intent} posted by a customer`);
          const anonymous = await kit.send(`/admin/orders/${order.number}`, {
            method: "POST",
            headers: form,
            body: new URLSearchParams(fields),
          });
          await kit.expectStatus(anonymous, [302, 303, 401, 403], `${intent} posted by a visitor`);
          // The buyer's own order page (its secret link) knows no such request.
          const onOrderPage = await kit.send(order.path, {
            method: "POST",
            headers: form,
            body: new URLSearchParams(fields),
          });
          await kit.expectStatus(onOrderPage, [400, 403, 405], `${intent} posted to the buyer's order page`);
        }
        kit.refused((await status()) === "held", `a customer's posts moved the order to ${await status()}`);
        const both = await Promise.all([
          adminPost(kit, cookie, order.number, { intent: "approve" }),
          adminPost(kit, cookie, order.number, { intent: "reject", confirm: "yes" }),
        ]);
        oneDecision(kit, both);
      } finally {
        await settings({ holdsEnabled: "", holdFirstOrderAbove: "" });
      }
    },
  },
];

/** Of an approval and a rejection sent together, one is done and the other refused (409), never both. */
function oneDecision(kit: AttackKit, answers: Response[]) {
  const codes = answers.map((response) => response.status).sort();
  kit.refused(
    codes[0] === 200 && codes[1] === 409,
    `approve and reject at once answered ${codes.join(" and ")}`,
  );
}
