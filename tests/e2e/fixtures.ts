import { test as base } from "@playwright/test";
import { type E2EStore, freshClientAddress, startE2EStore } from "../support/store-process";

export type StoreDatabase = "pglite" | "postgres";

/** Worker n's store listens on E2E_PORT + 100 n; tests that start servers of their own use the ports after it. */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 3400);
const PORTS_PER_WORKER = 100;

/**
 * `test` with a store per worker: workers run side by side, and a test may change the store's settings without
 * reaching another worker's tests. The tests of a file run in order in one worker, on the store the files that
 * worker ran before have left.
 */
export const test = base.extend<
  object,
  { storeDatabase: StoreDatabase; storeProcesses: number; store: E2EStore }
>({
  storeDatabase: ["pglite", { scope: "worker", option: true }],
  // WEB_CONCURRENCY: 0 leaves it to the server (one per core on PostgreSQL, one on the embedded database).
  storeProcesses: [0, { scope: "worker", option: true }],
  store: [
    async ({ storeDatabase, storeProcesses }, use, workerInfo) => {
      const store = await startE2EStore(
        FIRST_PORT + workerInfo.parallelIndex * PORTS_PER_WORKER,
        storeDatabase,
        storeProcesses,
      );
      await use(store);
      await store.stop();
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ store }, use) => use(store.url),
  // Each test is a shopper of its own, from an address of its own (the store trusts X-Forwarded-For from loopback):
  // the limits the store keeps per client address (unpaid orders, discount codes, sign-ins) count each test apart,
  // as they would count strangers, and no test spends another's allowance.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) =>
    use({ "X-Forwarded-For": freshClientAddress(), ...extraHTTPHeaders }),
});
