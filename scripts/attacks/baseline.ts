/** Attacks the store refused from the start; they stay here so they stay refused. */
import { type Attack, checkoutForm } from "./kit";

const McAfee = { groupKey: "McAfee", id: "1" };

export const baselineAttacks: Attack[] = [
  {
    name: "tamper with a price: the cart quote and the order charge the catalogue's price",
    async run({ send, refused, expectStatus }) {
      const quote = await send("/api/cart/quote", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ lines: [{ ...McAfee, name: "x", priceCents: 1, quantity: 1 }] }),
      });
      await expectStatus(quote, 200, "quote");
      const body = (await quote.json()) as { subtotalCents: number };
      refused(body.subtotalCents === 7999, `the quote charged ${body.subtotalCents} cents`);
      const order = await send("/payment", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: checkoutForm([{ ...McAfee, quantity: 1 }], { priceCents: "1", totalCents: "1" }),
      });
      await expectStatus(order, 302, "placing the order");
      const page = await send(order.headers.get("location")!);
      const html = await page.text();
      refused(html.includes("$79.99") && !html.includes("$0.01"), "the order page shows another total");
    },
  },
  {
    name: "read another buyer's order by its number (no link, or signed in as someone else)",
    async run({ send, signUp, refused, expectStatus }) {
      const placed = await send("/payment", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: checkoutForm([{ ...McAfee, quantity: 1 }]),
      });
      await expectStatus(placed, 302, "placing the order");
      const number = /\/order\/(\d+)/.exec(placed.headers.get("location")!)![1];
      await expectStatus(await send(`/order/${number}`), 404, "the order without its link");
      await expectStatus(
        await send(`/order/${number}?key=${"A".repeat(32)}`),
        404,
        "the order with a forged key",
      );
      const { cookie } = await signUp();
      const other = await send(`/order/${number}`, { headers: { cookie } });
      await expectStatus(other, 404, "the order signed in as another customer");
      refused(!(await other.text()).includes("Test Buyer"), "another customer saw the buyer's name");
    },
  },
  {
    name: "post a form from another site (CSRF), with the origin forged or hidden",
    async run({ send, expectStatus }) {
      for (const origin of ["https://evil.example", "null"]) {
        const response = await send("/contact", {
          method: "POST",
          headers: { origin, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ name: "x", email: "x@example.com", message: "hello there" }),
        });
        await expectStatus(response, 403, `a post from origin ${origin}`);
      }
      const crossSite = await send("/user/logout", {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" },
      });
      await expectStatus(crossSite, 403, "a cross-site logout");
    },
  },
  {
    name: "inject a script through the search box and the 404 page",
    async run({ send, refused }) {
      const payload = `"><script>alert(1)</script><img src=x onerror=alert(1)>`;
      for (const path of [
        `/search?q=${encodeURIComponent(payload)}`,
        `/nothing-${encodeURIComponent(payload)}`,
      ]) {
        const html = await (await send(path)).text();
        refused(
          !html.includes("<script>alert(1)</script>") && !html.includes("<img src=x"),
          `${path} echoes markup`,
        );
      }
    },
  },
  {
    name: "inject SQL through search, product routes and list queries",
    async run({ send, expectStatus }) {
      for (const path of [
        `/search?q=${encodeURIComponent("' OR 1=1 --")}`,
        `/search?q=${encodeURIComponent("%'; drop table orders; --")}`,
        `/antivirus/${encodeURIComponent("x' or '1'='1")}`,
        `/best-sellers?page=${encodeURIComponent("1; select pg_sleep(5)")}`,
      ]) {
        await expectStatus(await send(path), [200, 404], path);
      }
    },
  },
  {
    name: "bounce visitors to another site through the blog redirect and sign-in's redirectTo",
    async run({ send, refused }) {
      const blog = await send("/blog/..%2F%2Fevil.example%2F?x=1");
      refused(
        new URL(blog.headers.get("location")!).host === "blog.example.com",
        "the blog redirect left the blog",
      );
      for (const target of [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example",
        "javascript:alert(1)",
      ]) {
        const page = await (await send(`/user/login?redirectTo=${encodeURIComponent(target)}`)).text();
        refused(
          !page.includes('value="https://evil') && !page.includes('value="//evil'),
          `redirectTo ${target} kept`,
        );
      }
    },
  },
  {
    name: "walk out of the storage folder with ../ in an object path",
    async run({ send, expectStatus }) {
      for (const path of ["..%2F..%2Fsecrets.json", "..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e%2fsecrets.json"]) {
        await expectStatus(await send(`/api/storage/v0/b/products/o/${path}`), [400, 403, 404], path);
        await expectStatus(
          await send(`/api/storage/v0/b/products/o/${path}?alt=media`),
          [400, 403, 404],
          path,
        );
      }
    },
  },
  {
    name: "ask the sitemap for files it has not: numbers past the end, huge, negative, odd, or a path out of it",
    async run({ send, expectStatus }) {
      for (const file of [
        "1.xml",
        "0.xml",
        "-1.xml",
        "1e9.xml",
        "9".repeat(400) + ".xml",
        "1.5.xml",
        "..%2Fsecrets",
      ]) {
        await expectStatus(await send(`/sitemaps/${file}`), [400, 404], `/sitemaps/${file}`);
      }
    },
  },
  {
    name: "a customer makes themselves admin (sign-up field, admin API, admin pages)",
    async run({ send, signUp, expectStatus, refused }) {
      const signUpAsAdmin = await send("/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: `root-${Date.now()}@example.com`,
          password: "attack-password-1",
          name: "x",
          role: "admin",
        }),
      });
      refused(
        signUpAsAdmin.status !== 200 || !(await signUpAsAdmin.text()).includes('"role":"admin"'),
        "sign-up made an admin",
      );
      const { cookie } = await signUp();
      const me = (await (await send("/api/auth/get-session", { headers: { cookie } })).json()) as {
        user: { id: string };
      };
      const setRole = await send("/api/auth/admin/set-role", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ userId: me.user.id, role: "admin" }),
      });
      await expectStatus(setRole, [401, 403], "admin set-role by a customer");
      await expectStatus(
        await send("/admin/users", { headers: { cookie } }),
        403,
        "/admin/users as a customer",
      );
      await expectStatus(
        await send("/admin/users.data", { headers: { cookie } }),
        403,
        "/admin/users.data as a customer",
      );
    },
  },
  {
    name: "forge a Stripe webhook",
    async run({ send, expectStatus }) {
      const forged = await send("/api/stripe/webhook", {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=deadbeef" },
        body: JSON.stringify({
          type: "checkout.session.completed",
          data: { object: { metadata: { orderId: "1" } } },
        }),
      });
      await expectStatus(forged, [400, 404], "a forged webhook");
    },
  },
];
