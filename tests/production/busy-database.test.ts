import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "~db/client.server";
import { postedCheckout } from "../e2e/checkout-form";
import { type AppTestServer, startAppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { waitFor } from "../support/store-process";

const BUSY = "The store is very busy at the moment. Nothing was changed; please try again in a few seconds.";

// A table every page and the cart API read, locked by another session for longer than a request may wait: the
// store answers "busy" (and sheds what it cannot queue) instead of 500s or its "database away" page.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "PostgreSQL busy behind a lock (the production build)",
  () => {
    let direct: TestDatabase;
    let pooled: DatabaseHandle;
    let server: AppTestServer;
    let admin: pg.Client;
    beforeAll(async () => {
      const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
      direct = await createTestDatabase("postgres", "demo");
      // A small pool and queue, so that a few requests fill them; the statement deadline outlasts the wait for a
      // connection (5 s), so both run out while the lock is held.
      pooled = await openDatabase({
        url: direct.url!,
        pool: { size: 2, maxWaiting: 10, statementTimeoutMs: 6000 },
      });
      // fetch keeps a connection open as long as the server says it will wait for another request: briefly here,
      // so that a test can wait for the connections of the requests before it to close.
      server = await startAppServer(
        "postgres",
        { KEEP_ALIVE_TIMEOUT_SECONDS: 1 },
        { database: pooled, build },
      );
      admin = new pg.Client({ connectionString: direct.url });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.query("rollback").catch(() => {});
      await admin?.end();
      await server?.close();
      await direct?.close();
    });

    /** Resolves once the app's pool has had every connection back, with nothing waiting, for a while. */
    const poolIdle = async () => {
      let idleSince = Date.now();
      await waitFor(
        () => {
          const pool = pooled.pool!;
          if (pool.idleCount !== pool.totalCount || pool.waitingCount > 0) idleSince = Date.now();
          return Date.now() - idleSince > 300;
        },
        { what: "the app's queries to end", timeout: 10_000, interval: 10 },
      );
    };

    /** Holds an exclusive lock on the catalogue's products until the returned function is called. */
    const lockProducts = async () => {
      await admin.query("begin");
      await admin.query("lock table products in access exclusive mode");
      return () => admin.query("commit");
    };

    it("answers 200 or 503 'busy' with Retry-After, never 500, refuses at once past the queue, and stays available", async () => {
      const release = await lockProducts();
      const started = Date.now();
      const answers: Array<{
        path: string;
        status: number;
        ms: number;
        retryAfter: string | null;
        body: string;
      }> = [];
      const ask = async (path: string, init: RequestInit) => {
        const response = await fetch(`${server.url}${path}`, init);
        answers.push({
          path,
          status: response.status,
          ms: Date.now() - started,
          retryAfter: response.headers.get("retry-after"),
          body: await response.text(),
        });
      };
      const page = { headers: { accept: "text/html" } };
      const quote = {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ lines: [{ groupKey: "Norton", id: "1", quantity: 1 }] }),
      };
      const requests = [
        ...Array.from({ length: 8 }, () => ask("/", page)),
        ...Array.from({ length: 6 }, () => ask("/api/cart/quote", quote)),
      ];
      // The lock is held until every request has its answer, or for 9 s at most: each has a deadline well before.
      const answeredWhileLocked = await waitFor(() => answers.length === requests.length, {
        what: "every answer",
        timeout: 9000,
      }).then(
        () => true,
        () => false,
      );
      await release();
      await Promise.all(requests);
      expect(answeredWhileLocked).toBe(true);

      for (const answer of answers) {
        if (answer.status === 200) continue;
        expect(answer.status, `${answer.path}: ${answer.body.slice(0, 300)}`).toBe(503);
        expect(answer.retryAfter, answer.path).not.toBeNull();
        if (answer.path === "/") expect(answer.body).toContain(BUSY);
        else expect(JSON.parse(answer.body)).toEqual({ error: BUSY });
      }
      // More requests than connections and places in the queue: some are told before a wait for a connection
      // (5 s) or a statement (6 s) could have run out.
      expect(answers.filter((answer) => answer.status === 503 && answer.ms < 4000).length).toBeGreaterThan(0);
      // Busy is not away: the store never took its database for gone, and once the queries queued meanwhile have
      // run, the next request is served.
      expect(server.logs().filter((line) => /cannot be reached/.test(String(line.msg)))).toEqual([]);
      await poolIdle();
      expect((await fetch(server.url, page)).status).toBe(200);
    }, 30_000);

    it("does not place the order of a checkout whose client has gone while it waited", async () => {
      // No connection of an earlier request stays open (fetch keeps them a few seconds): the checkout's is the only one.
      await waitFor(async () => (await server.openConnections()) === 0, {
        what: "no open connection",
        timeout: 10_000,
      });
      const count = async () => Number((await admin.query("select count(*) as n from orders")).rows[0].n);
      const before = await count();
      const release = await lockProducts();
      const name = new URL(direct.url!).pathname.slice(1);
      const body = new URLSearchParams(
        postedCheckout("gone@example.com", [{ groupKey: "Norton", id: "1", quantity: 1 }], "bank-transfer"),
      ).toString();
      const checkout = http.request(`${server.url}/payment`, {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
          accept: "text/html",
        },
      });
      checkout.on("error", () => undefined);
      checkout.end(body);
      try {
        // The checkout waits for the lock; then its buyer gives up, and the server sees the connection close.
        await waitFor(
          async () =>
            (
              await admin.query(
                `select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
                where not l.granted and a.datname = $1`,
                [name],
              )
            ).rowCount! > 0,
          { what: "the checkout to wait for the lock", timeout: 5000, interval: 20 },
        );
        checkout.destroy();
        await waitFor(async () => (await server.openConnections()) === 0, {
          what: "the server to see the buyer gone",
          timeout: 2000,
          interval: 20,
        });
      } finally {
        await release();
      }
      // The checkout goes on once the lock is released, query after query: it is over once the app's pool has had
      // every connection back and nothing waiting for a while.
      let idleSince = Date.now();
      await waitFor(
        () => {
          const pool = pooled.pool!;
          if (pool.idleCount !== pool.totalCount || pool.waitingCount > 0) idleSince = Date.now();
          return Date.now() - idleSince > 300;
        },
        { what: "the checkout to end", timeout: 5000, interval: 10 },
      );
      expect(await count()).toBe(before);
    }, 30_000);
  },
);
