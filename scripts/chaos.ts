/**
 * npm run chaos [-- N]: kill -9 during order placement, N times (default 30), then count what the database holds.
 *
 * The production build (`npm run build` first) runs on a fresh embedded database (PGlite) and, when DATABASE_URL is
 * set, again on a fresh database on that PostgreSQL server (storefront_chaos_<port>; the one DATABASE_URL names is
 * not touched). Each round sends orders (the sandbox payment, which delivers a licence key in the same transaction)
 * from four clients at once, kills the server with SIGKILL at a random moment, restarts it at once and sends again,
 * with the same idempotency key, every order whose answer the kill cut off. At the end it prints the kills, the
 * restarts, and the orders: confirmed to a client, found, lost, duplicated, half-written, and keys given twice.
 * It exits non-zero when anything was lost, duplicated, half-written or given twice. Not run by CI.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../db/client.server";

const kills = Number(process.argv[2] ?? process.env.CHAOS_KILLS ?? 30);
const port = Number(process.env.CHAOS_PORT ?? 3920);
const baseURL = `http://127.0.0.1:${port}`;
const CLIENTS = 4;

type Placement = { idempotencyKey: string; form: URLSearchParams; number?: number; cut: boolean };

type Counts = {
  kills: number;
  restarts: number;
  confirmed: number;
  retried: number;
  found: number;
  lost: number;
  duplicated: number;
  halfWritten: number;
  keysTwice: number;
};

async function main() {
  if (!existsSync("build/server/main.js")) {
    console.error("No build: run `npm run build` first.");
    process.exit(1);
  }
  if (!Number.isInteger(kills) || kills < 1) {
    console.error("N must be a whole number of kills, at least 1: npm run chaos -- 30");
    process.exit(1);
  }
  const results: Array<[string, Counts]> = [];
  const dataDir = `test-results/chaos-pglite-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  results.push(["PGlite", await experiment({ DATA_DIR: dataDir, DATABASE_URL: "" }, { dataDir })]);
  if (process.env.DATABASE_URL) {
    const url = await freshDatabase(process.env.DATABASE_URL, `storefront_chaos_${port}`);
    const pgDataDir = `test-results/chaos-postgres-${port}`;
    rmSync(pgDataDir, { recursive: true, force: true });
    results.push(["PostgreSQL", await experiment({ DATA_DIR: pgDataDir, DATABASE_URL: url }, { url })]);
  }
  let bad = 0;
  for (const [name, c] of results) {
    console.log(
      `${name}: ${c.kills} kills, ${c.restarts} restarts, ${c.confirmed} orders confirmed to a client ` +
        `(${c.retried} sent again after a kill), ${c.found} successful orders found, ${c.lost} lost, ` +
        `${c.duplicated} duplicated, ${c.halfWritten} half-written, ${c.keysTwice} keys given twice`,
    );
    bad += c.lost + c.duplicated + c.halfWritten + c.keysTwice;
  }
  process.exit(bad > 0 ? 1 : 0);
}

async function experiment(
  env: Record<string, string>,
  database: { dataDir: string } | { url: string },
): Promise<Counts> {
  const counts: Counts = {
    kills: 0,
    restarts: 0,
    confirmed: 0,
    retried: 0,
    found: 0,
    lost: 0,
    duplicated: 0,
    halfWritten: 0,
    keysTwice: 0,
  };
  const placements: Placement[] = [];
  let server = await start(env);
  for (let round = 1; round <= kills; round++) {
    let sending = true;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (sending) {
        const placement: Placement = {
          idempotencyKey: randomUUID(),
          form: new URLSearchParams(),
          cut: false,
        };
        placement.form = checkoutForm(placement.idempotencyKey, round);
        placements.push(placement);
        await place(placement);
      }
    });
    await sleep(150 + randomInt(1200));
    server.kill("SIGKILL");
    counts.kills++;
    sending = false;
    await Promise.all(clients);
    await exited(server);
    server = await start(env);
    counts.restarts++;
    // Whatever the kill cut off is sent again, as a browser retrying the same checkout would.
    for (const placement of placements.filter((p) => p.cut && p.number === undefined)) {
      placement.cut = false;
      counts.retried++;
      await place(placement);
    }
    console.log(
      `round ${round} of ${kills}: ${placements.filter((p) => p.number).length} orders confirmed so far`,
    );
  }
  server.kill("SIGTERM");
  await exited(server);

  const confirmed = placements.filter((p) => p.number !== undefined);
  counts.confirmed = confirmed.length;
  const handle = await openDatabase(
    "url" in database ? { url: database.url } : { dataDir: database.dataDir },
  );
  try {
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await handle.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
    const stored = new Map(
      (await rows(sql`select idempotency_key, number from orders`)).map((row) => [
        String(row.idempotency_key),
        Number(row.number),
      ]),
    );
    for (const placement of confirmed) {
      if (stored.get(placement.idempotencyKey) === placement.number) counts.found++;
      else counts.lost++;
    }
    // Each placement has an e-mail address of its own: two orders for one is a duplicate.
    counts.duplicated = Number(
      (
        await rows(
          sql`select coalesce(sum(n - 1), 0) as n from (select count(*) as n from orders where email like 'chaos-%' group by email having count(*) > 1) d`,
        )
      )[0]!.n,
    );
    // Half-written: no lines, lines that do not add up, a paid order whose keys and awaited keys are not its
    // software quantity, or no confirmation e-mail.
    counts.halfWritten = Number(
      (
        await rows(sql`
          select count(*) as n from orders o
          where o.email like 'chaos-%' and (
            not exists (select 1 from order_lines l where l.order_id = o.id)
            or o.subtotal_cents <> (select coalesce(sum(line_total_cents), 0) from order_lines l where l.order_id = o.id)
            or (o.payment_status = 'paid' and
              (select coalesce(sum(quantity), 0) from order_lines l where l.order_id = o.id and l.kind = 'software')
              <> (select count(*) from licence_keys k join order_lines l on l.id = k.order_line_id where l.order_id = o.id)
                 + o.awaiting_keys)
            or not exists (select 1 from outbox_emails e where e.order_id = o.id and e.kind = 'order-confirmation')
          )`)
      )[0]!.n,
    );
    counts.keysTwice = Number(
      (
        await rows(
          sql`select coalesce(sum(n - 1), 0) as n from (select count(*) as n from licence_keys where order_line_id is not null group by key_fingerprint having count(*) > 1) d`,
        )
      )[0]!.n,
    );
  } finally {
    await handle.close();
  }
  return counts;

  async function place(placement: Placement) {
    try {
      const response = await fetch(`${baseURL}/payment`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL },
        body: placement.form,
      });
      await response.arrayBuffer();
      const number = /\/order\/(\d+)/.exec(response.headers.get("location") ?? "")?.[1];
      if (response.status === 302 && number) placement.number = Number(number);
      else if (response.status >= 500) placement.cut = true;
    } catch {
      // The kill cut the answer off: the order may or may not have been placed.
      placement.cut = true;
    }
  }
}

function checkoutForm(idempotencyKey: string, round: number): URLSearchParams {
  return new URLSearchParams({
    idempotencyKey,
    email: `chaos-${round}-${randomUUID().slice(0, 8)}@example.com`,
    "billing.name": "Chaos Buyer",
    "billing.line1": "1 Main Street",
    "billing.city": "Springfield",
    "billing.postalCode": "12345",
    "billing.country": "US",
    shipToBilling: "on",
    paymentMethod: "sandbox",
    cart: JSON.stringify([{ groupKey: "Norton", id: "1", quantity: 1 }]),
    acceptTerms: "on",
  });
}

async function start(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["build/server/main.js"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: baseURL,
      LOG_LEVEL: "fatal",
      ...env,
    },
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} while starting`);
    const status = await fetch(`${baseURL}/healthz/live`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return child;
    await sleep(50);
  }
  throw new Error(`the store did not start on ${baseURL} within 120 s`);
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.on("exit", () => resolve()),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
