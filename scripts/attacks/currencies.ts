/**
 * Attacks on prices in two currencies (docs/decisions/0039-prices-in-two-currencies.md): a currency forged in the
 * cart or the checkout post, a dollar price sent with rupees, a currency switched between the quote and the order,
 * and the page cache asked to hand one visitor's currency to another.
 */
import { formatMoney } from "~/lib/money";
import { type Attack, type AttackKit, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const json = { "content-type": "application/json" };
const NORTON = [{ groupKey: "Norton", id: "1", quantity: 1 }];
const PRODUCT_PAGE = "/antivirus/norton/360-deluxe";

/** What the store quotes for the cart in a currency (by the shopper's cookie). */
async function quoted(kit: AttackKit, currency: "USD" | "INR") {
  const response = await kit.send("/api/cart/quote", {
    method: "POST",
    headers: { ...json, cookie: `currency=${currency}` },
    body: JSON.stringify({ lines: NORTON }),
  });
  await kit.expectStatus(response, 200, `the ${currency} quote`);
  return (await response.json()) as { currency: string; totalCents: number };
}

/** Places the order as posted; returns the order page's HTML, or the refusal. */
async function post(kit: AttackKit, fields: Record<string, string>, cookie?: string) {
  const response = await kit.send("/payment", {
    method: "POST",
    headers: { ...form, ...(cookie ? { cookie } : {}) },
    body: checkoutForm(NORTON, fields),
  });
  if (response.status !== 302)
    return { placed: false as const, status: response.status, text: await response.text() };
  const page = await kit.send(response.headers.get("location")!);
  await kit.expectStatus(page, 200, "the order page");
  return { placed: true as const, status: 302, text: await page.text() };
}

/** The product page's price as rendered ("Price: ₹6,679.00"), markup removed. */
const priceShown = (html: string) =>
  (/data-testid="product-price"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "").replace(/<[^>]*>/g, "");
const totalOf = (html: string) => /data-testid="order-total"[^>]*>([^<]+)</.exec(html)?.[1] ?? "";
const rupees = (paise: number) => formatMoney(paise, "INR");

export const currencyAttacks: Attack[] = [
  {
    name: "currencies: a currency forged in the checkout post or the cart's quote: unknown, lower case, empty or padded",
    async run(kit) {
      for (const currency of ["EUR", "usd", "", "INR ", "₹"]) {
        const result = await post(kit, { currency });
        kit.refused(!result.placed, `an order was placed in ${JSON.stringify(currency)}`);
        kit.refused(
          result.status === 400,
          `checkout in ${JSON.stringify(currency)} got ${result.status}, not 400`,
        );
        const quote = await kit.send("/api/cart/quote", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ lines: NORTON, currency }),
        });
        await kit.expectStatus(quote, 400, `a quote in ${JSON.stringify(currency)}`);
        kit.refused(
          (await quote.text()).includes("The currency must be USD or INR"),
          "the refusal does not say why",
        );
      }
      // A cookie naming a currency the store does not sell in counts as none: dollars, never an error.
      const page = await kit.send(PRODUCT_PAGE, { headers: { cookie: "currency=XBT" } });
      await kit.expectStatus(page, 200, "a page with a forged currency cookie");
      kit.refused(priceShown(await page.text()).includes("$"), "a forged cookie did not get dollars");
      for (const query of ["currency=EUR", "currency=INR&currency=USD", "currency=%00"]) {
        const refused = await kit.send(`${PRODUCT_PAGE}?${query}`);
        await kit.expectStatus(refused, 400, `?${query}`);
        kit.refused(refused.headers.get("set-cookie") === null, `?${query} changed the kept currency`);
      }
    },
  },
  {
    name: "currencies: a dollar price sent with rupees: the cart's own prices and the dollar total, in a rupee checkout",
    async run(kit) {
      const [usd, inr] = [await quoted(kit, "USD"), await quoted(kit, "INR")];
      kit.refused(
        inr.currency === "INR" && inr.totalCents > usd.totalCents * 10,
        "the rupee quote is not in rupees",
      );
      // The dollar total as what the page showed, with rupees: refused, nothing placed.
      const mixed = await post(kit, { currency: "INR", expectedTotalCents: String(usd.totalCents) });
      kit.refused(!mixed.placed && mixed.status === 400, "a dollar total was taken for a rupee order");
      kit.refused(mixed.text.includes("Your total is now ₹"), "the refusal does not give the rupee total");
      // Prices in the cart's lines (a dollar price, a cent) are not used: the order is priced from the catalogue.
      const forged = await kit.send("/payment", {
        method: "POST",
        headers: form,
        body: checkoutForm([{ ...NORTON[0]!, priceCents: 1 } as never], { currency: "INR" }),
      });
      await kit.expectStatus(forged, 302, "the order with a price in its cart");
      const page = await (await kit.send(forged.headers.get("location")!)).text();
      kit.refused(
        totalOf(page) === rupees(inr.totalCents),
        `the order's total is ${totalOf(page)}, not ${rupees(inr.totalCents)}`,
      );
    },
  },
  {
    name: "currencies: switching currency between the quote and the order: the cookie changed, the post's currency left out",
    async run(kit) {
      const inr = await quoted(kit, "INR");
      const usd = await quoted(kit, "USD");
      // Quoted in rupees, then placed with the cookie switched to dollars: the rupee total no longer holds.
      const switched = await post(kit, { expectedTotalCents: String(inr.totalCents) }, "currency=USD");
      kit.refused(!switched.placed && switched.status === 400, "a rupee total was charged in dollars");
      // The post says rupees while the cookie says dollars: the order is in rupees, priced from the catalogue.
      const posted = await post(
        kit,
        { currency: "INR", expectedTotalCents: String(inr.totalCents) },
        "currency=USD",
      );
      kit.refused(
        posted.placed && totalOf(posted.text) === rupees(inr.totalCents),
        "the rupee order is not in rupees",
      );
      // No currency anywhere: dollars.
      const plain = await post(kit, { expectedTotalCents: String(usd.totalCents) });
      kit.refused(
        plain.placed && totalOf(plain.text).startsWith("$"),
        "an order without a currency is not in dollars",
      );
    },
  },
  {
    name: "currencies: poison the page cache with a rupee page for visitors in dollars, and the reverse",
    async run(kit) {
      const address = `${PRODUCT_PAGE}?poison=${Date.now()}`;
      for (const [first, second] of [
        ["currency=INR", undefined],
        [undefined, "currency=INR"],
      ] as const) {
        const url = `${address}-${first ?? "usd"}`;
        const kept = await kit.send(url, { headers: first ? { cookie: first } : {} });
        await kit.expectStatus(kept, 200, "the first visit");
        await kept.text();
        const other = await kit.send(url, { headers: second ? { cookie: second } : {} });
        await kit.expectStatus(other, 200, "the second visit");
        const html = await other.text();
        kit.refused(
          priceShown(html).includes("₹") === (second === "currency=INR"),
          `a ${second ? "rupee" : "dollar"} visitor got the other currency's page`,
        );
        kit.refused(
          (other.headers.get("vary") ?? "").includes("Cookie"),
          "a shared cache is not told the page varies by cookie",
        );
      }
    },
  },
];
