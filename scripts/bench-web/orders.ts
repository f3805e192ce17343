/**
 * The page cache's hit ratio while the store takes orders: visitors view the demo catalogue's pages (home, brand
 * pages, product pages) while an order taking stock comes in every 2 s, as a busy store's would.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { checkoutForm } from "../attacks/kit";

type Seed = {
  groups: Array<{
    key: string;
    section: string;
    products: Array<{ id: string; route: string; stock?: number }>;
  }>;
};

export type OrderMix = {
  /** Pages viewed (each at random): what a store-wide invalidation would make miss once after each order. */
  pages: number;
  views: number;
  hits: number;
  misses: number;
  other: number;
  orders: number;
  refused: number;
};

const VIEWERS = 8;
const ORDER_EVERY_MS = 2000;

export async function cacheUnderOrders(base: string, root: string, seconds: number): Promise<OrderMix> {
  const seed = JSON.parse(
    readFileSync(path.join(root, "app/modules/seed/data/catalogue.json"), "utf8"),
  ) as Seed;
  const pages = [
    "/",
    ...seed.groups.map((group) => `/${group.section}/${group.key.toLowerCase()}`),
    ...seed.groups.flatMap((group) => group.products.map((product) => product.route)),
  ];
  const counted = seed.groups.flatMap((group) =>
    group.products.filter((product) => product.stock !== undefined).map((product) => ({ group, product })),
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: VIEWERS });
  const view = (page: string) =>
    new Promise<{ status: number; cache: string | undefined }>((resolve, reject) => {
      const request = http.get(
        `${base}${page}`,
        { agent, headers: { "accept-encoding": "gzip" } },
        (response) => {
          response.resume();
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              cache: response.headers["x-cache"] as string | undefined,
            }),
          );
        },
      );
      request.on("error", reject);
    });
  // Every page once first: what is measured is the cache kept warm, not filled.
  const shown: string[] = [];
  for (const page of pages) if ((await view(page)).status === 200) shown.push(page);

  const mix: OrderMix = {
    pages: shown.length,
    views: 0,
    hits: 0,
    misses: 0,
    other: 0,
    orders: 0,
    refused: 0,
  };
  const until = Date.now() + seconds * 1000;
  const order = async () => {
    const { group, product } = counted[Math.floor(Math.random() * counted.length)]!;
    const n = Math.floor(Math.random() * 2 ** 24);
    const response = await fetch(`${base}/payment`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: base,
        // An address of its own per order: orders are limited per client.
        "x-forwarded-for": `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`,
      },
      body: checkoutForm([{ groupKey: group.key, id: product.id, quantity: 1 }]).toString(),
    });
    await response.arrayBuffer();
    if (response.status === 302) mix.orders += 1;
    else mix.refused += 1;
  };
  const orders = (async () => {
    while (Date.now() < until) {
      const started = Date.now();
      await order();
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, ORDER_EVERY_MS - (Date.now() - started))),
      );
    }
  })();
  const viewer = async () => {
    while (Date.now() < until) {
      const { status, cache } = await view(shown[Math.floor(Math.random() * shown.length)]!);
      mix.views += 1;
      if (status !== 200) mix.other += 1;
      else if (cache === "hit") mix.hits += 1;
      else mix.misses += 1;
    }
  };
  await Promise.all([orders, ...Array.from({ length: VIEWERS }, viewer)]);
  agent.destroy();
  return mix;
}
