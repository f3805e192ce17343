/** Attacks on invoices and credit notes: other buyers' documents, the accountant's export, forged ranges. */
import { randomInt } from "node:crypto";
import { type Attack, type AttackKit, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };

/** A paid order (sandbox) with its secret link's key. */
async function paidOrder({ send, expectStatus }: AttackKit) {
  const email = `invoice-${randomInt(1e9)}@example.com`;
  const placed = await send("/payment", {
    method: "POST",
    headers: form,
    body: checkoutForm([{ groupKey: "Norton", id: "1", quantity: 1 }], { email, paymentMethod: "sandbox" }),
  });
  await expectStatus(placed, 302, "placing the order");
  const path = placed.headers.get("location")!.replace(/&placed=1$/, "");
  return {
    number: Number(/\/order\/(\d+)/.exec(path)![1]),
    key: new URL(path, "http://store").searchParams.get("key")!,
    email,
  };
}

const isPdf = async (response: Response) =>
  response.status === 200 &&
  response.headers.get("content-type") === "application/pdf" &&
  Buffer.from(await response.arrayBuffer())
    .subarray(0, 5)
    .toString() === "%PDF-";

export const invoiceAttacks: Attack[] = [
  {
    name: "download another buyer's invoice: no key, another order's key, an old key, a stranger's session, another order's document",
    async run(kit) {
      const { send, refused, expectStatus } = kit;
      const victim = await paidOrder(kit);
      const attacker = await paidOrder(kit);
      const own = await send(`/order/${victim.number}/documents/invoice.pdf?key=${victim.key}`);
      refused(
        await isPdf(own),
        "the buyer's own link should download the invoice (the attack needs a baseline)",
      );
      // What an order that does not exist answers: every refusal must look the same.
      const missing = await send(`/order/999999999/documents/invoice.pdf?key=${victim.key}`);
      await expectStatus(missing, 404, "a document of an order that does not exist");
      const missingBody = await missing.text();
      const stranger = await kit.signUp();
      const tries: Array<[string, RequestInit]> = [
        [`/order/${victim.number}/documents/invoice.pdf`, {}],
        [`/order/${victim.number}/documents/invoice.pdf?key=${attacker.key}`, {}],
        [`/order/${victim.number}/documents/invoice.pdf?key=${"A".repeat(32)}`, {}],
        [`/order/${victim.number}/documents/invoice.pdf?key=${victim.key.slice(0, 31)}`, {}],
        [`/order/${victim.number}/documents/invoice.pdf`, { headers: { cookie: stranger.cookie } }],
        // The attacker's own key, and the victim's document by its number under the attacker's order.
        [`/order/${attacker.number}/documents/CN-000001.pdf?key=${attacker.key}`, {}],
        [
          `/order/${attacker.number}/documents/INV-${String(victim.number).padStart(6, "0")}.pdf?key=${attacker.key}`,
          {},
        ],
        [`/order/${attacker.number}/documents/..%2F..%2Fpackage.json?key=${attacker.key}`, {}],
        [`/order/${attacker.number}/documents/${"x".repeat(5000)}.pdf?key=${attacker.key}`, {}],
        [`/order/-1/documents/invoice.pdf?key=${attacker.key}`, {}],
        [`/order/99999999999/documents/invoice.pdf?key=${attacker.key}`, {}],
      ];
      for (const [path, init] of tries) {
        const response = await send(path, init);
        await expectStatus(response, 404, `GET ${path.slice(0, 120)}`);
        refused(
          (await response.text()) === missingBody,
          `${path.slice(0, 80)} answers unlike a missing order`,
        );
      }
      // A NUL byte in the name: refused as an unreadable address before any order is looked at, the same for all.
      const nul = await send(`/order/${attacker.number}/documents/invoice.pdf%00.txt?key=${attacker.key}`);
      await expectStatus(nul, 400, "a document name with a NUL byte");
      refused(!(await nul.text()).includes("%PDF-"), "a document name with a NUL byte opened a document");
      // Every invoice number the store has issued so far, under the attacker's order: none opens.
      for (let number = 1; number <= 5; number++) {
        const path = `/order/${attacker.number}/documents/INV-${String(number).padStart(6, "0")}.pdf?key=${attacker.key}`;
        const response = await send(path);
        if (response.status === 200) {
          const text = Buffer.from(await response.arrayBuffer()).toString("latin1");
          refused(!text.includes(victim.email), `${path} gave the victim's invoice`);
        } else await expectStatus(response, 404, `GET ${path}`);
      }
      // A link the buyer replaced stops opening the documents too.
      const renewed = await send(`/order/${victim.number}?key=${victim.key}`, {
        method: "POST",
        headers: form,
        body: new URLSearchParams({ intent: "new-link" }),
      });
      // The page shown after the new link is sent is rendered with the old key, which no longer opens it.
      await expectStatus(renewed, [200, 410], "asking for a new link");
      await expectStatus(
        await send(`/order/${victim.number}/documents/invoice.pdf?key=${victim.key}`),
        404,
        "the invoice by a replaced link",
      );
      // The admin's download is for admins only.
      const adminPath = `/admin/orders/${victim.number}/documents/invoice.pdf`;
      await expectStatus(await send(adminPath), 302, "the admin's download without a session");
      await expectStatus(
        await send(adminPath, { headers: { cookie: stranger.cookie } }),
        403,
        "the admin's download by a customer",
      );
    },
  },
  {
    name: "export the invoices CSV as a visitor or a customer",
    async run(kit) {
      const { send, refused, expectStatus } = kit;
      const path = "/admin/export/invoices.csv?from=2000-01-01&to=2100-12-31";
      const visitor = await send(path);
      await expectStatus(visitor, 302, "the export without a session");
      refused(!(await visitor.text()).includes("number,kind"), "a visitor got the export");
      const customer = await kit.signUp();
      const answer = await send(path, { headers: { cookie: customer.cookie } });
      await expectStatus(answer, 403, "the export by a customer");
      refused(!(await answer.text()).includes("number,kind"), "a customer got the export");
    },
  },
  {
    name: "forge the invoice export's range and the invoices list's filters",
    async run(kit) {
      const { send, refused, expectStatus } = kit;
      const cookie = await kit.signInAdmin();
      const forged = [
        "",
        "?from=2026-03-01",
        "?to=2026-03-01",
        "?from=2026-03-31&to=2026-03-01",
        "?from=2026-02-30&to=2026-03-01",
        "?from=99999-01-01&to=99999-12-31",
        "?from=1970-01-01&to=1970-01-02",
        "?from=2026-03-01'%20OR%201=1--&to=2026-03-02",
        "?from=now()&to=infinity",
        `?from=${"9".repeat(5000)}&to=2026-01-01`,
        "?from[]=2026-01-01&to[]=2026-01-02",
      ];
      for (const query of forged) {
        const response = await send(`/admin/export/invoices.csv${query}`, { headers: { cookie } });
        await expectStatus(response, 400, `the export with ${query.slice(0, 80) || "no range"}`);
        const body = await response.text();
        refused(!body.includes("number,kind"), `${query.slice(0, 80)} exported something`);
        refused(
          /day|YYYY-MM-DD|after/.test(body),
          `${query.slice(0, 80)} got no message saying what is wrong: ${body}`,
        );
      }
      const good = await send("/admin/export/invoices.csv?from=2000-01-01&to=2100-12-31", {
        headers: { cookie },
      });
      await expectStatus(good, 200, "the export of a real range");
      refused((await good.text()).includes("number,kind,date"), "the export of a real range has no header");
      for (const query of [
        "?q=%27%20OR%201=1--",
        "?q=INV-999999999999",
        "?from=2026-13-01&to=2026-13-02",
        "?from=x&to=y&kind=everything&page=-4&pageSize=100000",
        `?q=${"%00".repeat(50)}`,
      ]) {
        const response = await send(`/admin/invoices${query}`, { headers: { cookie } });
        await expectStatus(response, 200, `the invoices list with ${query}`);
      }
    },
  },
];
