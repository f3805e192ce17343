/**
 * The abuse a live store meets in its first weeks: floods of unpaid orders that hold stock and bomb inboxes, and
 * crawlers that keep many connections busy.
 */
import { randomInt } from "node:crypto";
import http from "node:http";
import { type Attack, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const software = [{ groupKey: "Norton", id: "1", quantity: 1 }];

export const abuseAttacks: Attack[] = [
  {
    name: "place 30 unpaid bank-transfer orders in two seconds from one client, each for a stranger's address",
    async run({ send, refused, expectStatus }) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, n) =>
          send("/payment", {
            method: "POST",
            headers: form,
            body: checkoutForm(software, { email: `stranger-${randomInt(1e9)}-${n}@example.com` }),
          }),
        ),
      );
      const placed = answers.filter((answer) => answer.status === 302);
      refused(placed.length <= 10, `${placed.length} unpaid orders were placed from one client`);
      const limited = answers.filter((answer) => answer.status !== 302);
      refused(limited.length >= 20, "the flood was never refused");
      for (const answer of limited) {
        await expectStatus(answer, 429, "an order over the limit");
        refused(Number(answer.headers.get("retry-after")) > 0, "a refused order has no Retry-After");
        refused(
          (await answer.text()).includes("You have placed several unpaid orders in a short time"),
          "the refusal does not say why in words a shopper understands",
        );
      }
    },
  },
  {
    name: "bomb one address with unpaid orders from many client addresses",
    async run({ send, refused, expectStatus, randomAddress }) {
      const victim = `victim-${randomInt(1e9)}@example.com`;
      const statuses: number[] = [];
      for (let n = 0; n < 8; n++) {
        const answer = await send("/payment", {
          method: "POST",
          headers: form,
          body: checkoutForm(software, { email: victim }),
          from: randomAddress(),
        });
        statuses.push(answer.status);
        if (answer.status !== 302) await expectStatus(answer, 429, "an order over the address's limit");
      }
      refused(
        statuses.filter((status) => status === 302).length <= 5,
        `${statuses.join(", ")}: more than 5 unpaid orders for one address`,
      );
    },
  },
  {
    name: "keep 40 connections asking for pages never kept, to lock out visitors who connect meanwhile",
    async run({ baseURL, refused }) {
      const { hostname, port } = new URL(baseURL);
      const get = (path: string, agent: http.Agent | false) =>
        new Promise<number>((resolve, reject) => {
          http
            .get({ hostname, port, path, agent }, (res) => res.resume().on("end", () => resolve(res.statusCode!)))
            .on("error", reject);
        });
      const crawler = new http.Agent({ keepAlive: true, maxSockets: 40 });
      let crawled = 0;
      let stop = false;
      const statuses = new Set<number>();
      const loops = Array.from({ length: 40 }, async () => {
        while (!stop) {
          statuses.add(await get(`/search?q=${randomInt(1e9)}`, crawler));
          crawled++;
        }
      });
      while (crawled < 80) await new Promise((resolve) => setTimeout(resolve, 10));
      // Eight visitors, each on a connection of its own. Before requests took turns (server/turns.ts), each waited
      // to be accepted behind a turn of the loop that answered all forty: seconds, hundreds of the crawler's pages.
      const before = crawled;
      const visitors = await Promise.all(Array.from({ length: 8 }, () => get("/", false)));
      const meanwhile = crawled - before;
      stop = true;
      await Promise.all(loops);
      crawler.destroy();
      refused(
        [...statuses, ...visitors].every((status) => status === 200),
        `answers ${[...statuses, ...visitors].join(", ")} under the crawl`,
      );
      refused(meanwhile < 160, `the visitors were answered only after ${meanwhile} of the crawler's pages`);
    },
  },
];
