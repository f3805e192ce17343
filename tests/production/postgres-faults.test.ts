import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import {
  childrenOf,
  freePort,
  rawRequest,
  ready,
  startStore,
  stopStore,
  type StoreProcess,
  waitFor,
} from "../support/store-process";
import { startTcpRelay } from "../support/tcp-relay";

// The production build on PostgreSQL reached through a relay the test controls: a LISTEN connection that goes
// silent (a NAT or firewall that dropped it), an outage while a process starts, and a primary killed outright.

/** A store of the demo catalogue on a database of its own, reached through a relay. */
async function storeThroughRelay(env: Record<string, string>) {
  const database = await createTestDatabase("postgres", "demo");
  const target = new URL(database.url!);
  const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  const store = startStore(await freePort(), {
    DATABASE_URL: relay.through(database.url!),
    SHUTDOWN_TIMEOUT_SECONDS: "3",
    ...env,
  });
  return { database, relay, store };
}
type Setup = Awaited<ReturnType<typeof storeThroughRelay>>;

async function cleanUp({ database, relay, store }: Setup) {
  relay.resume();
  relay.unblock();
  await stopStore(store);
  await relay.close();
  await database.close();
}

/** The log lines of one process of the store (a cluster's workers tag theirs with their process id). */
const linesOf = (store: StoreProcess, pid: number) =>
  store
    .output()
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { pid?: number; msg: string; signal?: string }];
      } catch {
        // Not a log line (the ready line), or one cut by another process's output.
        return [];
      }
    })
    .filter((line) => line.pid === pid);

/** Whether a process has ended (its new parent may not have collected it yet). */
function ended(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** A page, or the reason there was none within 5 s. */
const page = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5000), headers: { accept: "text/html" } }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    (error: Error) => error.name,
  );

