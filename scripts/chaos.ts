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
 *
 * npm run chaos -- database [ROUNDS]: PostgreSQL (DATABASE_URL) goes silent and away under mixed load, with two
 * server processes (scripts/chaos/database-faults.ts).
 */
import { randomInt } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { databaseFaults } from "./chaos/database-faults";
import {
  type Audit,
  auditOrders,
  exited,
  freshDatabase,
  newPlacement,
  place,
  type Placement,
  sleep,
  startServer,
} from "./chaos/kit";

const port = Number(process.env.CHAOS_PORT ?? 3920);
const baseURL = `http://127.0.0.1:${port}`;
const CLIENTS = 4;

type Counts = Audit & { kills: number; restarts: number; confirmed: number; retried: number };

async function main() {
  if (!existsSync("build/server/main.js")) {
    console.error("No build: run `npm run build` first.");
    process.exit(1);
  }
  if (process.argv[2] === "database") {
    const rounds = Number(process.argv[3] ?? 6);
    if (!process.env.DATABASE_URL || !Number.isInteger(rounds) || rounds < 1) {
      console.error(
        "Set DATABASE_URL to a PostgreSQL server; ROUNDS is a whole number: npm run chaos -- database 6",
      );
      process.exit(1);
    }
    const passed = await databaseFaults({ serverUrl: process.env.DATABASE_URL, port, rounds });
    process.exit(passed ? 0 : 1);
  }
  const kills = Number(process.argv[2] ?? process.env.CHAOS_KILLS ?? 30);
  if (!Number.isInteger(kills) || kills < 1) {
    console.error("N must be a whole number of kills, at least 1: npm run chaos -- 30");
    process.exit(1);
  }
  const results: Array<[string, Counts]> = [];
  const dataDir = `test-results/chaos-pglite-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  results.push(["PGlite", await killRounds(kills, { DATA_DIR: dataDir, DATABASE_URL: "" }, { dataDir })]);
  if (process.env.DATABASE_URL) {
    const url = await freshDatabase(process.env.DATABASE_URL, `storefront_chaos_${port}`);
    const pgDataDir = `test-results/chaos-postgres-${port}`;
    rmSync(pgDataDir, { recursive: true, force: true });
    results.push([
      "PostgreSQL",
      await killRounds(kills, { DATA_DIR: pgDataDir, DATABASE_URL: url }, { url }),
    ]);
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

/** Kills the server `times` times during order placement, restarting it each time, then audits the orders. */
async function killRounds(
  times: number,
  env: Record<string, string>,
  database: { dataDir: string } | { url: string },
): Promise<Counts> {
  const placements: Placement[] = [];
  let kills = 0;
  let restarts = 0;
  let retried = 0;
  let server = await startServer(port, env);
  for (let round = 1; round <= times; round++) {
    let sending = true;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (sending) {
        const placement = newPlacement(round);
        placements.push(placement);
        await place(baseURL, placement);
      }
    });
    await sleep(150 + randomInt(1200));
    server.kill("SIGKILL");
    kills++;
    sending = false;
    await Promise.all(clients);
    await exited(server);
    server = await startServer(port, env);
    restarts++;
    // Whatever the kill cut off is sent again, as a browser retrying the same checkout would.
    for (const placement of placements.filter((p) => p.cut && p.number === undefined)) {
      placement.cut = false;
      retried++;
      await place(baseURL, placement);
    }
    console.log(
      `round ${round} of ${times}: ${placements.filter((p) => p.number).length} orders confirmed so far`,
    );
  }
  server.kill("SIGTERM");
  await exited(server);
  const confirmed = placements.filter((p) => p.number !== undefined);
  const audit = await auditOrders(database, confirmed);
  return { ...audit, kills, restarts, confirmed: confirmed.length, retried };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
