import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { expect } from "@playwright/test";
import pg from "pg";
import { freshAdminAddress } from "./admin";

/** Production builds started by a test itself (its own port, DATA_DIR or database), and plain HTTP to them. */

export type StoreProcess = {
  child: ChildProcess;
  url: string;
  dataDir: string;
  exited: Promise<number | null>;
  output: () => string;
};

export function startStore(port: number, env: Record<string, string>): StoreProcess {
  const dataDir = `test-results/e2e-store-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["build/server/main.js"], {
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

export const ready = (store: StoreProcess, timeout = 120_000) =>
  expect
    .poll(async () => (await fetch(`${store.url}/healthz`).catch(() => null))?.status, {
      timeout,
      intervals: [200],
    })
    .toBe(200);

export async function stopStore(store: StoreProcess) {
  if (store.child.exitCode === null && store.child.signalCode === null) store.child.kill("SIGTERM");
  return store.exited;
}

/** A new, empty PostgreSQL database on TEST_DATABASE_URL's server: its URL. */
export async function freshDatabase(name: string): Promise<string> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * An admin made by `admin:create` on a running store's PostgreSQL database, keeping the printed password (as the
 * end-to-end server's first admin does), signed in: the session cookie.
 */
export async function adminSession(store: StoreProcess, databaseUrl: string): Promise<string> {
  const email = "owner@example.com";
  const made = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/admin-create.ts", "--email", email],
    { env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: store.dataDir }, encoding: "utf8" },
  );
  const password = /Temporary password \(shown only now\): (\S+)/.exec(made.stdout)?.[1];
  if (!password) throw new Error(`admin:create printed no password:\n${made.stdout}${made.stderr}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`update "user" set must_change_password = false where email = $1`, [email]);
  await client.end();
  const response = await fetch(`${store.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: store.url,
      "x-forwarded-for": freshAdminAddress(),
    },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`admin sign-in failed: ${response.status}`);
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
  expect(response.status).toBeLessThan(400);
}

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request on a new connection, its body as sent (not decoded), for comparing bytes and headers. */
export function rawRequest(
  url: string,
  { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
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
