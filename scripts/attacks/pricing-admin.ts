/** Attacks on the owner's discount codes (/admin/promotions) and taxes (/admin/taxes). */
import type { Attack, AttackKit } from "./kit";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const post = (
  kit: AttackKit,
  path: string,
  values: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  kit.send(path, {
    method: "POST",
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(values).toString(),
  });

const MARKUP = `<script>alert(1)</script><img src=x onerror=alert(2)>`;

/** A complete, valid discount code form with some fields changed. */
const code = (values: Record<string, string> = {}) => ({
  code: `ATTACK-${Date.now().toString(36).toUpperCase()}`,
  kind: "percent",
  value: "10",
  scope: "order",
  ...values,
});
const rule = (values: Record<string, string> = {}) => ({
  intent: "rule-save",
  country: "US",
  region: "NY",
  productKind: "all",
  name: "Attack tax",
  rate: "5",
  ...values,
});

export const pricingAdminAttacks: Attack[] = [
  {
    name: "create, pause or delete discount codes and tax rules as a visitor, a customer or from another site",
    async run(kit) {
      const { signUp, signInAdmin, refused, expectStatus, send } = kit;
      const writes: Array<[string, Record<string, string>]> = [
        ["/admin/promotions/new", code({ code: "FREE-FOR-ALL", value: "100" })],
        ["/admin/promotions", { intent: "pause", id: "1" }],
        ["/admin/promotions", { intent: "delete", id: "1" }],
        ["/admin/taxes", rule({ name: "Visitor tax", rate: "0" })],
        ["/admin/taxes", { intent: "prices", pricesIncludeTax: "on" }],
        ["/admin/taxes", { intent: "registration-save", country: "US", label: "EIN", number: "12-3456789" }],
      ];
      const customer = await signUp();
      const admin = await signInAdmin();
      for (const [path, values] of writes) {
        const visitor = await post(kit, path, values);
        await expectStatus(visitor, [302, 303], `a visitor's post to ${path}`);
        refused(
          (visitor.headers.get("location") ?? "").startsWith("/admin?redirectTo="),
          `a visitor posting to ${path} was sent to ${visitor.headers.get("location")}`,
        );
        await expectStatus(
          await post(kit, path, values, { cookie: customer.cookie }),
          403,
          `a customer's post to ${path}`,
        );
        await expectStatus(
          await post(kit, path, values, { cookie: admin, origin: "https://evil.example" }),
          403,
          `a post to ${path} from another site with the admin's cookie`,
        );
      }
      const list = await (
        await send("/admin/promotions?q=FREE-FOR-ALL", { headers: { cookie: admin } })
      ).text();
      refused(list.includes("No discount code matches"), "a refused post created the code FREE-FOR-ALL");
      const taxes = await (await send("/admin/taxes", { headers: { cookie: admin } })).text();
      refused(!taxes.includes("Visitor tax"), "a refused post created a tax rule");
      refused(!taxes.includes("12-3456789"), "a refused post added a tax registration");
    },
  },
  {
    name: "forge the discount code form: a 10,000-character code, a negative amount, over 100%, an end before its start, a forged kind or scope, unknown brands and products, prototype keys",
    async run(kit) {
      const { signInAdmin, refused, expectStatus, send } = kit;
      const cookie = await signInAdmin();
      const bad: Array<[string, Record<string, string>, string]> = [
        ["a 10,000-character code", code({ code: "A".repeat(10_000) }), "A code has at most 40 characters"],
        ["a code with markup", code({ code: "<b>x</b>" }), "Use only letters, digits, - and _"],
        [
          "a negative fixed amount",
          code({ kind: "fixed", value: "-5" }),
          "The amount must be more than $0.00",
        ],
        [
          "a huge fixed amount",
          code({ kind: "fixed", value: "1e308" }),
          "Enter the amount in dollars and cents",
        ],
        ["a percentage over 100", code({ value: "100.5" }), "The percentage can be at most 100%"],
        ["a negative percentage", code({ value: "-10" }), "The percentage cannot be negative"],
        [
          "an end before its start",
          code({ startsAt: "2027-01-02T00:00", endsAt: "2027-01-01T00:00" }),
          "The end must be after the start",
        ],
        ["a forged kind", code({ kind: "free-order" }), "Choose a percentage or a fixed amount"],
        ["a forged scope", code({ scope: "everything" }), "Choose what the code applies to"],
        [
          "an unknown section",
          code({ scope: "section", "sections.garden": "on" }),
          "Choose sections from the list",
        ],
        ["an unknown brand", code({ scope: "brands", "brands.Contoso": "on" }), "No such brand: Contoso"],
        [
          "a product that does not exist",
          code({ scope: "products", "products.2147483647": "on" }),
          "These products are not in the catalogue",
        ],
        [
          "a product id past the integer range",
          code({ scope: "products", "products.9999999999": "on" }),
          "These products are not in the catalogue",
        ],
        [
          "a SQL product id",
          code({ scope: "products", "products.1 or 1=1": "on" }),
          "Choose products from the list",
        ],
        ["a use limit of 0", code({ usageLimit: "0" }), "Enter a whole number from 1 to 1,000,000"],
        ["a use limit past the integer range", code({ usageLimit: "99999999999" }), "Enter a whole number"],
        [
          "prototype keys",
          code({
            "__proto__.paused": "on",
            "constructor.prototype.kind": "fixed",
            "brands.__proto__": "on",
            value: "",
          }),
          "Enter the percentage",
        ],
      ];
      for (const [what, values, message] of bad) {
        const response = await post(kit, "/admin/promotions/new", values, { cookie });
        await expectStatus(response, 400, `a discount code with ${what}`);
        const html = await response.text();
        refused(
          html.includes(message.replaceAll("'", "&#x27;")),
          `the refusal of ${what} does not say "${message}"`,
        );
        refused(!html.includes("<script>alert(1)"), `the refusal of ${what} sent markup back as markup`);
      }
      const list = await (await send("/admin/promotions", { headers: { cookie } })).text();
      refused(
        list.includes("No discount codes yet") || !list.includes("ATTACK-"),
        "a forged code was stored",
      );

      // A description with markup is kept as text and shown as text.
      const saved = await post(kit, "/admin/promotions/new", code({ description: MARKUP }), { cookie });
      await expectStatus(saved, [302, 303], "a code whose description holds markup (stored as text)");
      const shown = await (await send("/admin/promotions", { headers: { cookie } })).text();
      refused(
        !shown.includes("<script>alert(1)") && !shown.includes("<img src=x"),
        "a description became markup",
      );
    },
  },
  {
    name: "forge the tax forms: rates of -1 and 1000%, a state of another country, unknown rows, a stale registration",
    async run(kit) {
      const { signInAdmin, refused, expectStatus, send } = kit;
      const cookie = await signInAdmin();
      const bad: Array<[string, Record<string, string>, number, string]> = [
        ["a rate of -1", rule({ rate: "-1" }), 400, "The rate cannot be negative"],
        ["a rate of 1000%", rule({ rate: "1000" }), 400, "The rate can be at most 100%"],
        ["a rate in exponent form", rule({ rate: "1e2" }), 400, "Enter the rate as a number"],
        [
          "an Indian state for the United States",
          rule({ region: "KA" }),
          400,
          "Choose a state of United States",
        ],
        ["a forged country", rule({ country: "XX" }), 400, "Choose a country from the list"],
        ["a forged product kind", rule({ productKind: "everything" }), 400, "Choose what the rule taxes"],
        ["a name of markup only too long", rule({ name: MARKUP.repeat(5) }), 400, "At most 60 characters"],
        ["an edit of no rule", rule({ id: "2147483647" }), 404, "There is no such tax rule"],
        [
          "an edit with a forged id",
          rule({ id: "1; drop table tax_rules" }),
          404,
          "There is no such tax rule",
        ],
        [
          "a delete of no rule",
          { intent: "rule-delete", id: "99999999999" },
          404,
          "There is no such tax rule",
        ],
        [
          "a move sideways",
          { intent: "rule-move", id: "1", direction: "sideways" },
          400,
          "Move a rule up or down",
        ],
        [
          "a registration edited at a stale place",
          {
            intent: "registration-save",
            index: "7",
            was: "nothing",
            country: "US",
            label: "EIN",
            number: "12-3456789",
          },
          409,
          "The registrations changed since this page was opened",
        ],
        [
          "a registration deleted at a forged place",
          { intent: "registration-delete", index: "-1", was: "" },
          409,
          "The registrations changed since this page was opened",
        ],
        [
          "a GSTIN of the wrong shape",
          { intent: "registration-save", country: "IN", label: "GSTIN", number: "NOT-A-GSTIN" },
          400,
          "A GSTIN has 15 characters",
        ],
        ["an unknown intent", { intent: "drop", id: "1" }, 400, "Choose what to do with the page"],
      ];
      for (const [what, values, status, message] of bad) {
        const response = await post(kit, "/admin/taxes", values, { cookie });
        await expectStatus(response, status, `taxes posted with ${what}`);
        const html = await response.text();
        refused(
          html.includes(message.replaceAll("'", "&#x27;")),
          `the refusal of ${what} does not say "${message}"`,
        );
      }
      const page = await (await send("/admin/taxes", { headers: { cookie } })).text();
      refused(!page.includes("Attack tax"), "a refused rule was stored");
      refused(!page.includes("<script>alert(1)"), "markup from a refused form came back as markup");

      // The list's row buttons with forged ids: a clear 404, never a 500.
      for (const id of ["0", "-1", "abc", "99999999999", "1.5"]) {
        const response = await post(kit, "/admin/promotions", { intent: "delete", id }, { cookie });
        await expectStatus(response, 404, `deleting the discount code ${id}`);
      }
    },
  },
];
