/** Attacks on the stock of printers and routers and on the product CSV export. */
import { randomInt } from "node:crypto";
import { type Attack, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };

/** A new router of the attacker's own making (as the admin), with the given stock and out-of-stock rule. */
function routerForm(id: string, stock: string, waitingOrders: "wait" | "refuse" = "refuse") {
  return new URLSearchParams({
    groupKey: "tplink",
    externalId: id,
    name: `Attack router ${id}`,
    route: `/router/tplink/${id}`,
    price: "99.99",
    description: "A router for the stock attacks.",
    img: "/placeholder/product/mcafee-total-protection.svg",
    waitingOrders,
    stock,
  });
}

export const stockAttacks: Attack[] = [
  {
    name: "buy the last router ten times at once, hoping two orders see the same count",
    async run({ send, signInAdmin, refused, expectStatus }) {
      const cookie = await signInAdmin();
      const id = `attack-last-${randomInt(1e9)}`;
      const created = await send("/admin/products/new", {
        method: "POST",
        headers: { ...form, cookie },
        body: routerForm(id, "1"),
      });
      await expectStatus(created, 302, "creating the router");
      const line = { groupKey: "tplink", id, quantity: 1 };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          send("/payment", { method: "POST", headers: form, body: checkoutForm([line]) }),
        ),
      );
      const placed = answers.filter((answer) => answer.status === 302 || answer.status === 303);
      refused(placed.length === 1, `${placed.length} orders took the one router`);
      for (const answer of answers.filter((a) => a.status !== 302 && a.status !== 303)) {
        await expectStatus(answer, 400, "a refused order");
        refused(
          (await answer.text()).includes("is out of stock and cannot be ordered now"),
          "a refused order is not told the router is out of stock",
        );
      }
    },
  },
  {
    name: "give a product a negative, fractional, huge or text stock, or a stock count on software",
    async run({ send, signInAdmin, refused, expectStatus }) {
      const cookie = await signInAdmin();
      for (const stock of ["-1", "1.5", "99999999999", "abc", "1e3", " 0x10"]) {
        const id = `attack-stock-${randomInt(1e9)}`;
        const answer = await send("/admin/products/new", {
          method: "POST",
          headers: { ...form, cookie },
          body: routerForm(id, stock),
        });
        await expectStatus(answer, 400, `a stock of ${stock}`);
        refused(
          (await answer.text()).includes("Enter a whole number of units"),
          `no message for a stock of ${stock}`,
        );
      }
      const id = `attack-soft-${randomInt(1e9)}`;
      const software = await send("/admin/products/new", {
        method: "POST",
        headers: { ...form, cookie },
        body: new URLSearchParams({
          groupKey: "Norton",
          externalId: id,
          name: `Attack ${id}`,
          route: `/antivirus/norton/${id}`,
          price: "9.99",
          description: "Software with a stock count.",
          img: "/placeholder/product/mcafee-total-protection.svg",
          stock: "5",
        }),
      });
      await expectStatus(software, 409, "a stock count on software");
      refused(
        (await software.text()).includes("Software counts its licence keys"),
        "no message for a stock count on software",
      );
    },
  },
  {
    name: "download the product export as a visitor, as a customer, and with tampered filters",
    async run({ send, signUp, signInAdmin, refused, expectStatus }) {
      const visitor = await send("/admin/export/products.csv");
      await expectStatus(visitor, [302, 303], "the export for a visitor");
      refused(!(visitor.headers.get("content-type") ?? "").includes("csv"), "a visitor got the CSV");
      const customer = await signUp();
      const asCustomer = await send("/admin/export/products.csv", { headers: { cookie: customer.cookie } });
      await expectStatus(asCustomer, 403, "the export for a customer");
      const cookie = await signInAdmin();
      for (const query of [
        "?sort=price;drop table products&dir=sideways",
        "?stock=%27%20or%201=1--&group=%3Cscript%3E",
        `?q=${"%".repeat(300)}&page=-1`,
      ]) {
        const answer = await send(`/admin/export/products.csv${query}`, { headers: { cookie } });
        await expectStatus(answer, 200, `the export with ${query}`);
        refused((answer.headers.get("cache-control") ?? "").includes("no-store"), "the export may be cached");
      }
    },
  },
];
