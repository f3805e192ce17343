import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { nodeFlags } from "../../server/node-flags.mjs";

/**
 * Production builds started as processes of their own (a port, DATA_DIR or database each), and plain HTTP to them:
 * the end-to-end tests' stores, and the Vitest tests of what only a whole server process shows (locks, signals,
 * the page cache, full disks). Nothing here depends on a test runner.
 */

const BUILD = "build/server/main.js";

function requireBuild() {
  if (!existsSync(BUILD)) throw new Error("No build: run `npm run build` first (npm test does).");
}

/**
 * A client address of its own, drawn at random: better-auth limits sign-ins per address, counting on while attempts
 * keep coming (a counter would start again in every test file and every repeat).
 */
export const freshClientAddress = () => {
  const n = randomInt(1, 2 ** 24 - 1);
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
};

/** A TCP port nothing listens on now, for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `check` holds, asking every `interval` ms; rejects with `what` after `timeout` ms. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  { what, timeout = 60_000, interval = 100 }: { what: string; timeout?: number; interval?: number },
) {
  const until = Date.now() + timeout;
  // A check that throws (a refused connection) has not come true yet.
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > until) throw new Error(`Waited ${timeout} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

const status = (url: string) =>
  fetch(url).then(
    (response) => response.status,
    () => undefined,
  );

export type StoreProcess = {
  child: ChildProcess;
  url: string;
  dataDir: string;
  exited: Promise<number | null>;
  output: () => string;
};

/**
 * DATA_DIR as an end-to-end store starts on (the demo store imported, its admins made: tests/support/e2e-store-setup.ts),
 * copied from the template scripts/e2e-server.mjs sets up once for the build. A store's first start on an empty
 * directory (the embedded database made, migrated and filled) costs twice a later one; tests of what comes after
 * start here. The first admin's temporary password is in test-results/admin-PORT.txt.
 */
export function preparedDataDir(dataDir: string, port: number) {
  requireBuild();
  const prepared = spawnSync(process.execPath, ["scripts/e2e-server.mjs"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      E2E_PREPARE_ONLY: "1",
      E2E_DATABASE: "",
      DATABASE_URL: "",
    },
    encoding: "utf8",
  });
  if (prepared.status !== 0)
    throw new Error(`preparing ${dataDir} failed:\n${prepared.stdout}${prepared.stderr}`);
}

/**
 * The production build on `port` and a DATA_DIR of its own: the embedded database on a prepared one
 * (`preparedDataDir`), or an empty one beside the PostgreSQL database `env.DATABASE_URL` names.
 */
export function startStore(port: number, env: Record<string, string>): StoreProcess {
  requireBuild();
  const dataDir = `test-results/store-${port}`;
  if (env.DATABASE_URL) rmSync(dataDir, { recursive: true, force: true });
  else preparedDataDir(dataDir, port);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeFlags, BUILD], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SMTP_URL: "",
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, url, dataDir, exited, output: () => output };
}

/** Resolves once the store's readiness check answers 200. */
export const ready = (store: { url: string }, timeout = 120_000) =>
  waitFor(async () => (await status(`${store.url}/healthz`)) === 200, {
    what: `${store.url}/healthz to answer 200`,
    timeout,
  });

/** SIGTERM (unless it has ended already): resolves to its exit code. */
export async function stopStore(store: Pick<StoreProcess, "child" | "exited">) {
  if (store.child.exitCode === null && store.child.signalCode === null) store.child.kill("SIGTERM");
  return store.exited;
}

export type E2EStore = StoreProcess & { port: number; stop(): Promise<number | null> };

/**
 * The store the end-to-end tests shop in (scripts/e2e-server.mjs): the demo store on a fresh embedded database or
 * a fresh PostgreSQL database, its first admin made by admin:create (test-results/admin-PORT.txt), and an SMTP
 * server keeping every message in test-results/mail-PORT. Resolves once it is ready.
 */
export async function startE2EStore(
  port: number,
  database: "pglite" | "postgres",
  /** WEB_CONCURRENCY; 0 leaves it to the server. */
  processes = 0,
): Promise<E2EStore> {
  requireBuild();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["scripts/e2e-server.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: `test-results/e2e-data-${port}`,
      PUBLIC_URL: url,
      BLOG_URL: "https://blog.example.com",
      LOG_LEVEL: "warn",
      ...(database === "postgres" ? { E2E_DATABASE: "postgres" } : {}),
      ...(processes ? { WEB_CONCURRENCY: String(processes) } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    // What the store logs (warnings and errors) shows in the test run's output, as it happens.
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const store = { child, url, port, dataDir: `test-results/e2e-data-${port}`, exited, output: () => output };
  // With several processes, one answering is not enough: the line comes once every one of them listens.
  await waitFor(async () => child.exitCode !== null || output.includes("Storefront ready"), {
    what: `the end-to-end store on port ${port}`,
    timeout: 150_000,
  });
  if (child.exitCode !== null)
    throw new Error(`The store on port ${port} exited before it was ready:\n${output}`);
  return { ...store, stop: () => stopStore(store) };
}

/** The temporary password in what `npm run admin:create` printed. */
export function printedAdminPassword(output: string): string {
  const match = /Temporary password \(shown only now\): (\S+)/.exec(output);
  if (!match) throw new Error(`admin:create printed no password:\n${output}`);
  return match[1]!;
}

/**
 * The temporary password `npm run admin:create` printed for an end-to-end store's first admin (`admin2`: the second,
 * who keeps the prompt to choose a new one).
 */
export function e2eAdminPassword(baseURL: string, admin: "admin" | "admin2" = "admin"): string {
  return printedAdminPassword(readFileSync(`test-results/${admin}-${new URL(baseURL).port}.txt`, "utf8"));
}

/** A session cookie of a user signed in with better-auth's e-mail sign-in (from an address of its own). */
export async function signIn(baseURL: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL, "x-forwarded-for": freshClientAddress() },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

/** The company phone as the admin saves it on /admin/company (shown in every page's header). */
export async function savePhone(baseURL: string, cookie: string, local: string, international: string) {
  const response = await fetch(`${baseURL}/admin/company`, {
    method: "POST",
    headers: { cookie, origin: new URL(baseURL).origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "company", phone: local, phonecall: international }),
    redirect: "manual",
  });
  if (response.status >= 400) throw new Error(`saving the phone answered ${response.status}`);
}

/** The phone every page's header shows, as a visitor's page has it. */
export async function shownPhone(baseURL: string) {
  const html = (await rawRequest(`${baseURL}/contact`)).body.toString();
  const match = /href="tel:([^"]+)"[^>]*data-testid="company-phone"[^>]*>(?:<[^>]+>)*([^<]+)</.exec(html);
  if (!match) throw new Error("no company phone in the page");
  return { international: match[1]!, local: match[2]!.trim() };
}

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request on a new connection, its body as sent (not decoded), for comparing bytes and headers. */
export function rawRequest(
  url: string,
  {
    method = "GET",
    headers = {},
    target,
  }: {
    method?: string;
    headers?: Record<string, string>;
    /** The request target exactly as sent (`/user/../admin`), which a URL would have normalized. */
    target?: string;
  } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const options = { method, headers, agent: false, ...(target === undefined ? {} : { path: target }) };
    const request = http.request(url, options, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const body = Buffer.concat(chunks);
        const declared = response.headers["content-length"];
        if (declared !== undefined && Number(declared) !== body.length && method !== "HEAD") {
          reject(new Error(`${url}: Content-Length ${declared}, but ${body.length} bytes were sent`));
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/** The processes whose parent is `pid` (Linux). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}
