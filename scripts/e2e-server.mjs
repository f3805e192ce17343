// Starts the production build for end-to-end tests on a fresh database:
// embedded PGlite in a new DATA_DIR, or (E2E_DATABASE=postgres) a new database on TEST_DATABASE_URL's server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";

const dataDir = process.env.DATA_DIR ?? "test-results/e2e-data";
rmSync(dataDir, { recursive: true, force: true });
if (!existsSync("build/server/main.js")) {
  console.error("No build: run `npm run build` first (npm run test:e2e does).");
  process.exit(1);
}

const env = { ...process.env, NODE_ENV: "production" };

// A local SMTP server that keeps every message the store sends as a file, for the tests to read.
const port = Number(process.env.PORT ?? 3400);
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
if (process.env.E2E_DATABASE === "postgres") {
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
}

// The first admin, made the way a store owner makes one: by the admin:create command, before the server starts
// (an embedded database is held by one process at a time). The tests read its output for the password.
const tsx = (...args) =>
  spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", ...args], { env, encoding: "utf8" });
const run = (...args) => {
  const done = tsx(...args);
  if (done.status !== 0) {
    console.error(done.stdout, done.stderr);
    process.exit(1);
  }
  return done.stdout;
};
writeFileSync(
  `test-results/admin-${port}.txt`,
  run("scripts/admin-create.ts", "--email", "admin@example.com", "--name", "Store Admin"),
);
// The tests sign in as the first admin with the printed password: it keeps it (no prompt for a new one). A second
// admin, made as admin:create makes one, is asked for a new password on first sign-in
// (tests/e2e/account-self-service.spec.ts).
writeFileSync(
  `test-results/admin2-${port}.txt`,
  run("tests/support/e2e-admins.ts", "admin@example.com", "new-admin@example.com"),
);

const server = spawn(process.execPath, ["--enable-source-maps", "build/server/main.js"], {
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => smtp.close(() => process.exit(code ?? 0)));
