/** A large catalogue for the benchmark: the demo products copied under new names, routes and prices. */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import {
  brandTiles,
  productsWithTagPage,
  resolveCataloguePath,
  sectionHighlights,
} from "~/modules/catalogue/catalogue.server";
import { searchPage } from "~/modules/catalogue/search.server";

const EDITIONS = [
  "Plus",
  "Pro",
  "Max",
  "Lite",
  "Family",
  "Business",
  "Ultimate",
  "Essentials",
  "Premier",
  "Home",
];

/** Fills the catalogue up to `total` visible products (each brand grows alike); returns the count. */
export async function growCatalogue(db: Database, total: number): Promise<number> {
  const editions = sql.raw(`array[${EDITIONS.map((word) => `'${word}'`).join(",")}]`);
  await db.execute(sql`
    with base as (select * from products where route not like '%/bench-%'),
         wanted as (select greatest(0, ${total} - (select count(*) from products))::int as n)
    insert into products (group_key, external_id, name, description, price_cents, original_price_cents, categories,
                          img, route, specifications, position, hidden, waiting_orders, stock)
    select base.group_key, base.external_id || '-bench-' || i,
           base.name || ' ' || (${editions})[i % 10 + 1] || ' ' || i, base.description,
           base.price_cents + (i % 40) * 100, base.original_price_cents + (i % 40) * 100,
           case when i % 7 = 0 then base.categories else '{}'::text[] end,
           base.img, base.route || '/bench-' || i, base.specifications, base.position + i, false,
           base.waiting_orders, base.stock
    from generate_series(1, (select n from wanted) / greatest(1, (select count(*) from base)) + 1) as i
    cross join base
    limit (select n from wanted)`);
  await db.execute(sql`analyze products`);
  const result = (await db.execute(sql`select count(*)::int as n from products`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]!.n;
}

/** What shoppers type: brand names, product words, typos, several words. */
export const SEARCHES = [
  "norton",
  "nortn",
  "kaspersky internet security",
  "kasperski",
  "mcafee total protection",
  "laserjet",
  "epson ecotank",
  "wifi router",
  "mesh wi-fi",
  "windows 7 professional",
  "antivirus",
  "vpn",
  "bitdefender",
  "cisco business",
  "tp-link archer",
  "printer",
];

/**
 * Wall-clock times and this process's CPU time (user and system: the embedded database runs in it) of each call,
 * in ms. On a machine shared with other work the wall-clock times wait for a core; the CPU times do not.
 */
export type Times = { wall: number[]; cpu: number[] };

async function timed(times: Times, record: boolean, run: () => Promise<unknown>) {
  const [wall, cpu] = [performance.now(), process.cpuUsage()];
  await run();
  if (!record) return;
  const used = process.cpuUsage(cpu);
  times.wall.push(performance.now() - wall);
  times.cpu.push((used.user + used.system) / 1000);
}

/**
 * Rounds run before the timed ones: the first builds the search index; the next ones let the JIT compile the
 * loops for the catalogue's size and the database read the table pages the cards come from, as a store that has
 * been serving a while has done (the first two rounds after the catalogue grew to 100,000 ran about twice as slow).
 */
const WARM_UP_ROUNDS = 5;

/**
 * Times each search `rounds` times (after WARM_UP_ROUNDS). A search is what the search page asks for: the ranking
 * and the first page's cards.
 */
export async function timeSearches(db: Database, rounds: number): Promise<Times> {
  const times: Times = { wall: [], cpu: [] };
  for (let round = -WARM_UP_ROUNDS; round < rounds; round++) {
    for (const query of SEARCHES) await timed(times, round >= 0, () => searchPage({ db }, query, 1));
  }
  return times;
}

/** The data of the other pages that list products, as their loaders read it (without the snapshot). */
export const LIST_PAGES: Array<{ name: string; read: (db: Database) => Promise<unknown> }> = [
  { name: "brand page", read: (db) => resolveCataloguePath({ db }, "/antivirus/mcafee", 1) },
  { name: "brand page 40", read: (db) => resolveCataloguePath({ db }, "/antivirus/mcafee", 40) },
  { name: "product page", read: (db) => resolveCataloguePath({ db }, "/antivirus/mcafee/total-protection") },
  {
    name: "section page",
    read: (db) => Promise.all([brandTiles({ db }, "antivirus"), sectionHighlights({ db }, "antivirus")]),
  },
  { name: "best sellers", read: (db) => productsWithTagPage({ db }, "best-seller", 1) },
  { name: "best sellers 40", read: (db) => productsWithTagPage({ db }, "best-seller", 40) },
];

/** Times each list page's data `rounds` times (after WARM_UP_ROUNDS), per page. */
export async function timeListPages(db: Database, rounds: number): Promise<Map<string, Times>> {
  const times = new Map(LIST_PAGES.map((page) => [page.name, { wall: [], cpu: [] } as Times]));
  for (let round = -WARM_UP_ROUNDS; round < rounds; round++) {
    for (const page of LIST_PAGES) await timed(times.get(page.name)!, round >= 0, () => page.read(db));
  }
  return times;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
