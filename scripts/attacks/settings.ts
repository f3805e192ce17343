/** Attacks on the store settings (/admin/settings) and what they decide: payments, bank details, shipping. */
import type { Attack } from "./kit";
import { checkoutForm } from "./kit";

const form = (values: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(values).toString(),
});

const MARKUP = `<script>alert(1)</script><img src=x onerror=alert(2)>`;

export const settingsAttacks: Attack[] = [
  {
    name: "switch the sandbox on (free licence keys) through /admin/settings as a visitor, a customer or from another site",
    async run({ send, signUp, signInAdmin, refused, expectStatus }) {
      const on = { intent: "payments", sandboxPayments: "on" };
      const visitor = await send("/admin/settings", form(on));
      await expectStatus(visitor, [302, 303, 401, 403], "a visitor's post to the settings");
      refused(
        (visitor.headers.get("location") ?? "/admin").startsWith("/admin"),
        `a visitor was sent to ${visitor.headers.get("location")}`,
      );
      const customer = await signUp();
      const asCustomer = await send("/admin/settings", {
        ...form(on),
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: customer.cookie },
      });
      await expectStatus(asCustomer, 403, "a customer's post to the settings");
      const admin = await signInAdmin();
      const crossSite = await send("/admin/settings", {
        ...form(on),
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: admin,
          origin: "https://evil.example",
        },
      });
      await expectStatus(crossSite, 403, "a post to the settings from another site with the admin's cookie");
    },
  },
  {
    name: "break the settings with malformed posts (unknown sections, negative money, a bad IBAN, no countries, prototype keys)",
    async run({ send, signInAdmin, refused, expectStatus }) {
      const cookie = await signInAdmin();
      const post = (values: Record<string, string>) =>
        send("/admin/settings", {
          ...form(values),
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        });
      const bad: Array<[string, Record<string, string>]> = [
        ["an unknown section", { intent: "secrets", sandboxPayments: "on" }],
        ["no section", { sandboxPayments: "on" }],
        [
          "negative shipping",
          { intent: "shipping", shippingFlat: "-1", freeShippingThreshold: "10", "shipsTo.US": "on" },
        ],
        [
          "shipping in cents with a third decimal",
          { intent: "shipping", shippingFlat: "1.999", freeShippingThreshold: "10", "shipsTo.US": "on" },
        ],
        [
          "a huge amount",
          { intent: "shipping", shippingFlat: "1e308", freeShippingThreshold: "10", "shipsTo.US": "on" },
        ],
        ["no country", { intent: "shipping", shippingFlat: "5", freeShippingThreshold: "10" }],
        [
          "only unknown countries",
          {
            intent: "shipping",
            shippingFlat: "5",
            freeShippingThreshold: "10",
            "shipsTo.XX": "on",
            "shipsTo.__proto__": "on",
          },
        ],
        [
          "a prototype key",
          {
            intent: "shipping",
            shippingFlat: "5",
            freeShippingThreshold: "10",
            "__proto__.shipsTo": "on",
            "constructor.prototype.x": "1",
          },
        ],
        [
          "an IBAN with markup",
          { intent: "bank", bankAccountHolder: "X", bankIban: MARKUP, bankReference: "Order {number}" },
        ],
        [
          "a reference without the order number",
          { intent: "bank", bankAccountHolder: "X", bankAccountNumber: "12345678", bankReference: "pay me" },
        ],
        ["hours out of range", { intent: "delivery", waitingOrderHours: "99999999999999999999" }],
        ["a threshold that is not a number", { intent: "notifications", lowStockThreshold: "NaN" }],
        ["a store without a name", { intent: "store", name: "", email: "x", phone: "1", phonecall: "1" }],
        [
          "renewal days past a year",
          { intent: "renewals", renewalReminders: "on", renewalReminderDays: "9999" },
        ],
        ["renewal days given twice", { intent: "renewals", renewalReminderDays: "7, 7" }],
        ["negative renewal days", { intent: "renewals", renewalReminderDays: "-1" }],
        ["six renewal days", { intent: "renewals", renewalReminderDays: "1 2 3 4 5 6" }],
        ["renewal days as markup", { intent: "renewals", renewalReminderDays: MARKUP }],
      ];
      for (const [what, values] of bad) {
        const response = await post(values);
        await expectStatus(response, 400, `settings posted with ${what}`);
      }
      // The sandbox was never switched by any of them: checkout still offers what it offered.
      const page = await (await send("/admin/settings", { headers: { cookie } })).text();
      refused(!page.includes("<script>alert(1)"), "markup from a refused form came back as markup");
    },
  },
  {
    name: "put markup in the bank details so it runs on every buyer's order page",
    async run({ send, signInAdmin, refused, expectStatus }) {
      const cookie = await signInAdmin();
      const post = (values: Record<string, string>) =>
        send("/admin/settings", {
          ...form(values),
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        });
      const saved = await post({
        intent: "bank",
        bankAccountHolder: MARKUP,
        bankAccountNumber: "000123456789",
        bankRoutingNumber: "021000021",
        bankReference: `${MARKUP} {number}`,
        bankNote: MARKUP,
      });
      await expectStatus(saved, [302, 303], "saving bank details with markup (stored as text)");
      try {
        const placed = await send("/payment", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: checkoutForm([{ groupKey: "Norton", id: "1", quantity: 1 }]).toString(),
        });
        await expectStatus(placed, 302, "a bank-transfer order");
        const order = await send(placed.headers.get("location")!);
        const html = await order.text();
        refused(html.includes("Account holder"), "the order page shows no bank details");
        refused(
          !html.includes("<script>alert(1)") && !html.includes("<img src=x"),
          "the bank details' markup became elements on the order page",
        );
      } finally {
        await post({
          intent: "bank",
          bankAccountHolder: "KeyHaven Tech Store (sample details)",
          bankAccountNumber: "000123456789",
          bankRoutingNumber: "021000021",
          bankReference: "Order {number}",
          bankNote:
            "We ship and send licence keys once the payment arrives, usually within two business days.",
        });
      }
    },
  },
  {
    name: "have a router shipped to a country the store does not ship to",
    async run({ send, refused, expectStatus }) {
      const response = await send("/payment", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: checkoutForm([{ groupKey: "tplink", id: "1", quantity: 1 }], {
          "billing.country": "DE",
        }).toString(),
      });
      await expectStatus(response, 400, "a router shipped to Germany");
      refused((await response.text()).includes("We do not ship to Germany"), "the refusal does not say why");
    },
  },
];