describe.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL through a relay (TEST_DATABASE_URL)", () => {
  it("finds a LISTEN connection gone silent within seconds and replaces it; pages answer within 5 s throughout", async () => {
    const setup = await storeThroughRelay({ WEB_CONCURRENCY: "1", LOG_LEVEL: "warn" });
    const { database, relay, store } = setup;
    const admin = new pg.Client({ connectionString: database.url });
    try {
      await ready(store);
      await admin.connect();
      const listeners = async () =>
        (
          await admin.query<{ pid: number }>(
            `select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
          )
        ).rows.map((row) => row.pid);
      await waitFor(async () => (await listeners()).length === 2, { what: "both LISTEN connections" });
      const before = await listeners();

      // A page kept in memory, then a write answered by this process: the next page waits until the write's change
      // is counted, one round trip on the LISTEN connection.
      await rawRequest(`${store.url}/`);
      expect((await rawRequest(`${store.url}/`)).headers["x-cache"]).toBe("hit");
      const write = await fetch(`${store.url}/api/cart/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: store.url },
        body: JSON.stringify({ lines: [] }),
      });
      expect(write.status).toBe(200);

      const answers: Array<number | string> = [];
      let paging = true;
      const pages = (async () => {
        while (paging) answers.push(await page(`${store.url}/`));
      })();

      relay.silence();
      const silencedAt = Date.now();
      await waitFor(
        () =>
          store.output().includes("lost the user-change LISTEN connection") &&
          store.output().includes("lost the content-change LISTEN connection"),
        { what: "the silent LISTEN connections to be found", timeout: 6000, interval: 20 },
      );
      const foundAfterMs = Date.now() - silencedAt;
      // Readiness says so while it lasts. Its database check waits for the relay, as the page does: the stall ends
      // once the check has surely begun, short enough for the page to answer within its 5 s.
      const health = fetch(`${store.url}/healthz`).then((response) => response.json());
      await new Promise((resolve) => setTimeout(resolve, 500));
      relay.resume();
      expect(await health).toMatchObject({ status: "error", listener: { ok: false } });

      await waitFor(async () => (await fetch(`${store.url}/healthz`)).status === 200, {
        what: "readiness again",
        timeout: 5000,
      });
      // Replaced: new connections, the silent ones closed.
      await waitFor(
        async () => {
          const now = await listeners();
          return now.length === 2 && now.every((pid) => !before.includes(pid));
        },
        { what: "two new LISTEN connections in place of the silent ones", timeout: 5000 },
      );
      paging = false;
      await pages;
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) expect([200, 503]).toContain(answer);
      expect(await page(`${store.url}/`)).toBe(200);
      expect(foundAfterMs).toBeLessThan(4000);

      // And it stops within its deadline.
      const stoppedAt = Date.now();
      expect(await stopStore(store)).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(3000);
    } finally {
      await admin.end().catch(() => {});
      await cleanUp(setup);
    }
  }, 60_000);

  describe("a cluster of two processes", () => {
    let setup: Setup | undefined;
    let primary: number;
    beforeAll(async () => {
      setup = await storeThroughRelay({ WEB_CONCURRENCY: "2", LOG_LEVEL: "info" });
      const { store } = setup;
      await ready(store);
      await waitFor(() => store.output().includes("2 processes"), { what: "both processes to listen" });
      primary = store.child.pid!;
    });
    afterAll(async () => {
      // The primary is gone by now (the last test kills it): its processes too.
      for (const pid of childrenOf(primary)) process.kill(pid, "SIGKILL");
      if (setup) await cleanUp(setup);
    });

    it("a process started during an outage waits for the database and serves 503s; the cluster comes back by itself", async () => {
      const { relay, store } = setup!;
      const [killed, survivor] = childrenOf(primary) as [number, number];

      relay.block();
      process.kill(killed, "SIGKILL");
      let replacement: number | undefined;
      await waitFor(
        () => {
          replacement = childrenOf(primary).find((pid) => pid !== killed && pid !== survivor);
          return replacement !== undefined;
        },
        { what: "a process in place of the one killed", timeout: 10_000 },
      );
      // It starts without its LISTEN connection and keeps trying, rather than exiting.
      const retries = () =>
        linesOf(store, replacement!).filter((line) => line.msg.includes("content-change LISTEN")).length;
      await waitFor(() => store.child.exitCode !== null || ended(replacement!) || retries() >= 2, {
        what: "the new process to try its LISTEN connection again",
        timeout: 15_000,
      });
      expect(ended(replacement!), "the new process ended").toBe(false);
      expect(store.child.exitCode).toBeNull();
      expect(childrenOf(primary).sort()).toEqual([survivor, replacement].sort());
      for (let n = 0; n < 4; n++) expect((await rawRequest(`${store.url}/`)).status).toBe(503);

      relay.unblock();
      const backAt = Date.now();
      // Both processes ready again: four readiness answers in a row, which the primary hands out in turn.
      await waitFor(
        async () => {
          for (let n = 0; n < 4; n++)
            if ((await rawRequest(`${store.url}/healthz`)).status !== 200) return false;
          return true;
        },
        { what: "both processes to be ready again", timeout: 10_000 },
      );
      expect(Date.now() - backAt).toBeLessThan(5000);
      for (let n = 0; n < 4; n++) expect((await rawRequest(`${store.url}/`)).status).toBe(200);
      expect(childrenOf(primary).sort()).toEqual([survivor, replacement].sort());
      expect(store.output()).not.toContain("keep dying");
    });

    it("when the primary is killed outright, its processes log their shutdown where its own lines went", async () => {
      const { store } = setup!;
      const workers = childrenOf(primary);
      expect(workers).toHaveLength(2);

      store.child.kill("SIGKILL");
      const shutDown = (pid: number) =>
        linesOf(store, pid).some(
          (line) => line.msg === "shutting down" && line.signal === "the primary process ended",
        );
      await waitFor(() => workers.every(shutDown), {
        what: "both processes' shutdown lines",
        timeout: 10_000,
      });
      await waitFor(() => workers.every(ended), { what: "both processes to end", timeout: 10_000 });
    });
  });
});
