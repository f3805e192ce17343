/** Attacks on the e-mail outbox (/admin/emails): stored e-mails hold licence keys and order links. */
import type { Attack } from "./kit";

/** What a stored e-mail's body could give away, looked for in answers that must not carry it. */
// A key as e-mails print it ("Licence key: XXXX-..."), not the words the store's header uses ("Licence keys by e-mail").
const SECRETS = [
  /Licence keys?:\s*\S/i,
  /DEMO-[A-Z0-9]{5}-[A-Z0-9]{5}/,
  /\/order\/\d+\?key=/,
  /verify-email\?token=/,
  /View your order/,
];

export const outboxAttacks: Attack[] = [
  {
    name: "outbox: read stored e-mails (licence keys, order links) without being an admin: visitor, customer, data routes",
    async run({ send, signUp, refused, expectStatus }) {
      const { cookie } = await signUp();
      const paths = [
        "/admin/emails",
        "/admin/emails?id=1",
        "/admin/emails?id=2&status=sent",
        "/admin/emails.data?id=1",
        "/admin/emails.data",
        "/admin/emails?q=key",
      ];
      for (const path of paths) {
        const visitor = await send(path);
        // A page sends the visitor to the sign-in; a .data request gets the same redirect, encoded (202).
        const sentAway = path.includes(".data")
          ? visitor.status === 202 || visitor.status === 302
          : visitor.status === 302 &&
            (visitor.headers.get("location") ?? "").startsWith("/admin?redirectTo=");
        refused(sentAway, `${path} answered a visitor ${visitor.status}`);
        const customer = await send(path, { headers: { cookie } });
        await expectStatus(customer, 403, `${path} as a customer`);
        for (const [who, response] of [
          ["visitor", visitor],
          ["customer", customer],
        ] as const) {
          const body = await response.text();
          for (const secret of SECRETS)
            refused(!secret.test(body), `${path} showed a ${who} what a stored e-mail holds (${secret})`);
        }
      }
    },
  },
  {
    name: "outbox: resend e-mails as a customer, a visitor or from another site",
    async run({ send, signUp, signInAdmin, refused, mailCount }) {
      const { cookie } = await signUp();
      const before = mailCount();
      const form = () => new URLSearchParams({ intent: "resend", id: "1" });
      const visitor = await send("/admin/emails", { method: "POST", body: form() });
      refused(
        visitor.status === 302 || visitor.status === 401 || visitor.status === 403,
        `visitor got ${visitor.status}`,
      );
      const customer = await send("/admin/emails", { method: "POST", body: form(), headers: { cookie } });
      refused(customer.status === 403, `customer got ${customer.status}`);
      const admin = await signInAdmin();
      const crossSite = await send("/admin/emails", {
        method: "POST",
        body: form(),
        headers: { cookie: admin, origin: "https://evil.example" },
      });
      refused(
        crossSite.status >= 400 && crossSite.status < 500,
        `a cross-site resend got ${crossSite.status}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      refused(mailCount() === before, `${mailCount() - before} e-mail(s) went out`);
    },
  },
  {
    name: "outbox: feed the page and its resend button odd ids, searches and filters (never a 5xx)",
    async run({ send, signUp, signInAdmin, expectStatus, refused }) {
      await signUp(); // so there is an e-mail to open
      const cookie = await signInAdmin();
      const list = await (await send("/admin/emails", { headers: { cookie } })).text();
      const firstId = /[?&]amp;id=(\d+)|[?&]id=(\d+)/.exec(list);
      refused(firstId !== null, "the outbox lists no e-mail to open");
      const openId = firstId![1] ?? firstId![2]!;
      for (const id of [
        "0",
        "-1",
        "abc",
        "1e3",
        "99999999999",
        "2147483648",
        "1%00",
        "1;drop table outbox_emails",
      ]) {
        await expectStatus(
          await send(`/admin/emails?id=${encodeURIComponent(id)}`, { headers: { cookie } }),
          404,
          `opening e-mail ${id}`,
        );
      }
      for (const query of [
        `q=${"x".repeat(5000)}`,
        "q=%00%01",
        "q=%25%5F%5C",
        "status=sent'--",
        "status[]=sent",
        "sort=html&dir=sideways",
        "page=999999999999",
        "pageSize=100000",
      ]) {
        await expectStatus(
          await send(`/admin/emails?${query}`, { headers: { cookie } }),
          200,
          `/admin/emails?${query}`,
        );
      }
      const bodies: Array<Record<string, string>> = [
        { intent: "resend", id: "abc" },
        { intent: "resend" },
        { intent: "delete", id: "1" },
        { intent: "resend", id: "-5" },
      ];
      for (const body of bodies) {
        await expectStatus(
          await send("/admin/emails", {
            method: "POST",
            body: new URLSearchParams(body),
            headers: { cookie },
          }),
          400,
          `posting ${JSON.stringify(body)}`,
        );
      }
      await expectStatus(
        await send("/admin/emails", {
          method: "POST",
          body: new URLSearchParams({ intent: "resend", id: "2000000000" }),
          headers: { cookie },
        }),
        404,
        "resending an e-mail that does not exist",
      );
      // An open e-mail is shown in a sandboxed frame under a policy that lets nothing load or run, and is never cached.
      const open = await send(`/admin/emails?id=${openId}`, { headers: { cookie } });
      await expectStatus(open, 200, `the admin opening e-mail ${openId}`);
      refused(/no-store/.test(open.headers.get("cache-control") ?? ""), "an open e-mail may be cached");
      const html = await open.text();
      refused(/<iframe[^>]*sandbox=""/.test(html), "the e-mail's HTML is not in a sandboxed frame");
      refused(
        html.includes("default-src &#x27;none&#x27;") || html.includes("default-src 'none'"),
        "no policy",
      );
    },
  },
];
