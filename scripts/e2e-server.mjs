// Starts the production build for end-to-end tests on a store of its own (tests/support/e2e-store-setup.ts: the
// demo store, two admins, full key pools) with an SMTP server that keeps every message as a file:
// - embedded PGlite (the default): DATA_DIR becomes a copy of a template set up once for this build, so each
//   worker's store starts in a second instead of setting itself up again;
// - E2E_DATABASE=postgres: a new database on TEST_DATABASE_URL's server, set up the same way.
// With E2E_PREPARE_ONLY=1 it prepares DATA_DIR (embedded only) and the admins' files, and exits without a server.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { nodeFlags } from "../server/node-flags.mjs";

const dataDir = process.env.DATA_DIR ?? "test-results/e2e-data";
const port = Number(process.env.PORT ?? 3400);
const postgres = process.env.E2E_DATABASE === "postgres";
if (!existsSync("build/server/main.js")) {
  console.error("No build: run `npm run build` first (npm run test:e2e does).");
  process.exit(1);
}
const env = { ...process.env, NODE_ENV: "production" };
// The tests read the admins' passwords from these files (tests/e2e/admin.ts).
const adminFiles = {
  "admin.txt": `test-results/admin-${port}.txt`,
  "admin2.txt": `test-results/admin2-${port}.txt`,
};

/** Runs the store's setup on `variables`' DATA_DIR or DATABASE_URL, writing the admins' files to `outDir`. */
function setUp(variables, outDir) {
  const done = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "tests/support/e2e-store-setup.ts", outDir],
    { env: variables, encoding: "utf8" },
  );
  if (done.status !== 0) {
    console.error(done.stdout, done.stderr);
    process.exit(1);
  }
}

const TEMPLATE = "test-results/e2e-template";

/** What the template is made of: when any of it changes, the template is set up again. */
function templateKey() {
  const hash = createHash("sha256");
  const files = (entry) =>
    statSync(entry).isDirectory()
      ? readdirSync(entry)
          .sort()
          .flatMap((name) => files(path.join(entry, name)))
      : [entry];
  for (const source of [
    "build/server/main.js",
    "db/migrations",
    "app/modules/seed/data",
    "tests/support/e2e-store-setup.ts",
    "scripts/admin-create-command.ts",
    "package-lock.json",
  ]) {
    for (const file of files(source)) hash.update(file).update(readFileSync(file));
  }
  return hash.digest("hex");
}

const readOr = (file, fallback) => (existsSync(file) ? readFileSync(file, "utf8") : fallback);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The template for this build, set up once: the workers of a run start together, and one sets it up while the others
 * wait (a lock directory holding its process id; a lock whose process is gone is taken over).
 */
async function ensureTemplate() {
  const key = templateKey();
  const ready = () => readOr(path.join(TEMPLATE, "key"), "") === key;
  const lock = `${TEMPLATE}.lock`;
  mkdirSync(path.dirname(TEMPLATE), { recursive: true });
  while (!ready()) {
    try {
      mkdirSync(lock);
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const holder = Number(readOr(path.join(lock, "pid"), "0"));
      if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      else await sleep(200);
      continue;
    }
    try {
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      if (ready()) break;
      const building = `${TEMPLATE}.building`;
      rmSync(building, { recursive: true, force: true });
      mkdirSync(building, { recursive: true });
      setUp({ ...env, DATA_DIR: path.join(building, "data"), DATABASE_URL: "" }, building);
      writeFileSync(path.join(building, "key"), key);
      rmSync(TEMPLATE, { recursive: true, force: true });
      renameSync(building, TEMPLATE);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

rmSync(dataDir, { recursive: true, force: true });
if (postgres) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("E2E_DATABASE=postgres needs TEST_DATABASE_URL");
  // One database per port, so test runs on other ports do not collide.
  const name = `storefront_e2e_${port}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  const outDir = `test-results/e2e-setup-${port}`;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  setUp({ ...env, DATA_DIR: dataDir }, outDir);
  for (const [name, to] of Object.entries(adminFiles)) copyFileSync(path.join(outDir, name), to);
} else {
  await ensureTemplate();
  cpSync(path.join(TEMPLATE, "data"), dataDir, { recursive: true });
  for (const [name, to] of Object.entries(adminFiles)) copyFileSync(path.join(TEMPLATE, name), to);
  env.DATABASE_URL = "";
}
if (process.env.E2E_PREPARE_ONLY === "1") process.exit(0);

// A local SMTP server that keeps every message the store sends as a file, for the tests to read.
const mailDir = `test-results/mail-${port}`;
rmSync(mailDir, { recursive: true, force: true });
mkdirSync(mailDir, { recursive: true });
let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, _session, done) {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => {
      writeFileSync(path.join(mailDir, `${String(++received).padStart(4, "0")}.eml`), Buffer.concat(chunks));
      done();
    });
  },
});
await new Promise((resolve) => smtp.listen(port + 1000, "127.0.0.1", resolve));
env.SMTP_URL = `smtp://127.0.0.1:${port + 1000}`;
// A test moves an unpaid order's placing time back and waits for the store to expire it: every few seconds, not
// each minute.
env.ORDER_EXPIRY_INTERVAL_SECONDS ??= "3";
// Likewise a test moves a licence key's expiry near and waits for its renewal reminder.
env.RENEWAL_REMINDER_INTERVAL_SECONDS ??= "3";
// And a test adds keys (or stock) and waits for the back-in-stock e-mail.
env.STOCK_ALERT_INTERVAL_SECONDS ??= "3";
// And a test moves a saved cart's last change a day back and waits for its reminder.
env.SAVED_CART_REMINDER_INTERVAL_SECONDS ??= "3";

const server = spawn(process.execPath, [...nodeFlags, "build/server/main.js"], {
  stdio: "inherit",
  env: { ...env, DATA_DIR: dataDir },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => smtp.close(() => process.exit(code ?? 0)));
