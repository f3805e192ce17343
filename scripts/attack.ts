/**
 * npm run attack: replays known attacks against the production build on a fresh database and fails when any of
 * them succeeds or any request gets a 5xx. Build first (`npm run build`; `npm test` has built it by then).
 *
 * Each file in scripts/attacks/ holds the attacks of one area; every attack that was ever fixed stays here.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { abuseAttacks } from "./attacks/abuse";
import { accountAttacks } from "./attacks/accounts";
import { baselineAttacks } from "./attacks/baseline";
import { commerceAttacks } from "./attacks/commerce";
import { currencyAttacks } from "./attacks/currencies";
import { type Attack, AttackSucceeded, attackKit } from "./attacks/kit";
import { invoiceAttacks } from "./attacks/invoices";
import { keyReportAttacks } from "./attacks/key-reports";
import { reviewAttacks } from "./attacks/reviews";
import { orderLifeAttacks } from "./attacks/orderlife";
import { pageAttacks } from "./attacks/pages";
import { pageCacheAttacks } from "./attacks/page-cache";
import { outboxAttacks } from "./attacks/outbox";
import { platformAttacks } from "./attacks/platform";
import { stockAttacks } from "./attacks/stock";
import { selfServiceAttacks } from "./attacks/selfservice";
import { reliabilityAttacks } from "./attacks/reliability";
import { settingsAttacks } from "./attacks/settings";
import { staffRoleAttacks } from "./attacks/staff-roles";
import { renewalAttacks } from "./attacks/renewals";
import { restockAttacks } from "./attacks/restock";
import { pricingAdminAttacks } from "./attacks/pricing-admin";
import { pricingCheckoutAttacks } from "./attacks/pricing-checkout";

const attacks: Attack[] = [
  ...baselineAttacks,
  ...platformAttacks,
  ...accountAttacks,
  ...commerceAttacks,
  ...pageAttacks,
  ...stockAttacks,
  ...outboxAttacks,
  ...selfServiceAttacks,
  ...reliabilityAttacks,
  ...orderLifeAttacks,
  ...keyReportAttacks,
  ...reviewAttacks,
  ...settingsAttacks,
  ...renewalAttacks,
  ...restockAttacks,
  ...pricingAdminAttacks,
  ...pricingCheckoutAttacks,
  ...currencyAttacks,
  ...pageCacheAttacks,
  ...invoiceAttacks,
  ...staffRoleAttacks,
  ...abuseAttacks,
];

const port = Number(process.env.ATTACK_PORT ?? 3900);
const baseURL = `http://127.0.0.1:${port}`;

async function main() {
  if (!existsSync("build/server/main.js")) {
    console.error("No build: run `npm run build` first.");
    process.exit(1);
  }
  const only = process.argv[2];
  const chosen = only ? attacks.filter((attack) => attack.name.includes(only)) : attacks;
  const server = startServer();
  let failed = 0;
  try {
    await waitForHealth();
    for (const attack of chosen) {
      const kit = attackKit(baseURL);
      let verdict = "refused";
      try {
        await attack.run(kit);
        const errors = kit.sent.filter((request) => request.status >= 500);
        if (errors.length > 0) {
          verdict = `SERVER ERROR: ${errors.map((e) => `${e.method} ${e.url} -> ${e.status}`).join("; ")}`;
        }
      } catch (error) {
        verdict =
          error instanceof AttackSucceeded
            ? `SUCCEEDED: ${error.message}`
            : `BROKEN: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      }
      if (verdict !== "refused") failed++;
      console.log(
        `${verdict === "refused" ? "ok  " : "FAIL"} ${attack.name}${verdict === "refused" ? "" : `\n     ${verdict}`}`,
      );
    }
  } finally {
    await stopServer(server);
  }
  console.log(`\n${chosen.length - failed} of ${chosen.length} attacks refused.`);
  process.exit(failed > 0 ? 1 : 0);
}

function startServer(): ChildProcess {
  // The same start as the end-to-end tests: a fresh data directory, a local SMTP sink, the first admin.
  return spawn(process.execPath, ["scripts/e2e-server.mjs"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: `test-results/attack-data-${port}`,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
      // Small enough for the quota attack to reach with a few small files.
      STORAGE_UPLOADS_USER_QUOTA_BYTES: String(300 * 1024),
      // Short limits on slow clients, so the slowloris attack is cut off within seconds. The whole request's is long
      // enough for the 30 checkouts the flood attack posts at once: on a machine busy with the end-to-end suite,
      // some of them were answered 408 at 6 s, and once at 12 s, while the store placed the others.
      HEADERS_TIMEOUT_SECONDS: "5",
      REQUEST_TIMEOUT_SECONDS: "20",
      DATABASE_URL: "",
      E2E_DATABASE: "",
    },
  });
}

async function waitForHealth() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the store did not start on ${baseURL} within 120 s`);
}

function stopServer(server: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.on("exit", () => resolve());
    server.kill("SIGTERM");
  });
}

void main();
