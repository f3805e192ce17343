/**
 * The store at 100,000 products on PostgreSQL: how much memory a store process holds once its pages and search
 * have been used, and how soon an owner's edit reaches search and the listings.
 */
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "~db/client.server";
import { products } from "~db/schema";
import { growCatalogue, SEARCHES } from "./catalogue";
import { processTreeRssMb } from "./process-tree";

export type ScaleFigures = {
  products: number;
  /** Resident memory of the store's processes (the server and its workers), MB. */
  memoryMb: number;
  /** From the edit's commit to the first answer showing it, ms. */
  renameInSearchMs: number;
  hideFromListingMs: number;
};

/** A page's HTML; a store that has not answered in 5 s fails the run rather than hold it. */
const pageAt = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(5000) })).text();

/** Asks `url` every 10 ms until its page passes `shows`; the ms it took (Infinity after 30 s). */
async function untilShown(url: string, shows: (html: string) => boolean): Promise<number> {
  const began = performance.now();
  while (performance.now() - began < 30_000) {
    if (shows(await pageAt(url))) return performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * On a fresh database at `databaseUrl` (the store seeds it at its first start): the catalogue grown to 100,000
 * products, the store's pages and searches used, its memory read, then a product renamed and another hidden.
 */
export async function scaleFigures(
  databaseUrl: string,
  base: string,
  startStore: () => Promise<{ pid: number; stop: () => Promise<void> }>,
): Promise<ScaleFigures> {
  let store = await startStore();
  await store.stop();
  // Growing the catalogue is one long statement, past the pool's deadline for a page's queries.
  const database = await openDatabase({ url: databaseUrl, pool: { statementTimeoutMs: 600_000 } });
  try {
    const count = await growCatalogue(database.db, 100_000);
    store = await startStore();
    try {
      const pages = [
        "/",
        "/antivirus/mcafee",
        "/antivirus",
        "/best-sellers",
        "/top-rated",
        "/router/tp-link",
      ];
      for (let round = 0; round < 3; round++) {
        for (const page of pages) await pageAt(`${base}${page}`);
        for (const query of SEARCHES) await pageAt(`${base}/search?q=${encodeURIComponent(query)}`);
      }
      const memoryMb = processTreeRssMb(store.pid);

      const [renamed] = await database.db
        .update(products)
        .set({ name: sql`${products.name} || ' Quokka'` })
        .where(eq(products.route, "/antivirus/norton/360-deluxe/bench-500"))
        .returning({ name: products.name });
      const renameInSearchMs = await untilShown(`${base}/search?q=quokka`, (html) =>
        html.includes(renamed!.name),
      );

      const [hidden] = await database.db
        .update(products)
        .set({ hidden: true })
        .where(eq(products.route, "/antivirus/mcafee/total-protection"))
        .returning({ name: products.name });
      const hideFromListingMs = await untilShown(
        `${base}/antivirus/mcafee`,
        (html) => !html.includes(`>${hidden!.name}<`),
      );
      return { products: count, memoryMb, renameInSearchMs, hideFromListingMs };
    } finally {
      await store.stop();
    }
  } finally {
    await database.close();
  }
}
