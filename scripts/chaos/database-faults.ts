/**
 * `npm run chaos -- database [ROUNDS]`: PostgreSQL goes silent and away under mixed load, ROUNDS times (default 6).
 *
 * The production build runs two processes on a fresh database (storefront_chaos_faults_<port> on the server
 * DATABASE_URL names), reached through a TCP relay this script controls. Clients meanwhile browse pages, price carts
 * and place orders (the sandbox payment). Each round the relay first goes silent (bytes held both ways, connections
 * kept open: a dropped NAT or firewall entry), then, in the next round, cuts every connection and refuses new ones
 * (a restart, a network cut), for a few to 15 seconds, with normal traffic in between. Afterwards every order whose
 * answer was cut off is sent again with its key, and the database is audited.
 *
 * It prints the requests by kind and answer, those without an answer within 5 s, the longest time from a fault's end
 * until the store answers pages and readiness again, and the orders lost, duplicated and half-written; it exits
 * non-zero when any request got a 5xx other than 503/507 or no answer at all (within 30 s), or an order went wrong.
 * Answers later than 5 s are reported, not failed: a request that was between its queries when the database went
 * silent waits out a query's deadline (4.5 s) before its 503.
 */
import { randomInt } from "node:crypto";
import { rmSync } from "node:fs";
import { startTcpRelay } from "../../tests/support/tcp-relay";
import {
  auditOrders,
  exited,
  freshDatabase,
  newPlacement,
  place,
  type Placement,
  sleep,
  startServer,
} from "./kit";

/** Every answer must come within this (a page, the 503 page, or a checkout's answer). */
const ANSWER_WITHIN_MS = 5000;
/** Requests that get no answer at all are abandoned after this. */
const ABANDON_MS = 30_000;
const PAGES = ["/", "/antivirus", "/printer", "/router", "/windows", "/about", "/search?q=norton", "/cart"];

type Answer = { kind: string; status: number; ms: number };

export async function databaseFaults({
  serverUrl,
  port,
  rounds,
}: {
  serverUrl: string;
  port: number;
  rounds: number;
}): Promise<boolean> {
  const baseURL = `http://127.0.0.1:${port}`;
  const url = await freshDatabase(serverUrl, `storefront_chaos_faults_${port}`);
  const target = new URL(url);
  const relay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  const dataDir = `test-results/chaos-faults-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startServer(port, {
    DATABASE_URL: relay.through(url),
    DATA_DIR: dataDir,
    WEB_CONCURRENCY: "2",
  });
  await until(async () => (await status(`${baseURL}/healthz`)) === 200, 120_000);

  const answers: Answer[] = [];
  const placements: Placement[] = [];
  const timed = async (kind: string, send: () => Promise<number>) => {
    const started = performance.now();
    const answered = await send();
    answers.push({ kind, status: answered, ms: performance.now() - started });
  };
  let loading = true;
  const client = async (work: () => Promise<void>) => {
    while (loading) {
      await work();
      await sleep(50 + randomInt(150));
    }
  };
  const load = Promise.all([
    client(() => timed("page", () => status(`${baseURL}${PAGES[randomInt(PAGES.length)]}`))),
    client(() => timed("page", () => status(`${baseURL}${PAGES[randomInt(PAGES.length)]}`))),
    client(() => timed("page", () => status(`${baseURL}/`))),
    client(() =>
      timed("cart quote", () =>
        status(`${baseURL}/api/cart/quote`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: baseURL },
          body: JSON.stringify({ lines: [{ groupKey: "Norton", id: "1", quantity: 1 }] }),
        }),
      ),
    ),
    ...[1, 2].map(() =>
      client(async () => {
        const placement = newPlacement("faults");
        placements.push(placement);
        await timed("checkout", () => place(baseURL, placement, { timeoutMs: ABANDON_MS }));
      }),
    ),
  ]);

  const recoveries: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    await sleep(5000 + randomInt(5000));
    const silent = round % 2 === 1;
    const seconds = 3 + randomInt(13);
    if (silent) relay.silence();
    else relay.block();
    await sleep(seconds * 1000);
    if (silent) relay.resume();
    else relay.unblock();
    const endedAt = performance.now();
    // Back when the readiness check and the home page answer 200 five times in a row.
    let inRow = 0;
    await until(async () => {
      const [ready, page] = await Promise.all([status(`${baseURL}/healthz`), status(`${baseURL}/`)]);
      inRow = ready === 200 && page === 200 ? inRow + 1 : 0;
      return inRow >= 5;
    }, 120_000);
    const recovery = performance.now() - endedAt;
    recoveries.push(recovery);
    console.log(
      `round ${round} of ${rounds}: ${silent ? "silent" : "cut"} for ${seconds} s, answering again ${(recovery / 1000).toFixed(1)} s after`,
    );
  }
  loading = false;
  await load;

  // Whatever a fault cut off is sent again with its key, as a browser retrying the same checkout would.
  let retried = 0;
  for (const placement of placements.filter((p) => p.cut && p.number === undefined)) {
    placement.cut = false;
    retried++;
    await place(baseURL, placement);
  }
  server.kill("SIGTERM");
  await exited(server);
  await relay.close();

  const confirmed = placements.filter((p) => p.number !== undefined);
  const audit = await auditOrders({ url }, confirmed);
  const byKind = new Map<string, Map<number, number>>();
  for (const { kind, status: code } of answers) {
    const counts = byKind.get(kind) ?? new Map<number, number>();
    counts.set(code, (counts.get(code) ?? 0) + 1);
    byKind.set(kind, counts);
  }
  for (const [kind, counts] of byKind) {
    const list = [...counts].sort(([a], [b]) => a - b).map(([code, n]) => `${n} × ${code || "no answer"}`);
    console.log(`${kind}: ${list.join(", ")}`);
  }
  const failed = answers.filter((a) => a.status >= 500 && a.status !== 503 && a.status !== 507);
  const late = answers.filter((a) => a.ms > ANSWER_WITHIN_MS);
  const slowest = Math.max(...answers.map((a) => a.ms));
  const longestRecovery = Math.max(...recoveries);
  console.log(
    `${answers.length} requests: ${failed.length} answered 5xx other than 503/507, ` +
      `${answers.filter((a) => a.status === 0).length} with no answer at all, ${late.length} without an ` +
      `answer within ${ANSWER_WITHIN_MS / 1000} s (slowest ${(slowest / 1000).toFixed(1)} s); longest time to ` +
      `answer again after a fault ${(longestRecovery / 1000).toFixed(1)} s`,
  );
  console.log(
    `orders: ${confirmed.length} confirmed to a client (${retried} sent again after a fault), ${audit.found} found, ` +
      `${audit.lost} lost, ${audit.duplicated} duplicated, ${audit.halfWritten} half-written, ` +
      `${audit.keysTwice} keys given twice`,
  );
  for (const kind of byKind.keys()) {
    const slow = late.filter((a) => a.kind === kind);
    if (slow.length > 0)
      console.log(
        `  late ${kind}: ${slow.map((a) => `${a.status || "no answer"} after ${(a.ms / 1000).toFixed(1)} s`).join(", ")}`,
      );
  }
  const orderFaults = audit.lost + audit.duplicated + audit.halfWritten + audit.keysTwice;
  const unanswered = answers.filter((a) => a.status === 0).length;
  return failed.length === 0 && unanswered === 0 && orderFaults === 0;
}

/** The status of an answer (0: none within ABANDON_MS, or no connection), its body read. */
async function status(url: string, init: RequestInit = {}): Promise<number> {
  try {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(ABANDON_MS),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not back within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}
