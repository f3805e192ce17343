/** Attacks on what pages show: their titles and meta tags, and the addresses that lead to other pages. */
import { randomInt } from "node:crypto";
import type { Attack, AttackKit } from "./kit";

const MARKUP = `</title><script>alert(1)</script><img src=x onerror=alert(2)>"'&`;

/** What a page's <head> holds between two marks, for checking what it shows. */
async function headOf(send: AttackKit["send"], path: string, headers?: HeadersInit) {
  const response = await send(path, { headers });
  const html = await response.text();
  return { status: response.status, head: html.slice(0, html.indexOf("</head>")), html };
}

/** True when the page carries the markup only as text: nothing of it became an element. */
function onlyAsText(html: string) {
  return (
    !html.includes("<script>alert(1)") &&
    !html.includes("<img src=x") &&
    !html.includes("</title><script>") &&
    !/<\/script><script>alert/.test(html)
  );
}

const title = (head: string) => /<title>([^<]*)<\/title>/.exec(head)?.[1] ?? "";

export const pageAttacks: Attack[] = [
  {
    name: "make search work as hard as it can: eight words each matching most products, digits, stop words, odd pages",
    async run({ send, refused, expectStatus }) {
      for (const query of [
        "pro plus security protection internet antivirus windows router",
        "1 2 3 4 5 6 7 8",
        "the and for with of to in on",
        "a".repeat(100),
        "é".repeat(60),
        "\u0301\u0301\u0301 norton",
      ]) {
        const first = await send(`/search?q=${encodeURIComponent(query)}`);
        await expectStatus(first, 200, `a search for ${JSON.stringify(query.slice(0, 40))}`);
        const html = await first.text();
        const total = Number(/(\d+) products? found/.exec(html)?.[1] ?? 0);
        refused(total <= 240, `a search answered ${total} results, more than the 240 kept`);
        const pages = Math.max(1, Math.ceil(total / 24));
        await expectStatus(
          await send(`/search?q=${encodeURIComponent(query)}&page=${pages}`),
          200,
          "the last page of a search",
        );
        await expectStatus(
          await send(`/search?q=${encodeURIComponent(query)}&page=${pages + 1}`),
          404,
          "the page after the last of a search",
        );
      }
      await expectStatus(await send("/search?q=norton&page=999999"), 404, "a search page far past the last");
    },
  },
  {
    name: "send shoppers off the store through the PC Matic spelling redirect (slashes, encoded slashes, backslashes, a forged host)",
    async run({ send, refused, expectStatus, origin }) {
      // The redirect exists: the typed spelling reaches the spec's route, query kept.
      const typed = await send("/antivirus/pcmatic/pro?ref=mail");
      await expectStatus(typed, 301, "the typed spelling of a PC Matic product");
      refused(
        typed.headers.get("location") === "/antvirus/pcmatic/pro?ref=mail",
        `it led to ${typed.headers.get("location")}`,
      );
      for (const path of [
        "/antivirus/pcmatic//evil.example",
        "/antivirus/pcmatic//evil.example/pro",
        "/antivirus/pcmatic/%2F%2Fevil.example",
        "/antivirus/pcmatic/%2f%2fevil.example%2fpro",
        "/antivirus/pcmatic/%5C%5Cevil.example",
        "/antivirus/pcmatic/%5Cevil.example/pro",
        "/antivirus/pcmatic/https:%2F%2Fevil.example",
        "/antivirus/pcmatic/pro/..%2F..%2F%2Fevil.example",
        "//antivirus/pcmatic/pro",
        "/%2Fevil.example/antivirus/pcmatic/pro",
        "/antivirus/pcmatic/pro?next=https://evil.example",
        "/antivirus/pcmatic/pro%0d%0aLocation:%20https://evil.example",
        "/antivirus/pcmatic/pro%00",
      ]) {
        const forgedHost: Record<string, string> = {
          host: "evil.example",
          "x-forwarded-host": "evil.example",
        };
        for (const headers of [{}, forgedHost]) {
          const response = await send(path, { headers });
          refused(response.status < 500, `${path} answered ${response.status}`);
          const location = response.headers.get("location");
          if (location === null) continue;
          // Resolved as a browser does (a backslash is a slash, "//" starts a host): it must stay on the store.
          const target = new URL(location, origin);
          refused(target.origin === origin, `${path} sent the browser to ${location}`);
        }
      }
    },
  },
  {
    name: "put markup in the titles and meta tags through an SEO record, a product and the search box",
    async run({ send, signInAdmin, refused, expectStatus }) {
      const cookie = await signInAdmin();
      const stamp = randomInt(1e9);
      const form = (fields: Record<string, string>) => ({
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });

      // An SEO record's title, description and keywords, as the owner (or a stolen admin session) wrote them.
      const seoRoute = `/antivirus/pcmatic`;
      const record = await send(
        "/admin/seo",
        form({
          intent: "create",
          route: seoRoute,
          title: `${MARKUP} record ${stamp}`,
          description: `${MARKUP} description`,
          keywords: `${MARKUP} keywords`,
        }),
      );
      await expectStatus(record, [302, 303], "saving the SEO record");
      const brand = await headOf(send, seoRoute);
      refused(brand.status === 200, `the brand page answered ${brand.status}`);
      refused(onlyAsText(brand.html), "the SEO record's markup became part of the page");
      refused(
        title(brand.head).includes(`&lt;script&gt;alert(1)&lt;/script&gt;`) &&
          title(brand.head).includes(`record ${stamp}`),
        `the record's title is not the page's title, as text: ${title(brand.head)}`,
      );

      // A product's name and description: the page's title, description and structured data.
      const route = `/antivirus/norton/markup-${stamp}`;
      const created = await send(
        "/admin/products/new",
        form({
          groupKey: "Norton",
          externalId: `markup-${stamp}`,
          name: `Norton ${MARKUP}`,
          description: `${MARKUP} a product description`,
          price: "49.99",
          img: "/placeholder/product/markup.svg",
          route,
          specifications: `Platform: ${MARKUP}`,
        }),
      );
      await expectStatus(created, [302, 303], "creating the product");
      const product = await headOf(send, route);
      refused(product.status === 200, `the product page answered ${product.status}`);
      refused(onlyAsText(product.html), "the product's name became markup in the page");
      refused(
        title(product.head).startsWith("Norton &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
        `the product's name is not the page's title, as text: ${title(product.head)}`,
      );
      const jsonLd =
        /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(product.head)?.[1] ?? "";
      refused(!/[<>]/.test(jsonLd), "the structured data carries raw angle brackets");

      // The search box: what was searched is in the title, as text.
      const search = await headOf(send, `/search?q=${encodeURIComponent(MARKUP)}`);
      refused(search.status === 200, `the search page answered ${search.status}`);
      refused(onlyAsText(search.html), "the search words became markup in the page");
      refused(
        title(search.head).startsWith("Search results for “&lt;/title&gt;&lt;script&gt;"),
        `the search words are not in the title, as text: ${title(search.head)}`,
      );
    },
  },
];
